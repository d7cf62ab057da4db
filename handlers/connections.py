"""Room for Slack on a server that strangers can reach: a full server closes the connection that
has waited longest without a complete request, never the newcomer.

A Slack request arrives whole within milliseconds of its connection, so an attacker holding
every slot with idle, trickling or slow-body connections only ever holds the oldest ones: each
new connection pushes the oldest of those out. A connection whose request has arrived whole is
being answered and is never the one closed. Idle and half-sent headers also meet a short
deadline (HEADER_TIMEOUT, from the moment it opens), and a body its own (REQUEST_TIMEOUT). An
idle keep-alive connection after a response is kept longer (KEEPALIVE_SECONDS, above the 60 s
a proxy such as nginx keeps its upstream connections), so that the proxy, never the bot, closes
an idle one: a request sent as the bot closed it would be lost.

The bound follows the process's file limit: every connection is a file descriptor, and the
process also needs some for its own connections to Slack and Redis.
"""

from __future__ import annotations

import asyncio
import logging
import re
import resource
import socket
import time
from collections import OrderedDict
from typing import Any

from mincards.handlers import metrics
from mincards.handlers.logs import Notices

log = logging.getLogger(__name__)
# Descriptors kept for everything but incoming connections: the connections to Slack
# (handlers.replies.MAX_CONNECTIONS), Redis, log files, the listening sockets.
RESERVED_FILES = 512 + 128
KEEPALIVE_SECONDS = 75.0
MIN_CONNECTIONS = 8


def raise_file_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit (as a server may); the
    limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 1 << 16)
    if soft != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):  # a container that forbids it: live with the soft one
            pass
    return int(soft if soft != resource.RLIM_INFINITY else hard)


def connection_bound(asked: int | None, file_limit: int) -> int:
    """Connections a process may hold: what was asked (MAX_CONNECTIONS), never more than the
    file limit leaves room for."""
    room = max(MIN_CONNECTIONS, file_limit - RESERVED_FILES)
    if asked is None:
        return room
    if asked > room:
        log.warning("MAX_CONNECTIONS=%d is more than the open-file limit (%d) leaves room for; "
                    "holding at most %d", asked, file_limit, room)
        return room
    return asked


def _holds_whole_request(handler: Any) -> bool:
    """Whether a connection's request has arrived whole though this bot has not read it yet
    (aiohttp parsed it in the same turn of the loop as the newcomer's arrival)."""
    for _, payload in getattr(handler, "_messages", ()):
        if payload.is_eof():
            return True
    request = getattr(handler, "_current_request", None)
    return request is not None and request.content.is_eof()


# How much of a connection's unread bytes are looked at before closing it for room: a Slack
# request (an event, a command, a view) is well under this.
PEEK_BYTES = 256 * 1024
# One buffer for every look: a flood closes connections by the thousand a second, and a fresh
# 256 KB allocation for each would be work for nothing (one loop per process reads it).
_PEEKED = bytearray(PEEK_BYTES)


def _whole_request(data: bytes) -> bool:
    """Whether bytes start with a complete HTTP request: headers and as much body as they say."""
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return False
    head, body = data[:end].lower(), data[end + 4:]
    if b"transfer-encoding:" in head:
        return body.endswith(b"0\r\n\r\n")
    match = re.search(rb"\ncontent-length:[ \t]*(\d{1,12})", head)
    return len(body) >= (int(match.group(1)) if match else 0)


