"""The bytes of a data file, read safely: a regular file only (never a device such as /dev/zero,
a FIFO that would hang the start, or a folder), at most a bound, through a descriptor opened
without blocking. And, while facts are being made for the checked cache, the very bytes the cache
keys them by (`snapshot`): a file that changes during a start cannot file one version's facts
under another's bytes."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from pathlib import Path

from mincards.bot.errors import DataError

# The bound the importer reads pages with, and every data file with it.
MAX_FILE_BYTES = 20 * 1024 * 1024
_SNAPSHOT: ContextVar[Mapping[str, bytes] | None] = ContextVar("data_snapshot", default=None)


def read_bounded(path: Path, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The file's bytes (the snapshot's, while one is in force); DataError in one line naming
    the file for anything but a regular file within the bound."""
    taken = _SNAPSHOT.get()
    if taken is not None and str(path) in taken:
        return taken[str(path)]
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise DataError(path, f"cannot read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise DataError(path, "is not a regular file (a device, a pipe or a folder): "
                        "data files are plain files")
    with os.fdopen(fd, "rb") as stream:
        try:
            raw = stream.read(max_bytes + 1)
        except OSError as exc:
            raise DataError(path, f"cannot read: {exc.strerror or exc}") from None
    if len(raw) > max_bytes:
        raise DataError(path, f"is larger than {max_bytes // (1024 * 1024)} MB: not a page or "
                        "table this tool reads")
    return raw


@contextlib.contextmanager
def snapshot(taken: Mapping[str, bytes]) -> Iterator[None]:
    """Within the block, `read_bounded` answers from `taken` (path -> bytes) for its paths."""
    token = _SNAPSHOT.set(taken)
    try:
        yield
    finally:
        _SNAPSHOT.reset(token)
