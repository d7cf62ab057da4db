"""Watching the page: fetch it (conditionally, bounded), read it with the importer, and compare
it with the table in use; remember what was fetched and which changes were already announced.

`mincards check-page URL` runs this daily; the fetch itself, network I/O, is
handlers/page_fetch.py. The state file keeps, per URL, the validators Huawei's
server gave (ETag, Last-Modified) and the page's text, so an unchanged page costs a 304 and is
still compared (the data in use may have changed since), and the digests of the changes already
posted, so each distinct change is announced once.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from mincards.bot.errors import MincardsError
from mincards.bot.facts.table import MAX_FILE_BYTES
from mincards.bot.importing.table_diff import TableDiff

DEFAULT_TIMEOUT = 30.0
# Announced changes remembered per URL: enough for years of daily checks.
MAX_POSTED = 50


class PageWatchError(MincardsError):
    """The page could not be fetched or read; the message says why in one line."""


def default_state_path() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "mincards" / "check-page.json"


@dataclass
class Remembered:
    """What the state file holds for one URL."""

    etag: str | None = None
    last_modified: str | None = None
    text: str | None = None
    posted: list[str] = field(default_factory=list)

    def json(self) -> dict[str, Any]:
        return {"etag": self.etag, "last_modified": self.last_modified, "text": self.text,
                "posted": self.posted[-MAX_POSTED:]}

    @classmethod
    def from_json(cls, data: Any) -> Remembered:
        if not isinstance(data, dict):
            return cls()

        def text(key: str) -> str | None:
            value = data.get(key)
            return value if isinstance(value, str) else None

        posted = data.get("posted")
        return cls(text("etag"), text("last_modified"), text("text"),
                   [p for p in posted if isinstance(p, str)] if isinstance(posted, list) else [])


# A state file holds a page's text per URL (JSON-escaped, so up to ~2x) and little else: one
# larger than this was not written by check-page.
MAX_STATE_BYTES = 4 * MAX_FILE_BYTES


class WatchState:
    """The state file: {"pages": {url: Remembered}}; a missing or unreadable one starts empty
    (at worst one change is announced again). One that is not a regular file (a FIFO, a
    device, a link to one) or is larger than check-page writes is refused in one line. Held
    (a lock beside it) from reading to saving, so that runs at once take turns and a change
    is posted once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.pages: dict[str, Remembered] = {}
        self._lock = self._hold()
        data = self._read()
        pages = data.get("pages") if isinstance(data, dict) else None
        if isinstance(pages, dict):
            self.pages = {url: Remembered.from_json(v) for url, v in pages.items()}

    def _hold(self) -> IO[bytes]:
        lock_path = self.path.with_name(self.path.name + ".lock")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if lock_path.exists() and not lock_path.is_file():
                raise PageWatchError(f"{lock_path} is not a regular file")
            lock = lock_path.open("ab")
            fcntl.flock(lock, fcntl.LOCK_EX)  # another run's turn ends when it exits
        except OSError as exc:
            raise PageWatchError(f"cannot lock the state file {self.path}: "
                                 f"{exc.strerror or exc}") from None
        return lock

    def _read(self) -> Any:
        try:
            info = self.path.stat()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise PageWatchError(f"cannot read the state file {self.path}: "
                                 f"{exc.strerror or exc}") from None
        if not stat.S_ISREG(info.st_mode):
            raise PageWatchError(f"the state file {self.path} is not a regular file")
        too_big = PageWatchError(f"the state file {self.path} is larger than "
                                 f"{MAX_STATE_BYTES // (1024 * 1024)} MB: not check-page's")
        if info.st_size > MAX_STATE_BYTES:
            raise too_big
        try:
            with self.path.open("rb") as f:
                raw = f.read(MAX_STATE_BYTES + 1)  # bounded, should it grow meanwhile
        except OSError:
            return {}
        if len(raw) > MAX_STATE_BYTES:
            raise too_big
        try:
            return json.loads(raw.decode("utf-8"))
        except ValueError:
            return {}

    def close(self) -> None:
        """Let the next run take its turn."""
        self._lock.close()

    def of(self, url: str) -> Remembered:
        return self.pages.setdefault(url, Remembered())

    def save(self) -> None:
        """Written whole to a temporary file, then renamed over the old one."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".check-page-")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump({"pages": {u: r.json() for u, r in self.pages.items()}}, out,
                          ensure_ascii=False)
            Path(tmp).replace(self.path)
        except OSError as exc:
            raise PageWatchError(f"cannot write the state file {self.path}: "
                                 f"{exc.strerror or exc}") from None


def change_digest(diff: TableDiff) -> str:
    """One change, however often it is seen: the diff's content, not the day it was fetched."""
    content = json.dumps(diff.json(), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(content.encode("utf-8")).hexdigest()[:32]
