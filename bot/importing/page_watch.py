"""Watching the page: fetch it (conditionally, bounded), read it with the importer, and compare
it with the table in use; remember what was fetched and which changes were already announced.

`mincards check-page URL` runs this daily. The state file keeps, per URL, the validators Huawei's
server gave (ETag, Last-Modified) and the page's text, so an unchanged page costs a 304 and is
still compared (the data in use may have changed since), and the digests of the changes already
posted, so each distinct change is announced once.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mincards.bot.errors import MincardsError
from mincards.bot.facts.table import MAX_FILE_BYTES
from mincards.bot.importing.table_diff import TableDiff

USER_AGENT = "mincards-check-page (+https://github.com/; compares the minimum-cards table)"
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


class WatchState:
    """The state file: {"pages": {url: Remembered}}; a missing or unreadable one starts empty
    (at worst one change is announced again)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.pages: dict[str, Remembered] = {}
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        pages = data.get("pages") if isinstance(data, dict) else None
        if isinstance(pages, dict):
            self.pages = {url: Remembered.from_json(v) for url, v in pages.items()}

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


@dataclass(frozen=True)
class Fetched:
    text: str
    not_modified: bool  # the server said 304: the text is the one remembered


def fetch_page(url: str, remembered: Remembered, timeout: float = DEFAULT_TIMEOUT,
               max_bytes: int = MAX_FILE_BYTES) -> Fetched:
    """The page's text, asking the server only for a newer one than remembered."""
    if not url.startswith(("http://", "https://")):
        raise PageWatchError(f"{url[:100]!r} is not an http(s) URL")
    headers = {"User-Agent": USER_AGENT, "Accept": "text/html, text/plain, text/markdown"}
    if remembered.text is not None:
        if remembered.etag:
            headers["If-None-Match"] = remembered.etag
        if remembered.last_modified:
            headers["If-Modified-Since"] = remembered.last_modified
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw = response.read(max_bytes + 1)
            etag, modified = response.headers.get("ETag"), response.headers.get("Last-Modified")
            charset = response.headers.get_content_charset() or "utf-8"
    except urllib.error.HTTPError as exc:
        if exc.code == 304 and remembered.text is not None:
            return Fetched(remembered.text, not_modified=True)
        raise PageWatchError(f"{url[:100]} answered HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        reason = getattr(exc, "reason", None) or exc
        if isinstance(reason, TimeoutError) or "timed out" in str(reason):
            reason = f"no answer within {timeout:g} s"
        raise PageWatchError(f"cannot fetch {url[:100]}: {reason}") from None
    if len(raw) > max_bytes:
        raise PageWatchError(f"{url[:100]} is larger than {max_bytes // (1024 * 1024)} MB: not "
                             "the page")
    try:
        text = raw.decode(charset, errors="strict")
    except (LookupError, UnicodeDecodeError):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise PageWatchError(f"{url[:100]} is not text in UTF-8 or its declared "
                                 "charset") from None
    remembered.etag, remembered.last_modified, remembered.text = etag, modified, text
    return Fetched(text, not_modified=False)


def change_digest(diff: TableDiff) -> str:
    """One change, however often it is seen: the diff's content, not the day it was fetched."""
    content = json.dumps(diff.json(), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(content.encode("utf-8")).hexdigest()[:32]
