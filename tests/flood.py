"""An attacker holding connections to the bot's public port, reopening each as soon as it is
closed, in one of the shapes that once kept Slack out: idle, trickling headers, a slow body,
an idle keep-alive connection after one request.

Each shape floods from a process of its own, as an attacker would: threads in the test's own
process held its interpreter lock between a Slack request's connect and its send, a gap no
real Slack request has, and long enough under load for the burst behind it to close it."""

from __future__ import annotations

import contextlib
import multiprocessing
import selectors
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.sharedctypes import Synchronized
from typing import Any, Literal

Shape = Literal["idle", "trickle", "slow_body", "keepalive"]
SHAPES: tuple[Shape, ...] = ("idle", "trickle", "slow_body", "keepalive")
DRIP_SECONDS = 0.3
_OPENING: dict[Shape, bytes] = {
    "idle": b"",
    "trickle": b"POST /slack/events HTTP/1.1\r\nHost: bot\r\n",
    "slow_body": (b"POST /slack/events HTTP/1.1\r\nHost: bot\r\nContent-Type: application/json"
                  b"\r\nContent-Length: 100000\r\n\r\n{"),
    "keepalive": b"GET /healthz HTTP/1.1\r\nHost: bot\r\nConnection: keep-alive\r\n\r\n",
}
_DRIP: dict[Shape, bytes] = {"idle": b"", "trickle": b"X", "slow_body": b" ", "keepalive": b""}


@dataclass
class Flood:
    host: str
    port: int
    shape: Shape
    count: int
    _opened: Any = None
    _closed: Any = None
    _stop: Any = None

    @property
    def opened(self) -> int:
        return int(self._opened.value)

    @property
    def closed_by_server(self) -> int:
        return int(self._closed.value)

    def run(self) -> None:
        selector = selectors.DefaultSelector()
        open_socks: set[socket.socket] = set()
        last_drip = time.monotonic()
        try:
            while not self._stop.is_set():
                while len(open_socks) < self.count and not self._stop.is_set():
                    try:
                        sock = socket.create_connection((self.host, self.port), timeout=1)
                        if _OPENING[self.shape]:
                            sock.sendall(_OPENING[self.shape])
                        sock.setblocking(False)
                    except OSError:
                        time.sleep(0.01)
                        break
                    selector.register(sock, selectors.EVENT_READ)
                    open_socks.add(sock)
                    _bump(self._opened)
                for key, _ in selector.select(timeout=0.05):
                    sock = key.fileobj  # type: ignore[assignment]
                    try:
                        data = sock.recv(65536)
                    except OSError:
                        data = b""
                    if not data:  # the server closed it: open another at once
                        _bump(self._closed)
                        selector.unregister(sock)
                        open_socks.discard(sock)
                        sock.close()
                if _DRIP[self.shape] and time.monotonic() - last_drip > DRIP_SECONDS:
                    last_drip = time.monotonic()
                    for sock in list(open_socks):
                        with contextlib.suppress(OSError):
                            sock.send(_DRIP[self.shape])
        finally:
            for sock in open_socks:
                sock.close()
            selector.close()

    def stop(self) -> None:
        self._stop.set()


def _bump(counter: Synchronized[int]) -> None:
    with counter.get_lock():
        counter.value += 1


@contextlib.contextmanager
def flooding(host: str, port: int, shapes: tuple[Shape, ...], count: int) -> Iterator[list[Flood]]:
    # spawn, not fork: the test process has threads (the Slack stand-in's) a fork would copy
    # mid-step.
    context = multiprocessing.get_context("spawn")
    floods = [Flood(host, port, shape, count, context.Value("q", 0), context.Value("q", 0),
                    context.Event()) for shape in shapes]
    processes = [context.Process(target=f.run, daemon=True) for f in floods]
    for process in processes:
        process.start()
    # A spawned process takes a while to start on a busy machine: the flood is on once each
    # has opened its connections.
    deadline = time.monotonic() + 60
    while any(f.opened < count for f in floods) and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield floods
    finally:
        for flood in floods:
            flood.stop()
        for process in processes:
            process.join(timeout=30)
            if process.is_alive():
                process.kill()
                process.join()
