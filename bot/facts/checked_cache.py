"""Facts once checked, kept on disk, so that a later start with the same files skips checking them.

Checking the data files (pydantic, the cross-checks) is most of what a start would cost. What it
gives is kept with the exact bytes it came from: the data files and the source of the code that
read them (the facts stage). A start reads those bytes again and takes the kept value only when
every one is equal, so an edited file, an imported page or changed code is checked afresh and
never answered from an old copy.

Where: $MINCARDS_CACHE (a folder; `off` for none), else $XDG_CACHE_HOME/mincards, else
~/.cache/mincards; a file per data folder, for the last few folders used. Values are pickled,
and unpickling can run code, so a folder or file that anyone but this user could write is never
read. Any failure to read or write is ignored: the cache only saves time.
"""

from __future__ import annotations

import os
import pickle
import sys
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar, cast

CACHE_ENV = "MINCARDS_CACHE"
FORMAT = 1
KEEP_FILES = 8  # data folders remembered; the least recently written go first
T = TypeVar("T")
_OTHERS_WRITE = 0o022


def cache_dir() -> Path | None:
    """The folder the cache lives in, or None when it is turned off."""
    configured = os.environ.get(CACHE_ENV)
    if configured is not None:
        return None if configured.strip().lower() in ("", "off", "0", "no") else Path(configured)
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except (RuntimeError, KeyError):  # a service user with no home: no cache, no failure
            return None
    return Path(base) / "mincards"


def _only_mine(path: Path) -> bool:
    """True when nobody but this user could have written `path`."""
    st = path.stat()
    owner = os.getuid() if hasattr(os, "getuid") else st.st_uid
    return st.st_uid == owner and not st.st_mode & _OTHERS_WRITE


def _read(paths: Sequence[Path]) -> dict[str, bytes] | None:
    try:
        return {str(p): p.read_bytes() for p in paths}
    except OSError:
        return None  # a file that cannot be read is the checker's to report


class CheckedCache:
    """A value made from `inputs`, kept with their exact bytes; one file per `key`."""

    def __init__(self, key: str, inputs: Sequence[Path]) -> None:
        self.inputs = tuple(inputs)
        folder = cache_dir()
        # The key only picks the file; what is in it is trusted by its inputs, not its name.
        name = f"facts-{zlib.crc32(f'{key}{sys.version}'.encode()):08x}.pickle"
        self.path = folder / name if folder else None

    def value(self, make: Callable[[], T]) -> T:
        """The kept value when every input is byte for byte what it was made from; else
        `make()`, kept unless an input changed meanwhile (a page imported while this process
        started: it is made again next time)."""
        seen = _read(self.inputs)
        if self.path is None or seen is None:
            return make()
        kept = self._recall(self.path, seen)
        if kept is not None:
            return cast("T", kept)
        made = make()
        if _read(self.inputs) == seen:
            self._keep(self.path, seen, made)
        return made

    @staticmethod
    def _recall(path: Path, seen: dict[str, bytes]) -> object | None:
        try:
            if not (_only_mine(path.parent) and _only_mine(path)):
                return None
            kept = pickle.loads(path.read_bytes())
            if kept["format"] == FORMAT and kept["inputs"] == seen:
                return kept["value"]
        except Exception:  # missing, unreadable, truncated or from other code: make it again
            return None
        return None

    @staticmethod
    def _keep(path: Path, seen: dict[str, bytes], value: object) -> None:
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not _only_mine(path.parent):
                return
            kept = pickle.dumps({"format": FORMAT, "inputs": seen, "value": value},
                                protocol=pickle.HIGHEST_PROTOCOL)
        except (OSError, pickle.PicklingError):
            return
        # Written whole under another name and renamed: a reader never sees half a file.
        partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
        try:
            fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(kept)
            partial.replace(path)
        except OSError:
            partial.unlink(missing_ok=True)
            return
        _forget_old(path.parent)


def _forget_old(folder: Path) -> None:
    try:
        kept = sorted(folder.glob("facts-*.pickle"), key=lambda p: p.stat().st_mtime,
                      reverse=True)
        for old in kept[KEEP_FILES:]:
            old.unlink(missing_ok=True)
    except OSError:
        return
