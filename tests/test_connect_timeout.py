"""A connection to Slack that is never made is given up after CONNECT_SECONDS and made afresh
(issue 36: ci203, ci221, ci312 each lost one reply whose call never reached the stand-in and
ran out its whole 10 s). Nothing was sent on such a connection, so the retry cannot post twice.

Over a real socket: a listener whose accept queue is full, so the kernel drops the client's SYN
(Linux tries it again only 1, 3 and 7 s later), frees its queue 7.5 s on. The first connection
alone would still be waiting at the 10 s deadline; made afresh, the call lands."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time

import aiohttp
import pytest

from mincards.handlers.replies import (
    CONNECT_SECONDS,
    TIMEOUT_SECONDS,
    CountingWebClient,
    http_session,
    retry_handlers,
)

FREED_AFTER = 7.5
OK = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\n"
      b"Content-Length: 11\r\nConnection: close\r\n\r\n{\"ok\":true}")


class FullListener:
    """Accepts nothing until `free()`; then answers every request `{"ok": true}`."""

    def __init__(self) -> None:
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(0)
        self.port = self.listener.getsockname()[1]
        self.fillers = []
        for _ in range(3):  # the queue's room and one more: later SYNs are dropped
            filler = socket.socket()
            filler.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                filler.connect(("127.0.0.1", self.port))
            self.fillers.append(filler)
        self.answered = 0
        self._done = threading.Event()

    def free(self) -> None:
        for filler in self.fillers:
            filler.close()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        self.listener.settimeout(0.2)
        while not self._done.is_set():
            try:
                connection, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:  # closed by close()
                return
            with connection:
                connection.settimeout(2)
                try:
                    seen = b""
                    while b"\r\n\r\n" not in seen:
                        chunk = connection.recv(65536)
                        if not chunk:
                            break
                        seen += chunk
                    if seen:
                        connection.sendall(OK)
                        self.answered += 1
                except OSError:  # a filler, closed: nothing to answer
                    pass

    def close(self) -> None:
        self._done.set()
        self.listener.close()


def test_the_session_gives_a_connect_its_own_bound_under_the_total() -> None:
    async def made() -> aiohttp.ClientTimeout:
        session = http_session()
        try:
            return session.timeout
        finally:
            await session.close()
    timeout = asyncio.run(made())
    assert timeout.sock_connect == CONNECT_SECONDS < TIMEOUT_SECONDS == timeout.total
    assert timeout.sock_read is None  # a read that times out may have been taken: never retried


@pytest.mark.skipif(not hasattr(socket, "TCP_INFO"), reason="Linux's dropped SYNs")
def test_a_connection_never_made_is_made_afresh_and_the_call_lands() -> None:
    listener = FullListener()
    timer = threading.Timer(FREED_AFTER, listener.free)
    timer.start()

    async def call() -> tuple[bool, float]:
        session = http_session()
        client = CountingWebClient(token="xoxb-test", base_url=f"http://127.0.0.1:{listener.port}/",
                                   timeout=TIMEOUT_SECONDS, session=session,
                                   retry_handlers=retry_handlers())
        started = time.monotonic()
        try:
            response = await client.api_call("chat.postMessage", json={"channel": "C1"})
            return bool(response["ok"]), time.monotonic() - started
        finally:
            await session.close()

    try:
        landed, took = asyncio.run(call())
    finally:
        timer.cancel()
        listener.close()
    assert landed and listener.answered == 1
    assert took > FREED_AFTER  # it did wait on a queue that was full
