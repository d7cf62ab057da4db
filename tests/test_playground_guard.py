"""Only the playground's own page drives it (issue 40, item 7): the playground as a real process
on loopback, pushed on with raw HTTP requests as another page or a rebound name would send
them, and in Chromium from a page of another origin and through a rebound host name."""

from __future__ import annotations

import http.client
import json
import shutil
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.playground_process import running_playground

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None,
                                    reason="no chromium: `make test` installs Debian's")
ANSWER_SECONDS = 60  # the bot answers through its Slack stand-in: slow on a busy 2-core host


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    with running_playground(tmp_path_factory.mktemp("guard")) as served:
        yield served


def request(port: int, method: str, path: str, *, host: str | None = None,
            body: bytes | None = None, headers: dict[str, str] | None = None,
            ) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.putrequest(method, path, skip_host=True)
        connection.putheader("Host", f"127.0.0.1:{port}" if host is None else host)
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        connection.putheader("Content-Length", str(len(body or b"")))
        connection.endheaders(body or b"")
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def sent_count(port: int) -> int:
    status, _, body = request(port, "GET", "/api/feed")
    assert status == 200
    return len(json.loads(body)["sent"])


def message(text: str) -> bytes:
    return json.dumps({"text": text, "channel": "D0PLAY"}).encode()


def no_cors(headers: dict[str, str]) -> None:
    assert not [name for name in headers if name.startswith("access-control-")], headers


@pytest.mark.parametrize("host", ["rebind.example:{port}", "127.0.0.1", "127.0.0.1:1",
                                  "localhost.attacker.example:{port}", "", "10.0.0.1:{port}"])
@pytest.mark.parametrize("path", ["/", "/api/info", "/api/feed", "/static/app.js"])
def test_a_host_name_not_its_own_is_refused_on_every_path(port: int, host: str,
                                                          path: str) -> None:
    status, headers, body = request(port, "GET", path, host=host.format(port=port))
    assert status == 421
    assert body.decode().count("\n") == 1 and b"127.0.0.1 or localhost" in body
    no_cors(headers)


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}"])
def test_its_own_names_are_served(port: int, host: str) -> None:
    status, headers, body = request(port, "GET", "/", host=host.format(port=port))
    assert status == 200 and b"<html" in body.lower()
    no_cors(headers)


@pytest.mark.parametrize(("headers", "status"), [
    ({"Content-Type": "text/plain"}, 415),  # what a cross-site form or no-cors fetch can send
    ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
    ({"Content-Type": "multipart/form-data; boundary=x"}, 415),
    ({}, 415),
    ({"Content-Type": "application/json", "Origin": "http://attacker.example"}, 403),
    ({"Content-Type": "application/json", "Origin": "http://127.0.0.1:1"}, 403),
    ({"Content-Type": "application/json", "Origin": "null"}, 403),
    ({"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403),
    ({"Content-Type": "application/json", "Sec-Fetch-Site": "same-site"}, 403),
])
def test_a_post_from_elsewhere_is_refused_and_sends_nothing(port: int, headers: dict[str, str],
                                                            status: int) -> None:
    before = sent_count(port)
    got, answered, body = request(port, "POST", "/api/message", body=message("qwen3-8b full"),
                                  headers=headers)
    assert got == status and body.decode().count("\n") == 1
    no_cors(answered)
    assert sent_count(port) == before  # nothing reached the bot


def test_a_preflight_is_never_granted(port: int) -> None:
    status, headers, _ = request(port, "OPTIONS", "/api/message", headers={
        "Origin": "http://attacker.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type"})
    assert status == 403
    no_cors(headers)


def test_its_own_page_still_drives_it(port: int) -> None:
    before = sent_count(port)
    status, headers, body = request(port, "POST", "/api/message", body=message("qwen3-8b full"),
                                    headers={"Content-Type": "application/json",
                                             "Origin": f"http://127.0.0.1:{port}",
                                             "Sec-Fetch-Site": "same-origin"})
    assert status == 200, body
    no_cors(headers)
    assert sent_count(port) == before + 1


def test_it_listens_on_loopback_only(port: int) -> None:
    """The listening socket's own address, as the kernel has it (/proc/net/tcp, little-endian
    hex): 127.0.0.1, not every interface."""
    listening = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.rsplit(":", 1)
            if state == "0A" and int(hex_port, 16) == port:
                listening.append(address)
    assert listening == ["0100007F"]


class _OtherSite(BaseHTTPRequestHandler):
    """A page of another origin, as any site the person has open would be."""

    def do_GET(self) -> None:
        body = b"<!doctype html><html><body>another site</body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture()
def other_site() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _OtherSite)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://localhost:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@needs_chromium
def test_a_page_of_another_origin_cannot_drive_or_read_it(port: int, other_site: str) -> None:
    from playwright.sync_api import sync_playwright

    before = sent_count(port)
    target = f"http://127.0.0.1:{port}"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto(other_site)
            outcomes = page.evaluate("""async (target) => {
                const tries = {
                  json: () => fetch(target + "/api/message", {method: "POST",
                      headers: {"Content-Type": "application/json"},
                      body: JSON.stringify({text: "qwen3-8b full", channel: "D0PLAY"})}),
                  simple: () => fetch(target + "/api/message", {method: "POST", mode: "no-cors",
                      headers: {"Content-Type": "text/plain"},
                      body: JSON.stringify({text: "qwen3-8b full", channel: "D0PLAY"})}),
                  read: () => fetch(target + "/api/feed").then(r => r.text()),
                };
                const out = {};
                for (const [name, run] of Object.entries(tries)) {
                  try { const r = await run(); out[name] = typeof r === "string" ? "read"
                        : r.type; }
                  catch (e) { out[name] = "blocked"; }
                }
                return out;
            }""", target)
            # The preflight is refused, the simple request is refused unread (opaque), and the
            # feed cannot be read across origins (no CORS header).
            assert outcomes == {"json": "blocked", "simple": "opaque", "read": "blocked"}
        finally:
            browser.close()
    time.sleep(0.5)  # nothing is in flight: a message sent would already be in the record
    assert sent_count(port) == before


@needs_chromium
def test_a_rebound_host_name_gets_nothing(port: int) -> None:
    """DNS rebinding: the browser resolves an attacker's name to 127.0.0.1 and treats the
    playground as that site; the name in Host gives it away."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--host-resolver-rules=MAP rebind.example 127.0.0.1"])
        try:
            page = browser.new_page()
            response = page.goto(f"http://rebind.example:{port}/")
            assert response is not None and response.status == 421
            status = page.evaluate("""async () => {
                const r = await fetch("/api/message", {method: "POST",
                    headers: {"Content-Type": "application/json"},
                    body: JSON.stringify({text: "qwen3-8b full", channel: "D0PLAY"})});
                return r.status; }""")
            assert status == 421
            assert "answers only at 127.0.0.1" in page.inner_text("body")
        finally:
            browser.close()
