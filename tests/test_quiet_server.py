"""The test servers' HTTP server (playground/slack_stand_in.QuietServer): a client that hangs
up mid-answer is not a traceback (on CPython 3.11.7 a traceback printed in one thread beside
`ast.parse` in another raised SystemError in the layout test); any other error still is."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler

import pytest

from mincards.playground.slack_stand_in import QuietServer


@contextmanager
def serving(fail: type[Exception]) -> Iterator[tuple[int, threading.Event]]:
    done = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            try:
                time.sleep(0.3)  # the client is gone by now
                if fail is ValueError:
                    raise ValueError("a fault of the server itself")
                self.send_response(200)
                self.end_headers()
                for _ in range(200):
                    self.wfile.write(b"x" * 65536)
            finally:
                done.set()

    server = QuietServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], done
    finally:
        server.shutdown()
        server.server_close()


def _hang_up(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        # Reset, not a polite close: the server's writes then fail at once.
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")


@pytest.mark.parametrize(("fault", "printed"), [(ConnectionError, False), (ValueError, True)])
def test_a_client_hanging_up_is_quiet_and_a_real_fault_is_not(
        capsys: pytest.CaptureFixture[str], fault: type[Exception], printed: bool) -> None:
    with serving(fault) as (port, done):
        _hang_up(port)
        assert done.wait(30)
        time.sleep(0.2)  # handle_error runs right after the handler returns
    err = capsys.readouterr().err
    assert ("Traceback" in err) is printed, err
