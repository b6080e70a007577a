"""The server's log never holds its event loop.

A log line written straight to standard error blocks the writer when nobody reads that stream (a
pipe whose reader is gone or slow: a launcher, a service manager that stalls): one blocked write on
the event loop and the server answers nothing, to anyone, for as long as the pipe stays full. A
device on the network could fill it (each frame Flet cannot read logged its traceback: 192 of them
filled a 64 KiB pipe and froze the server). :func:`log_without_blocking` sends every record
(Python's warnings too) through a bounded queue to a thread that writes them; when that thread is
stuck, records past :data:`QUEUE_RECORDS` are dropped and counted, never waited for.
"""

from __future__ import annotations

import logging
import logging.handlers
import queue
import sys
from typing import Any

QUEUE_RECORDS = 1000


class DroppingQueueHandler(logging.handlers.QueueHandler):
    """A queue handler that drops a record when the queue is full, and never writes an error of
    its own to standard error."""

    def __init__(self, records: queue.Queue[Any]) -> None:
        super().__init__(records)
        self.dropped = 0

    def enqueue(self, record: logging.LogRecord) -> None:
        try:
            self.queue.put_nowait(record)
        except queue.Full:
            self.dropped += 1

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 (logging's name)
        self.dropped += 1


class Writer(logging.handlers.QueueListener):
    """The thread that writes the queued records; stopping it waits a moment at most, never for a
    stream that does not take what it is given."""

    def __init__(self, records: queue.Queue[Any], *handlers: logging.Handler) -> None:
        super().__init__(records, *handlers, respect_handler_level=False)
        self.records = records

    def stop(self, within: float = 2.0) -> None:
        try:
            self.records.put(None, timeout=within)  # QueueListener's sentinel
        except queue.Full:
            pass
        if self._thread is not None:
            self._thread.join(within)
            self._thread = None


def log_without_blocking(level: int = logging.WARNING, stream: Any = None,
                         capacity: int = QUEUE_RECORDS) -> tuple[DroppingQueueHandler, Writer]:
    """Route the root logger (and Python's warnings) through a bounded queue to a writer thread on
    ``stream`` (standard error). Returns the handler (its ``dropped`` count) and the started
    listener (``stop()`` writes what is left)."""
    records: queue.Queue[Any] = queue.Queue(maxsize=capacity)
    handler = DroppingQueueHandler(records)
    writer = logging.StreamHandler(stream if stream is not None else sys.stderr)
    writer.setFormatter(logging.Formatter("%(levelname)s: %(name)s: %(message)s"))
    listener = Writer(records, writer)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    logging.captureWarnings(True)
    listener.start()
    return handler, listener
