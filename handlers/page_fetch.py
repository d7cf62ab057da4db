"""Fetching the page, bounded in every way a server can misbehave: one deadline for the whole
fetch (a server trickling a byte at a time included), a body that must be whole (shorter than
its Content-Length, or a chunked body cut short, is an error, never the page), a size bound,
redirects only to http(s) and said, the charsets pages are written in. Every failure is a
PageFetchError with one line that says why; no URL is ever printed with its password.
"""

from __future__ import annotations

import asyncio
import codecs
import math
import re
from dataclasses import dataclass, field
from typing import Protocol
from urllib.parse import urlsplit, urlunsplit

from mincards.bot.errors import MincardsError

USER_AGENT = "mincards-check-page (+https://github.com/; compares the minimum-cards table)"
MAX_REDIRECTS = 5
MAX_HEADERS = 100
MAX_TIMEOUT = 3600.0
# What pages are written in (codecs' own names): anything else is refused, not decoded (a
# codec such as punycode can spend minutes on a page-sized input).
PAGE_CHARSETS = frozenset({"utf-8", "ascii", "gbk", "gb18030", "gb2312", "big5", "utf-16",
                           "utf-16-le", "utf-16-be"})
# A validator the server gave, sent back as is: visible ASCII and spaces only (RFC 9110).
_VALIDATOR = re.compile(r"[\x21-\x7e][\x20-\x7e]{0,1000}")
_REDIRECTS = frozenset({301, 302, 303, 307, 308})


class PageFetchError(MincardsError):
    """The page could not be fetched; the message says why in one line."""


