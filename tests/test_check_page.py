"""`mincards check-page URL` against a local HTTP server that speaks ETag and 304: exit 0 when the
page is the table in use, 1 when it differs (the diff printed), 2 on an error; --post-to posts
each distinct change once (to the Slack emulator), remembering it in --state."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from mincards.playground.slack_stand_in import QuietServer
from tests.bot_process import BOT_TOKEN, MINCARDS
from tests.pages import SEED
from tests.process_exit import run_to_exit
from tests.slack_emulator import Fault, SlackEmulator

SAME = SEED.read_text(encoding="utf-8")
# Two different changes to the page: one number, then another.
ROW = "llama3.1-8b\t{strategy}\t4096/8192\t{count}*Ascend"
CHANGED = SAME.replace(ROW.format(strategy="full", count=4), ROW.format(strategy="full", count=8))
CHANGED_AGAIN = CHANGED.replace(ROW.format(strategy="lora", count=4),
                                ROW.format(strategy="lora", count=2))


@dataclass
class Page:
    body: bytes = SAME.encode()
    status: int = 200
    delay: float = 0.0
    requests: list[dict[str, str]] = field(default_factory=list)

    @property
    def etag(self) -> str:
        return f'"{hash(self.body) & 0xFFFFFFFF:x}"'


@pytest.fixture()
def page() -> Iterator[tuple[Page, str]]:
    served = Page()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            served.requests.append(dict(self.headers))
            time.sleep(served.delay)
            if served.status != 200:
                self.send_error(served.status)
                return
            if self.headers.get("If-None-Match") == served.etag:
                self.send_response(304)
                self.send_header("ETag", served.etag)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("ETag", served.etag)
            self.send_header("Content-Length", str(len(served.body)))
            self.end_headers()
            with contextlib.suppress(OSError):  # the client gave up (its size or time limit)
                self.wfile.write(served.body)

    server = QuietServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield served, f"http://127.0.0.1:{server.server_address[1]}/page"
    finally:
        server.shutdown()
        server.server_close()


def check(tmp_path: Path, url: str, *args: str, env: dict[str, str] | None = None
          ) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "XDG_"))}
    base["XDG_STATE_HOME"] = str(tmp_path / "state")
    return run_to_exit([str(MINCARDS), "check-page", url, *args], env={**base, **(env or {})},
                       capture_output=True, text=True, check=False)


def test_the_page_in_use_exits_0_and_a_second_look_costs_a_304(tmp_path: Path,
                                                                page: tuple[Page, str]) -> None:
    served, url = page
    first = check(tmp_path, url)
    assert first.returncode == 0, first.stderr
    assert "matches the table in use" in first.stdout
    assert (tmp_path / "state" / "mincards" / "check-page.json").exists()  # the default state
    again = check(tmp_path, url, "--json")
    assert again.returncode == 0
    shown = json.loads(again.stdout)
    assert shown["status"] == "same" and shown["not_modified"] is True
    assert served.requests[-1].get("If-None-Match") == served.etag
    assert "mincards" in served.requests[0]["User-Agent"]


def test_a_changed_page_exits_1_with_the_diff(tmp_path: Path, page: tuple[Page, str]) -> None:
    served, url = page
    served.body = CHANGED.encode()
    result = check(tmp_path, url)
    assert result.returncode == 1, result.stderr
    assert "numbers changed: 4" in result.stdout  # both lengths of that row, both flavours
    assert "llama3.1-8b · full · 4096" in result.stdout and "4 -> 8" in result.stdout
    shown = json.loads(check(tmp_path, url, "--json").stdout)
    assert shown["status"] == "differs" and shown["change"]
    assert {c["new"] for c in shown["diff"]["changed"]} == {8}


def test_each_distinct_change_is_posted_once(tmp_path: Path, page: tuple[Page, str]) -> None:
    served, url = page
    state = str(tmp_path / "watch.json")
    with SlackEmulator() as slack:
        env = {"SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_API_URL": slack.api_url}
        served.body = CHANGED.encode()
        first = check(tmp_path, url, "--post-to", "CWATCH", "--state", state, env=env)
        assert first.returncode == 1 and "posted to CWATCH" in first.stdout, first.stderr
        again = check(tmp_path, url, "--post-to", "CWATCH", "--state", state, env=env)
        assert again.returncode == 1 and "already posted" in again.stdout
        served.body = CHANGED_AGAIN.encode()
        other = check(tmp_path, url, "--post-to", "CWATCH", "--state", state, env=env)
        assert other.returncode == 1 and "posted to CWATCH" in other.stdout
        posts = slack.of("chat.postMessage")
    assert len(posts) == 2
    text = posts[0].params["text"]
    # Escaped, as Slack wants '>' written.
    assert "differs from the table in use" in text and "4 -&gt; 8" in text
    assert "<!" not in text
    assert BOT_TOKEN not in first.stdout + first.stderr


def test_slack_refusing_the_post_is_exit_2_and_posts_later(tmp_path: Path,
                                                           page: tuple[Page, str]) -> None:
    served, url = page
    served.body = CHANGED.encode()
    state = str(tmp_path / "watch.json")
    with SlackEmulator() as slack:
        env = {"SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_API_URL": slack.api_url}
        slack.fail("chat.postMessage", Fault(body={"ok": False, "error": "not_in_channel"}))
        refused = check(tmp_path, url, "--post-to", "CWATCH", "--state", state, env=env)
        assert refused.returncode == 2
        assert "not_in_channel" in refused.stderr and "Traceback" not in refused.stderr
        later = check(tmp_path, url, "--post-to", "CWATCH", "--state", state, env=env)
        assert later.returncode == 1 and "posted to CWATCH" in later.stdout


@pytest.mark.parametrize(("setup", "says"), [
    (lambda p: setattr(p, "status", 404), "HTTP 404"),
    (lambda p: setattr(p, "status", 503), "HTTP 503"),
    (lambda p: setattr(p, "delay", 3.0), "no answer within 1 s"),
    (lambda p: setattr(p, "body", b"<html><p>no table here</p></html>"), "no table"),
    (lambda p: setattr(p, "body", b"x" * (21 * 1024 * 1024)), "larger than 20 MB"),
])
def test_errors_exit_2_with_one_line(tmp_path: Path, page: tuple[Page, str], setup: object,
                                     says: str) -> None:
    served, url = page
    setup(served)  # type: ignore[operator]
    result = check(tmp_path, url, "--timeout", "1")
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert says in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_url_that_is_not_http_and_a_dead_port_exit_2(tmp_path: Path) -> None:
    for url, says in (("file:///etc/passwd", "not an http(s) URL"),
                      ("http://127.0.0.1:9/page", "cannot fetch")):
        result = check(tmp_path, url)
        assert result.returncode == 2 and says in result.stderr, result.stderr


def test_a_broken_state_file_starts_afresh(tmp_path: Path, page: tuple[Page, str]) -> None:
    _, url = page
    state = tmp_path / "watch.json"
    state.write_text("{not json", encoding="utf-8")
    result = check(tmp_path, url, "--state", str(state))
    assert result.returncode == 0, result.stderr
    assert json.loads(state.read_text(encoding="utf-8"))["pages"][url]["etag"]