def _request_in_kernel(handler: Any) -> bool:
    """Whether a complete request is waiting in the kernel for this connection, not yet read by
    the loop. A server that accepts a burst of connections in one turn of its loop reads none of
    them until the next: under load, a Slack request that arrived whole with its connection
    could otherwise be closed as idle by the burst right behind it (ci73)."""
    transport = getattr(handler, "transport", None)
    wrapped = transport.get_extra_info("socket") if transport is not None else None
    if wrapped is None:
        return False
    # A socket object over the same descriptor, detached afterwards so the descriptor stays the
    # transport's; MSG_PEEK leaves the bytes for aiohttp, MSG_DONTWAIT never blocks the loop.
    sock = socket.socket(fileno=wrapped.fileno())
    try:
        size = sock.recv_into(_PEEKED, PEEK_BYTES, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except OSError:
        return False
    finally:
        sock.detach()
    return _whole_request(bytes(_PEEKED[:size]))


def _has_headers(handler: Any) -> bool:
    """Whether a request's headers have arrived whole on this connection (its body may not).
    aiohttp counts each request its parser reads: between taking a request off its queue and
    starting its task (a turn of the loop on Python < 3.12) the queue is empty and no request
    is in progress, and only the count says it came (ci201: a Slack event closed unanswered
    by the header deadline on a starved loop)."""
    return bool(getattr(handler, "_request_count", 0)) or bool(
        getattr(handler, "_messages", None)) or bool(
        getattr(handler, "_request_in_progress", False))


class Room:
    """The server's connections in the order they began waiting for a complete request; those
    being answered are set apart and never closed to make room."""

    def __init__(self, limit: int, notices: Notices, header_seconds: float | None = None
                 ) -> None:
        self.limit = limit
        self.notices = notices
        self.header_seconds = header_seconds
        self._waiting: OrderedDict[Any, float] = OrderedDict()
        self._answering: set[Any] = set()
        # Connections that have not yet sent a request's headers whole, with their deadline.
        self._deadlines: dict[Any, asyncio.TimerHandle] = {}
        # aiohttp's count of requests read on a connection when its last response was sent: a
        # higher count now is a request read and not yet answered.
        self._served: dict[Any, int] = {}

    def __len__(self) -> int:
        return len(self._waiting) + len(self._answering)

    def opened(self, handler: Any) -> None:
        metrics.connection("opened")
        self._waiting[handler] = time.monotonic()
        if len(self) > self.limit:
            self._make_room(handler)
        if self.header_seconds is not None and handler in self._waiting:
            self._deadlines[handler] = asyncio.get_running_loop().call_later(
                self.header_seconds, self._header_deadline, handler)

    def _header_deadline(self, handler: Any) -> None:
        """A new connection that has not sent a request's headers whole in time is closed
        (a body then has its own, longer time). Only the first request: an idle keep-alive
        connection waits as long as aiohttp's keep-alive allows, longer than a proxy's."""
        self._deadlines.pop(handler, None)
        if handler in self._answering or _has_headers(handler):
            return
        if _request_in_kernel(handler):
            # Sent whole in time, not yet read: a loop starved on a busy machine may reach the
            # deadline's timer before the connection's bytes.
            self.answering(handler)
            metrics.connection("spared")
            return
        self.closed(handler)
        metrics.connection("header_timeout")
        self.notices.note("header_timeout", "closed a connection that sent no request within "
                          "%g s (HEADER_TIMEOUT)", self.header_seconds)
        handler.force_close()

    def _make_room(self, newcomer: Any) -> None:
        victim = newcomer
        for waiting in list(self._waiting):
            if waiting is newcomer:
                continue
            if (self._unanswered(waiting) or _holds_whole_request(waiting)
                    or _request_in_kernel(waiting)):
                self.answering(waiting)  # arrived whole, not yet read: set apart now
                metrics.connection("spared")
                continue
            victim = waiting
            break
        self.closed(victim)
        # Every other connection is being answered: the newcomer waits its turn outside.
        metrics.connection("refused" if victim is newcomer else "evicted")
        self.notices.note("evicted", "the server was full (%d connections); closed the one "
                          "idle longest to make room", self.limit)
        if victim is newcomer:
            # We are inside its connection_made, before aiohttp has made its request task:
            # closed now, the task (on Python < 3.12, not started eagerly) would start on a
            # lost connection and die on an assertion, a traceback in the log. Closed on the
            # next turn, the task starts first and then sees it closed.
            asyncio.get_running_loop().call_soon(victim.force_close)
        else:
            victim.force_close()

    def _unanswered(self, handler: Any) -> bool:
        """Whether a request aiohttp read on this connection is between its queue and its task
        (taken off the one, the other not yet started: for a turn of the loop on Python < 3.12
        nothing else shows it). Once its task runs, a request not yet whole (a slow body) is
        closable again."""
        return (int(getattr(handler, "_request_count", 0)) > self._served.get(handler, 0)
                and not getattr(handler, "_request_in_progress", False)
                and getattr(handler, "_current_request", None) is None)

    def started(self, handler: Any) -> None:
        """A request's headers arrived whole on this connection: its header deadline is met
        (its body, if any, has its own)."""
        deadline = self._deadlines.pop(handler, None)
        if deadline is not None:
            deadline.cancel()

    def answering(self, handler: Any) -> None:
        """A complete request arrived on this connection: it is not to be closed for room."""
        self.started(handler)
        if self._waiting.pop(handler, None) is not None:
            self._answering.add(handler)

    def answered(self, handler: Any) -> None:
        """Its response is sent; it waits for its next request from now."""
        if handler in self._answering:
            self._answering.discard(handler)
            self._waiting[handler] = time.monotonic()
        if handler in self._waiting:  # not when it was closed before its response went
            self._served[handler] = int(getattr(handler, "_request_count", 0))

    def closed(self, handler: Any) -> None:
        self._served.pop(handler, None)
        self._waiting.pop(handler, None)
        self._answering.discard(handler)
        deadline = self._deadlines.pop(handler, None)
        if deadline is not None:
            deadline.cancel()


def watch(server: Any, room: Room) -> None:
    """Hook an aiohttp web.Server so that `room` sees every connection come and go."""
    made, lost = server.connection_made, server.connection_lost

    def connection_made(handler: Any, transport: asyncio.Transport) -> None:
        made(handler, transport)
        room.opened(handler)

    def connection_lost(handler: Any, exc: BaseException | None = None) -> None:
        room.closed(handler)
        lost(handler, exc)

    server.connection_made = connection_made
    server.connection_lost = connection_lost