def shown(url: str) -> str:
    """A URL as it may be printed: without the user and password it may carry, and short."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        if parts.port is not None:
            host = f"{host}:{parts.port}"
        if ":" in (parts.hostname or ""):  # an IPv6 address
            host = f"[{parts.hostname}]" + (f":{parts.port}" if parts.port else "")
        url = urlunsplit((parts.scheme, host, parts.path, parts.query, ""))
    except ValueError:
        url = url.split("@", 1)[-1] if "@" in url else url
    return url[:100]


def check_url(url: str) -> None:
    """An http(s) URL as a server takes it: refused in one line otherwise."""
    if not url.startswith(("http://", "https://")):
        raise PageFetchError(f"{shown(url)!r} is not an http(s) URL")
    if any(not 0x21 <= ord(c) <= 0x7E for c in url):
        raise PageFetchError(f"{shown(url)!r} has a space, a control or a non-ASCII character: "
                             "percent-encode it")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (raises on a port that is not a number)
    except ValueError as exc:
        raise PageFetchError(f"{shown(url)!r} is not a valid URL ({exc})") from None
    if not parts.hostname:
        raise PageFetchError(f"{shown(url)!r} names no host")


def check_timeout(seconds: float) -> float:
    if not math.isfinite(seconds) or seconds <= 0 or seconds > MAX_TIMEOUT:
        raise PageFetchError(f"--timeout must be a number of seconds above 0 and at most "
                             f"{MAX_TIMEOUT:g}, not {seconds:g}")
    return seconds


@dataclass(frozen=True)
class Response:
    status: int
    body: bytes = b""
    etag: str | None = None
    last_modified: str | None = None
    charset: str | None = None
    redirects: tuple[str, ...] = field(default_factory=tuple)  # where it went, in order (shown)


def validators(etag: str | None, last_modified: str | None) -> dict[str, str]:
    """The conditional headers for a remembered page; one that is not a valid header value
    (a state file edited by hand: CR, LF) is not sent, and the page is fetched whole."""
    headers = {}
    if etag and _VALIDATOR.fullmatch(etag):
        headers["If-None-Match"] = etag
    if last_modified and _VALIDATOR.fullmatch(last_modified):
        headers["If-Modified-Since"] = last_modified
    return headers


def fetch(url: str, headers: dict[str, str], timeout: float, max_bytes: int) -> Response:
    """GET `url` within `timeout` seconds in all, following redirects to http(s) only."""
    check_url(url)
    check_timeout(timeout)
    try:
        return asyncio.run(asyncio.wait_for(_fetch(url, headers, timeout, max_bytes), timeout))
    except PageFetchError:
        raise
    except TimeoutError:
        raise PageFetchError(f"cannot fetch {shown(url)}: no answer within "
                             f"{timeout:g} s") from None
    except Exception as exc:  # any failure of the server or the network: one line, exit 2
        raise PageFetchError(f"cannot fetch {shown(url)}: {_reason(exc)}") from None


def _reason(exc: BaseException) -> str:
    import aiohttp

    if isinstance(exc, aiohttp.ClientPayloadError):
        return "the body ended before it was whole (cut short, or its framing is broken)"
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}" + (f": {text[:160]}" if text else "")


async def _fetch(url: str, headers: dict[str, str], timeout: float,
                 max_bytes: int) -> Response:
    import aiohttp
    from yarl import URL

    went: list[str] = []
    sent = {"User-Agent": USER_AGENT, "Accept": "text/html, text/plain, text/markdown",
            **headers}
    limits = aiohttp.ClientTimeout(total=timeout)
    # Header bounds as Python's http.client keeps them: a page's server needs far less.
    async with aiohttp.ClientSession(timeout=limits, max_line_size=16384, max_field_size=16384,
                                     max_headers=MAX_HEADERS) as session:
        for _ in range(MAX_REDIRECTS + 1):
            async with session.get(URL(url, encoded=True), headers=sent,
                                   allow_redirects=False) as response:
                if response.status in _REDIRECTS:
                    location = response.headers.get("Location", "")
                    target = str(URL(url, encoded=True).join(URL(location, encoded=True)))
                    if not target.startswith(("http://", "https://")):
                        raise PageFetchError(f"{shown(url)} redirects to {shown(target)}, "
                                             "which is not http(s): not followed")
                    check_url(target)
                    went.append(shown(target))
                    url = target
                    continue
                body = b""
                if response.status == 200:
                    chunks = []
                    size = 0
                    async for chunk in response.content.iter_chunked(65536):
                        size += len(chunk)
                        if size > max_bytes:
                            raise PageFetchError(
                                f"{shown(url)} is larger than {max_bytes // (1024 * 1024)} MB: "
                                "not the page")
                        chunks.append(chunk)
                    body = b"".join(chunks)
                    declared = response.headers.get("Content-Length")
                    # Said in the body's own bytes only when it is not compressed.
                    plain = response.headers.get("Content-Encoding", "identity") == "identity"
                    if plain and declared is not None and declared.isdigit() and int(
                            declared) != size:
                        raise PageFetchError(f"cannot fetch {shown(url)}: the body ended before "
                                             "it was whole")
                return Response(response.status, body, response.headers.get("ETag"),
                                response.headers.get("Last-Modified"), response.charset,
                                tuple(went))
    raise PageFetchError(f"{shown(url)} redirects more than {MAX_REDIRECTS} times")


def decode(body: bytes, charset: str | None, url: str) -> str:
    """The page's text in its declared charset (UTF-8 when it declares none); a charset pages
    are not written in is refused, not tried."""
    name = charset or "utf-8"
    try:
        codec = codecs.lookup(name).name
    except LookupError:
        raise PageFetchError(f"{shown(url)} declares charset {name[:40]!r}, which is not one "
                             "this reads") from None
    if codec not in PAGE_CHARSETS:
        raise PageFetchError(f"{shown(url)} declares charset {name[:40]!r}; pages are read in "
                             "UTF-8, GBK, GB18030, Big5 or UTF-16")
    try:
        return body.decode(codec, errors="strict")
    except UnicodeDecodeError:
        try:
            return body.decode("utf-8")
        except UnicodeDecodeError:
            raise PageFetchError(f"{shown(url)} is not text in UTF-8 or its declared "
                                 f"charset ({name[:40]})") from None


class Remembered(Protocol):
    """What check-page's state keeps of a page (bot/importing/page_watch.Remembered)."""

    etag: str | None
    last_modified: str | None
    text: str | None


@dataclass(frozen=True)
class Fetched:
    text: str
    not_modified: bool  # the server said 304: the text is the one remembered
    redirects: tuple[str, ...] = ()  # where the request was sent on to (passwords removed)


def fetch_page(url: str, remembered: Remembered, timeout: float, max_bytes: int) -> Fetched:
    """The page's text, asking the server only for a newer one than remembered; within one
    deadline, whole, or an error. `remembered` takes the new text and validators only once
    the page is whole and decoded: a cut page is never remembered."""
    headers = validators(remembered.etag, remembered.last_modified) if (
        remembered.text is not None) else {}
    response = fetch(url, headers, timeout, max_bytes)
    if response.status == 304 and remembered.text is not None:
        return Fetched(remembered.text, not_modified=True, redirects=response.redirects)
    if response.status != 200:
        raise PageFetchError(f"{shown(url)} answered HTTP {response.status}")
    text = decode(response.body, response.charset, url)
    remembered.etag, remembered.last_modified, remembered.text = (
        response.etag, response.last_modified, text)
    return Fetched(text, not_modified=False, redirects=response.redirects)
