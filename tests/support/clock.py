"""A clock the tests move by hand, given to the service in place of the real one."""

from __future__ import annotations

from datetime import datetime, timedelta


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, start: datetime):
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now
