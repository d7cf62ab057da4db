"""What huggingface_hub's requests may reach here, and how much of a file is read.

huggingface_hub follows redirects (a renamed repository, a file on a CDN), so a Hub, a mirror or
anyone able to answer for one could send the bot's fetch to a service on its own host or network
(Redis on 127.0.0.1, a cloud's metadata address). Every request it makes, each redirect hop
included, is checked before it is sent: the endpoint itself (HF_ENDPOINT's host and port, or
huggingface.co) and the Hub's own hosts are reached; any other host only when every address it
resolves to is public (checked as the request leaves: a name resolving differently a moment
later is not caught). A config.json is read by this module, streamed, never past MAX_BYTES nor
past the deadline, whatever its headers said.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import threading
import time
from typing import Any
from urllib.parse import urlsplit

from mincards.bot.errors import MincardsError
from mincards.bot.estimating.hf_config import MAX_BYTES

DEFAULT_ENDPOINT = "https://huggingface.co"
# The Hub's own hosts (its site, short links, its file and storage hosts).
HUB_DOMAINS = ("huggingface.co", "hf.co")
CHUNK_BYTES = 64 * 1024


class Refused(MincardsError):
    """A request huggingface_hub was about to send where the bot's fetches never go."""


def endpoint() -> tuple[str, int]:
    """(host, port) of the Hub in use."""
    url = os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT
    parts = urlsplit(url if "://" in url else "https://" + url)
    try:
        port = parts.port
    except ValueError:
        port = None
    return (parts.hostname or "").lower(), port or (443 if parts.scheme == "https" else 80)


def _is_hub_host(host: str) -> bool:
    return any(host == domain or host.endswith("." + domain) for domain in HUB_DOMAINS)


def _public(host: str, port: int) -> bool:
    """Whether every address `host` resolves to is a public one (never loopback, a private or
    link-local range, multicast, reserved or unspecified)."""
    try:
        literal = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        try:
            found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError:
            return True  # unresolvable: the request fails on its own, reaching nothing
        addresses = {ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in found}
    else:
        addresses = {literal}
    return bool(addresses) and all(a.is_global for a in addresses)


def check(url: str) -> None:
    """Refused when `url` is somewhere the Hub fetch must not go."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise Refused("an address with no valid port") from None
    if parts.scheme not in ("http", "https") or not host:
        raise Refused(f"a {parts.scheme or 'schemeless'} address")
    if (host, port) == endpoint() or _is_hub_host(host):
        return
    if not _public(host, port):
        raise Refused(f"{host}, a private or local address, not followed")


def _guard(request: Any) -> None:
    check(str(request.url))


_lock = threading.Lock()


def guarded_session() -> Any:
    """huggingface_hub's shared client with the check among its request hooks (each redirect
    hop runs them); added again to a client made anew (set_client_factory, close_session)."""
    from huggingface_hub import get_session

    session = get_session()
    with _lock:
        if _guard not in session.event_hooks.get("request", []):
            hooks = dict(session.event_hooks)
            hooks["request"] = [*hooks.get("request", []), _guard]
            session.event_hooks = hooks
    return session


class TooLarge(MincardsError):
    """A file over MAX_BYTES, however its headers described it."""


def read_bounded(url: str, headers: dict[str, str], deadline_at: float,
                 limit: int = MAX_BYTES) -> tuple[int, bytes]:
    """(status, body) of a GET, streamed: TooLarge past `limit` bytes, TimeoutError past
    `deadline_at` (time.monotonic()), so a Hub that trickles or lies about a size holds
    neither memory nor this thread."""
    session = guarded_session()
    remaining = max(0.1, deadline_at - time.monotonic())
    with session.stream("GET", url, headers=headers, timeout=remaining,
                        follow_redirects=True) as response:
        if response.status_code >= 400:
            return response.status_code, b""
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > limit:
            raise TooLarge(f"{int(declared):,} bytes")
        body = bytearray()
        for chunk in response.iter_bytes(CHUNK_BYTES):
            body += chunk
            if len(body) > limit:
                raise TooLarge(f"over {limit:,} bytes")
            if time.monotonic() > deadline_at:
                raise TimeoutError("the Hub's deadline passed while reading")
        return response.status_code, bytes(body)
