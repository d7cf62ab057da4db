"""Slow and idle clients cannot stop the bot: stalled connections are closed after
REQUEST_TIMEOUT, at most MAX_CONNECTIONS are held, and mentions and /healthz go on meanwhile."""

from __future__ import annotations

import contextlib
import socket
import time
import urllib.request
from collections.abc import Iterator
from urllib.parse import urlparse

import pytest

from tests.bot_process import SIGNING_SECRET, Bot, running_bot
from tests.conftest import assert_no_secrets
from tests.slack_emulator import SlackEmulator
from tests.slack_sender import SlackSender, mention

TIMEOUT = 2.0


@pytest.fixture(scope="module")
def bot(emulator: SlackEmulator, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bot]:
    with running_bot(emulator, tmp_path_factory.mktemp("bot"),
                     extra_env={"REQUEST_TIMEOUT": str(TIMEOUT), "MAX_CONNECTIONS": "100"}
                     ) as running:
        yield running
    assert_no_secrets(running, emulator)


@contextlib.contextmanager
def stalled(bot: Bot, count: int, what: bytes) -> Iterator[list[socket.socket]]:
    url = urlparse(bot.base_url)
    socks = []
    try:
        for _ in range(count):
            s = socket.create_connection((url.hostname, url.port), timeout=10)
            s.sendall(what)
            socks.append(s)
        yield socks
    finally:
        for s in socks:
            s.close()


def closed(s: socket.socket) -> bool:
    """True once the server has closed (or answered and closed) this connection."""
    s.settimeout(0.05)
    try:
        while chunk := s.recv(4096):
            if b"408" in chunk:
                return True
        return True
    except TimeoutError:
        return False
    except OSError:
        return True


def healthy(bot: Bot) -> float:
    start = time.monotonic()
    with urllib.request.urlopen(bot.base_url + "/healthz", timeout=5) as r:
        assert r.status == 200
    return time.monotonic() - start


HALF_HEADERS = b"POST /slack/events HTTP/1.1\r\nHost: bot\r\nX-Slack-Sig"
HALF_BODY = (b"POST /slack/events HTTP/1.1\r\nHost: bot\r\nContent-Type: application/json\r\n"
             b"Content-Length: 5000\r\n\r\n{\"type\": ")


@pytest.mark.parametrize("what", [HALF_HEADERS, HALF_BODY, b""], ids=["headers", "body", "idle"])
def test_64_stalled_connections_stop_nothing(bot: Bot, emulator: SlackEmulator,
                                             what: bytes) -> None:
    with stalled(bot, 64, what) as socks:
        assert healthy(bot) < 1
        emulator.reset()
        sender = SlackSender(bot.base_url, SIGNING_SECRET)
        assert sender.event(mention("qwen3-32b lora", channel="CSTALL")).status == 200
        emulator.wait_for("chat.postMessage", timeout=5)
        # ... and after REQUEST_TIMEOUT every stalled connection has been let go.
        deadline = time.monotonic() + TIMEOUT + 3
        while time.monotonic() < deadline and not all(closed(s) for s in socks):
            time.sleep(0.2)
        assert all(closed(s) for s in socks)


def test_past_the_bound_the_oldest_connections_are_let_go_at_once(bot: Bot) -> None:
    with stalled(bot, 130, HALF_HEADERS) as socks:
        time.sleep(0.3)
        assert sum(closed(s) for s in socks) >= 30  # 100 held, the 30 oldest let go at once
    time.sleep(TIMEOUT + 1)
    assert healthy(bot) < 1
