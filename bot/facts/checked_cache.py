"""Facts once checked, kept on disk, so that a later start with the same files skips checking them.

Checking the data files (pydantic, the cross-checks) is most of what a start would cost. What it
gives is kept with the exact bytes it came from: the data files and the source of the code that
read them (the facts stage). A start reads those bytes once, makes the value from exactly those
bytes (facts/data_bytes.snapshot: a file changing meanwhile cannot put one version's facts under
another's bytes), and takes a kept value only when every input is equal, so an edited file, an
imported page or changed code is checked afresh and never answered from an old copy.

The file holds a SHA-256 digest of the rest, checked before anything in it is used: a flipped
bit, a truncated write, anything but what was written is made again, never a crash or another
answer. Where: $MINCARDS_CACHE (a folder, `~` expanded; `off`, `false`, `0`, `no`, `none` and the
like for none; `on`, `true`, `1`, `yes` for the usual place, never a folder of that name),
else $XDG_CACHE_HOME/mincards, else ~/.cache/mincards; a file per data folder, for the last few
folders used. Values are pickled, and unpickling can run code, so a folder or file that anyone
but this user could write is never read. A `.partial` file left by a start killed mid-write is
removed by the next start. Any failure to read or write is ignored: the cache only saves time.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar, cast

from mincards.bot.errors import DataError
from mincards.bot.facts.data_bytes import read_bounded, snapshot

CACHE_ENV = "MINCARDS_CACHE"
FORMAT = 2
MAGIC = b"mincards-checked-facts\n"
# The spellings of "no" and "yes" people give a switch (pydantic's for a bool, and a few
# more): none of them is a folder's name. Yes is the usual place.
OFF = frozenset({"", "off", "false", "f", "0", "no", "n", "none", "disable", "disabled"})
ON = frozenset({"on", "true", "t", "1", "yes", "y", "enable", "enabled", "default"})
# A .partial older than this was left by a start that died: a write takes milliseconds.
STALE_PARTIAL_SECONDS = 300.0
KEEP_FILES = 8  # data folders remembered; the least recently written go first
T = TypeVar("T")
_OTHERS_WRITE = 0o022


def cache_dir() -> Path | None:
    """The folder the cache lives in, or None when it is turned off."""
    configured = os.environ.get(CACHE_ENV)
    if configured is not None and configured.strip().lower() not in ON:
        if configured.strip().lower() in OFF:
            return None
        return Path(configured.strip()).expanduser()
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
        return {str(p): read_bounded(p) for p in paths}
    except DataError:
        return None  # a file that cannot be read is the checker's to report


class CheckedCache:
    """A value made from `inputs`, kept with their exact bytes; one file per `key`."""

    def __init__(self, key: str, inputs: Sequence[Path]) -> None:
        self.inputs = tuple(inputs)
        folder = cache_dir()
        # The key only picks the file; what is in it is trusted by its inputs, not its name.
        name = f"facts-{zlib.crc32(f'{key}{sys.version}'.encode()):08x}.pickle"
        self.path = folder / name if folder else None

    def value(self, make: Callable[[], T],
              accept: Callable[[object], bool] = lambda _: True) -> T:
        """The kept value when every input is byte for byte what it was made from (and
        `accept` takes it); else `make()`, run on exactly the bytes read here, and kept."""
        seen = _read(self.inputs)
        if seen is None:
            return make()
        if self.path is None:
            with snapshot(seen):
                return make()
        kept = self._recall(self.path, seen)
        # A start killed mid-write left its .partial; a start that then finds the cache
        # current writes nothing, so the leftovers go here, not only at the next write.
        _forget_partials(self.path.parent)
        try:
            if kept is not None and accept(kept):
                return cast("T", kept)
        except Exception:  # a kept value that does not fit this code: made again
            pass
        with snapshot(seen):
            made = make()
        self._keep(self.path, seen, made)
        return made

    @staticmethod
    def _recall(path: Path, seen: dict[str, bytes]) -> object | None:
        try:
            if not (_only_mine(path.parent) and _only_mine(path)):
                return None
            raw = path.read_bytes()
            head, digest = len(MAGIC), slice(len(MAGIC), len(MAGIC) + 32)
            body = raw[len(MAGIC) + 32:]
            if raw[:head] != MAGIC or hashlib.sha256(body).digest() != raw[digest]:
                return None  # not what was written: never unpickled
            kept = pickle.loads(body)
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
            body = pickle.dumps({"format": FORMAT, "inputs": seen, "value": value},
                                protocol=pickle.HIGHEST_PROTOCOL)
        except (OSError, pickle.PicklingError):
            return
        kept = MAGIC + hashlib.sha256(body).digest() + body
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


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's: alive
    return True


def _forget_old(folder: Path) -> None:
    """The least recently written files past KEEP_FILES, and any `.partial` whose writer is
    gone (a start killed mid-write)."""
    try:
        kept = sorted(folder.glob("facts-*.pickle"), key=lambda p: p.stat().st_mtime,
                      reverse=True)
        for old in kept[KEEP_FILES:]:
            old.unlink(missing_ok=True)
    except OSError:
        return
    _forget_partials(folder)


def _forget_partials(folder: Path) -> None:
    """Every `.partial` whose writer is gone, or that is older than any write takes (its
    writer's number may since belong to another process)."""
    try:
        partials = list(folder.glob("facts-*.partial"))
    except OSError:
        return
    now = time.time()
    for partial in partials:
        pid = partial.name.split(".")[-2]
        try:
            stale = now - partial.lstat().st_mtime > STALE_PARTIAL_SECONDS
            if stale or not pid.isdigit() or not _alive(int(pid)):
                partial.unlink(missing_ok=True)
        except OSError:
            continue
