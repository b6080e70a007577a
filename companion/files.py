"""Reading a file a user names (a record to replay, records to import), safely: only a regular
file (or standard input) is opened — a device such as /dev/zero, a FIFO or a folder is refused
before any read, so nothing can hang — and at most a size limit is read.

Light on purpose: `companion replay` uses it, and its path imports no SQLAlchemy, no Flet.
"""

from __future__ import annotations

import os
import stat
from typing import BinaryIO, Iterator

from models.i18n import Msg

READ_LIMIT = 64 * 1024 * 1024  # bytes: far more than years of games, far less than memory
_CHUNK = 1024 * 1024


class Unreadable(Exception):
    """A file that will not be read (not a regular file, or over the size limit); ``msg`` says
    why. Nothing was read from it, or the reading stopped."""

    def __init__(self, msg: Msg):
        self.msg = msg
        super().__init__(msg.render("en"))


def read_limited(stream: BinaryIO, name: str, limit: int = READ_LIMIT, *,
                 too_big: str = "service.import.too_big") -> bytes:
    """Read at most ``limit`` bytes, chunk by chunk; Unreadable (message ``too_big``) as soon as
    there is more."""
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = stream.read(min(_CHUNK, limit + 1 - size))
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > limit:
            raise Unreadable(Msg(too_big, {"path": name, "limit": limit // (1024 * 1024)}))
        chunks.append(chunk)


def open_regular(path: str, *, not_a_file: str = "service.import.not_a_file") -> BinaryIO:
    """``path`` opened for reading if it is a regular file, else Unreadable (message
    ``not_a_file``); OSError for a file that cannot be opened."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise Unreadable(Msg(not_a_file, {"path": path}))
    # O_NONBLOCK: had the path been swapped for a FIFO since the check, opening it does not wait
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    stream = os.fdopen(fd, "rb")
    if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
        stream.close()
        raise Unreadable(Msg(not_a_file, {"path": path}))
    return stream


def read_file(path: str, stdin: BinaryIO | None = None, limit: int = READ_LIMIT, *,
              too_big: str = "service.import.too_big", not_a_file: str = "service.import.not_a_file") -> bytes:
    """The bytes of ``path`` (``-``: ``stdin``), a regular file only, read with a size limit.
    Unreadable or OSError."""
    if path == "-":
        if stdin is None:
            raise Unreadable(Msg(not_a_file, {"path": path}))
        return read_limited(stdin, path, limit, too_big=too_big)
    with open_regular(path, not_a_file=not_a_file) as stream:
        return read_limited(stream, path, limit, too_big=too_big)


def limited_lines(stream: BinaryIO, name: str, limit: int = READ_LIMIT, *,
                  too_big: str = "service.import.too_big") -> Iterator[bytes]:
    """The lines of ``stream``, each read with the size limit (a file of JSON Lines may be long;
    one line — one record — may not be endless)."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) > limit:
            raise Unreadable(Msg(too_big, {"path": name, "limit": limit // (1024 * 1024)}))
        yield line
