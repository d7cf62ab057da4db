"""A TCP server on loopback that hands each connection to a function, in a thread of its own:
for peers that misbehave byte by byte (a page host, a port that is not Redis)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable


class RawServer:
    def __init__(self, handle: Callable[[socket.socket], None]) -> None:
        self.handle = handle
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.server.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return  # closed
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        with conn:
            try:
                conn.settimeout(60)
                self.handle(conn)
            except OSError:
                pass  # the client went, as misbehaving peers are tested for

    def close(self) -> None:
        self.server.close()
