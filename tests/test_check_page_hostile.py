"""`mincards check-page` against a page host that misbehaves, byte by byte on a loopback socket:
one deadline for the whole fetch, a cut body is an error and never remembered, every error is
exit 2 with one line on stderr (no traceback), redirects only to http(s) and said, charsets
pages are written in and no others, a state file that is a regular file of a sane size and is
held while a run uses it, and no password in anything printed."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.raw_server import RawServer
from tests.test_check_page import SAME, check

BODY = SAME.encode()
Behaviour = Callable[[socket.socket, "Host"], None]


class Host(RawServer):
    """A page host whose every connection, once its request is read, is handled by
    `behaviour`."""

    def __init__(self, behaviour: Behaviour) -> None:
        self.behaviour = behaviour
        self.requests: list[bytes] = []
        super().__init__(self._request)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/page"

    def _request(self, conn: socket.socket) -> None:
        request = b""
        while b"\r\n\r\n" not in request:
            part = conn.recv(4096)
            if not part:
                return
            request += part
        self.requests.append(request)
        self.behaviour(conn, self)


@pytest.fixture()
def host_of() -> Iterator[Callable[[Behaviour], Host]]:
    made: list[Host] = []

    def make(behaviour: Behaviour) -> Host:
        made.append(Host(behaviour))
        return made[-1]

    yield make
    for host in made:
        host.close()


def head(status: str = "200 OK", **headers: str) -> bytes:
    lines = [f"HTTP/1.1 {status}", *(f"{k.replace('_', '-')}: {v}" for k, v in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def whole(conn: socket.socket, _host: Host) -> None:
    conn.sendall(head(Content_Type="text/plain; charset=utf-8", ETag='"v1"',
                      Content_Length=str(len(BODY))) + BODY)


def one_line_error(result: subprocess.CompletedProcess[str], says: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stdout[:300], result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert says in lines[0], lines[0]


def trickle_headers(conn: socket.socket, _host: Host) -> None:
    for byte in head(Content_Length=str(len(BODY))) * 1000:
        conn.sendall(bytes([byte]))
        time.sleep(0.25)


def trickle_body(conn: socket.socket, _host: Host) -> None:
    conn.sendall(head(Content_Type="text/plain", Content_Length=str(len(BODY))))
    for byte in BODY:
        conn.sendall(bytes([byte]))
        time.sleep(0.25)


@pytest.mark.parametrize("behaviour", [trickle_headers, trickle_body])
def test_the_timeout_bounds_the_whole_fetch(tmp_path: Path, host_of: Callable[[Behaviour], Host],
                                            behaviour: Behaviour) -> None:
    host = host_of(behaviour)
    started = time.monotonic()
    result = check(tmp_path, host.url, "--timeout", "2")
    assert time.monotonic() - started < 10
    one_line_error(result, "no answer within 2 s")


def cut_short(conn: socket.socket, _host: Host) -> None:
    conn.sendall(head(Content_Type="text/plain", ETag='"cut"', Content_Length=str(len(BODY)))
                 + BODY[: len(BODY) * 6 // 10])


def chunked_cut_short(conn: socket.socket, _host: Host) -> None:
    part = BODY[: len(BODY) // 2]
    conn.sendall(head(Content_Type="text/plain", ETag='"cut"', Transfer_Encoding="chunked")
                 + f"{len(BODY):x}\r\n".encode() + part)


@pytest.mark.parametrize("behaviour", [cut_short, chunked_cut_short])
def test_a_body_cut_short_is_an_error_and_never_remembered(
        tmp_path: Path, host_of: Callable[[Behaviour], Host], behaviour: Behaviour) -> None:
    host = host_of(behaviour)
    state = tmp_path / "state.json"
    for _ in range(2):
        result = check(tmp_path, host.url, "--state", str(state), "--timeout", "5")
        one_line_error(result, "cannot fetch")
    assert not state.exists() or '"cut"' not in state.read_text(encoding="utf-8")


def _sends(raw: bytes) -> Behaviour:
    def behaviour(conn: socket.socket, _host: Host) -> None:
        conn.sendall(raw)
    return behaviour


MALFORMED = {
    "bad chunk size": head(Transfer_Encoding="chunked") + b"zz\r\nhello\r\n0\r\n\r\n",
    "chunk cut short": head(Transfer_Encoding="chunked") + b"ff\r\nshort",
    "150 headers": b"HTTP/1.1 200 OK\r\n" + b"".join(
        f"X-H{i}: v\r\n".encode() for i in range(150)) + b"Content-Length: 2\r\n\r\nhi",
    "70 KB header line": b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * 70_000
                         + b"\r\nContent-Length: 2\r\n\r\nhi",
    "bad status line": b"HTTP/1.1 abc What\r\n\r\n",
    "not HTTP": b"SSH-2.0-OpenSSH_9.6\r\n",
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_answer_is_exit_2_and_one_line(
        tmp_path: Path, host_of: Callable[[Behaviour], Host], name: str) -> None:
    host = host_of(_sends(MALFORMED[name]))
    one_line_error(check(tmp_path, host.url, "--timeout", "5"), "cannot fetch")


@pytest.mark.parametrize(("url", "says"), [
    ("http://127.0.0.1:1/a page", "percent-encode"),
    ("http://127.0.0.1:1/\x07bell", "percent-encode"),
    ("http://127.0.0.1:1/页面", "percent-encode"),
    ("http://[::1/page", "not a valid URL"),
    ("http://127.0.0.1:notaport/page", "not a valid URL"),
    ("http:///page", "names no host"),
])
def test_a_url_a_server_would_not_take_is_exit_2_and_one_line(tmp_path: Path, url: str,
                                                              says: str) -> None:
    one_line_error(check(tmp_path, url), says)


@pytest.mark.parametrize("timeout", ["-1", "0", "nan", "inf"])
def test_a_timeout_that_is_not_a_time_is_exit_2_and_one_line(tmp_path: Path,
                                                             timeout: str) -> None:
    one_line_error(check(tmp_path, "http://127.0.0.1:1/page", "--timeout", timeout),
                   "--timeout must be")


def test_a_stored_etag_with_cr_lf_is_not_sent_and_the_page_is_fetched(
        tmp_path: Path, host_of: Callable[[Behaviour], Host]) -> None:
    host = host_of(whole)
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"pages": {host.url: {
        "etag": '"x"\r\nX-Injected: 1', "last_modified": "Mon\n", "text": "old",
        "posted": []}}}), encoding="utf-8")
    result = check(tmp_path, host.url, "--state", str(state))
    assert result.returncode == 0, result.stderr
    assert all(b"X-Injected" not in r and b"If-None-Match" not in r for r in host.requests)


def test_redirects_are_followed_only_to_http_and_said(
        tmp_path: Path, host_of: Callable[[Behaviour], Host]) -> None:
    target = host_of(whole)

    def to_target(conn: socket.socket, _host: Host) -> None:
        conn.sendall(head("302 Found", Location=target.url, Content_Length="0"))

    def to_ftp(conn: socket.socket, _host: Host) -> None:
        conn.sendall(head("301 Moved", Location="ftp://127.0.0.1/page", Content_Length="0"))

    followed = check(tmp_path, host_of(to_target).url)
    assert followed.returncode == 0, followed.stderr
    assert f"redirected to {target.url}" in followed.stderr
    one_line_error(check(tmp_path, host_of(to_ftp).url), "not http(s): not followed")


def declaring(charset: str) -> Behaviour:
    def behaviour(conn: socket.socket, _host: Host) -> None:
        body = b"a" * 1_600_000
        conn.sendall(head(Content_Type=f"text/plain; charset={charset}",
                          Content_Length=str(len(body))) + body)
    return behaviour


def test_a_charset_pages_are_not_written_in_is_refused_at_once(
        tmp_path: Path, host_of: Callable[[Behaviour], Host]) -> None:
    started = time.monotonic()
    one_line_error(check(tmp_path, host_of(declaring("punycode")).url, "--timeout", "3"),
                   "charset 'punycode'")
    assert time.monotonic() - started < 10


def test_a_page_in_gbk_is_read(tmp_path: Path, host_of: Callable[[Behaviour], Host]) -> None:
    def gbk(conn: socket.socket, _host: Host) -> None:
        body = SAME.encode("gbk")
        conn.sendall(head(Content_Type="text/plain; charset=GBK",
                          Content_Length=str(len(body))) + body)

    result = check(tmp_path, host_of(gbk).url)
    assert result.returncode == 0, result.stderr


def test_a_state_file_that_is_not_a_regular_file_is_refused(
        tmp_path: Path, host_of: Callable[[Behaviour], Host]) -> None:
    url = host_of(whole).url
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")
    big = tmp_path / "big.json"
    with big.open("wb") as f:
        f.truncate(200 * 1024 * 1024)  # sparse: larger than check-page ever writes
    for path, says in ((fifo, "not a regular file"), (zero, "not a regular file"),
                       (big, "larger than")):
        started = time.monotonic()
        one_line_error(check(tmp_path, url, "--state", str(path), "--timeout", "5"), says)
        assert time.monotonic() - started < 10


def test_runs_at_once_post_a_change_once(tmp_path: Path, host_of: Callable[[Behaviour], Host],
                                         emulator: object) -> None:
    from tests.bot_process import BOT_TOKEN
    from tests.slack_emulator import SlackEmulator
    from tests.test_check_page import CHANGED

    assert isinstance(emulator, SlackEmulator)
    body = CHANGED.encode()

    def changed(conn: socket.socket, _host: Host) -> None:
        time.sleep(0.3)  # each run is inside its turn a while
        conn.sendall(head(Content_Type="text/plain", Content_Length=str(len(body))) + body)

    url = host_of(changed).url
    state = tmp_path / "state.json"
    emulator.reset()
    env = {"SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_API_URL": emulator.api_url}
    runs: list[subprocess.CompletedProcess[str]] = []
    threads = [threading.Thread(target=lambda: runs.append(check(
        tmp_path, url, "--state", str(state), "--post-to", "CPAGE", env=env))) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [r.returncode for r in runs] == [1, 1, 1], [r.stderr for r in runs]
    assert len(emulator.of("chat.postMessage")) == 1


def test_no_password_is_printed(tmp_path: Path) -> None:
    result = check(tmp_path, "http://user:s3cret@127.0.0.1:1/page", "--timeout", "2")
    one_line_error(result, "cannot fetch http://127.0.0.1:1/page")
    assert "s3cret" not in result.stderr + result.stdout
