"""An open port and a noisy member, against `mincards serve` as a real process:

- a full server closes the connection idle longest, never the newcomer: with attackers holding
  more connections than the bound, in each shape, reopening as fast as they are closed, every
  signed Slack request is acknowledged within 3 s, and the log grows by under 50 KB a second;
- requests the HTTP parser cannot read (Content-Length with Transfer-Encoding, a body cut short)
  are counted notices, never tracebacks;
- a burst of worst-case questions never holds up an ordinary mention, /mincards or /healthz;
- LOG_FORMAT=json writes one JSON object a line.

The default suite runs a short version of each; `make slow` runs 1,100 attackers per shape
against the default bound of 1,024 (marked slow).
"""

from __future__ import annotations

import concurrent.futures
import json
import socket
import time
import urllib.request
from collections.abc import Iterator
from urllib.parse import urlparse

import pytest

from tests.bot_process import SIGNING_SECRET, Bot, running_bot
from tests.flood import SHAPES, Shape, flooding
from tests.slack_emulator import SlackEmulator
from tests.slack_sender import SlackSender, event_callback, mention

ACK_LIMIT = 3.0
LOG_BYTES_PER_SECOND = 50 * 1024
SHORT_BOUND, SHORT_ATTACKERS = 256, 300


def _whole_with_its_connection(url: str, sender: SlackSender, body: bytes) -> int:
    """A signed event sent as Slack's request arrives, whole with its connection: the kernel
    queues the bytes with the connect (TCP Fast Open's sendto; without a cookie, sent as soon
    as the handshake completes). Sent with urllib from this process, the bytes waited for the
    test's interpreter lock after the connect, and on a busy machine the flood closed the
    connection before they came (ci85: "Remote end closed connection without response"), a gap
    no real Slack request has. Returns the response's status."""
    where = urlparse(url)
    assert where.hostname and where.port
    stamp = str(int(time.time()))
    request = (f"POST /slack/events HTTP/1.1\r\nHost: {where.hostname}\r\n"
               f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
               f"X-Slack-Request-Timestamp: {stamp}\r\n"
               f"X-Slack-Signature: {sender.sign(stamp, body)}\r\n"
               "Connection: close\r\n\r\n").encode() + body
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # Blocking while it connects (a timeout makes the socket non-blocking: EINPROGRESS).
        sock.sendto(request, socket.MSG_FASTOPEN, (where.hostname, where.port))
        sock.settimeout(10)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 "), answer[:60]
    return int(answer.split(b" ", 2)[1])


def _probe(bot: Bot, emulator: SlackEmulator, shapes: tuple[Shape, ...], attackers: int,
           mentions: int, seconds: float) -> None:
    url = urlparse(bot.base_url)
    assert url.hostname and url.port
    sender = SlackSender(bot.base_url, SIGNING_SECRET)
    emulator.reset()
    with flooding(url.hostname, url.port, shapes, attackers) as floods:
        time.sleep(1.0)  # the attackers fill the server first
        log_before, started = bot.log.stat().st_size, time.monotonic()
        acks: list[float] = []
        for i in range(mentions):
            sent = time.monotonic()
            body = json.dumps(event_callback(mention(f"qwen2.5-7b lora {i}",
                                                        channel=f"CFLOOD{i}"))).encode()
            status = _whole_with_its_connection(bot.base_url, sender, body)
            acks.append(time.monotonic() - sent)
            assert status == 200, status
            time.sleep(max(0.0, seconds / mentions - acks[-1]))
        took = time.monotonic() - started
        grown = bot.log.stat().st_size - log_before
        reopened = sum(f.closed_by_server for f in floods)
    assert max(acks) < ACK_LIMIT, f"slowest ack {max(acks):.2f} s"
    assert grown / took < LOG_BYTES_PER_SECOND, f"log grew {grown / took:.0f} B/s"
    assert reopened > 0, "the attackers were never pushed out: the probe did not fill the server"
    for i in range(mentions):
        emulator.wait_for_channel(f"CFLOOD{i}", timeout=15)
    assert "Traceback" not in bot.log_text()


@pytest.fixture(scope="module")
def bot(emulator: SlackEmulator, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bot]:
    with running_bot(emulator, tmp_path_factory.mktemp("port"), extra_env={
            "MAX_CONNECTIONS": str(SHORT_BOUND), "HEADER_TIMEOUT": "2", "REQUEST_TIMEOUT": "10",
            "LOG_LEVEL": "INFO"}) as running:
        yield running


@pytest.mark.parametrize("shape", SHAPES)
def test_attackers_over_the_bound_never_keep_slack_out(bot: Bot, emulator: SlackEmulator,
                                                       shape: Shape) -> None:
    _probe(bot, emulator, (shape,), SHORT_ATTACKERS, mentions=5, seconds=2)


def test_every_shape_at_once_never_keeps_slack_out(bot: Bot, emulator: SlackEmulator) -> None:
    _probe(bot, emulator, SHAPES, SHORT_ATTACKERS // 2, mentions=6, seconds=3)


def test_a_full_server_says_so_once_a_minute_with_a_count(bot: Bot) -> None:
    lines = [x for x in bot.log_text().splitlines() if "the server was full" in x]
    assert 1 <= len(lines) <= 2  # this module runs well under two minutes
    assert "Traceback" not in bot.log_text()


def _raw(bot: Bot, data: bytes, close_after: bool = False) -> bytes:
    url = urlparse(bot.base_url)
    assert url.hostname and url.port
    with socket.create_connection((url.hostname, url.port), timeout=5) as sock:
        sock.sendall(data)
        if close_after:
            sock.shutdown(socket.SHUT_WR)
        try:
            return sock.recv(4096)
        except OSError:
            return b""


@pytest.mark.parametrize("request_bytes", [
    pytest.param(b"POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
                 b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", id="length-and-chunked"),
    pytest.param(b"POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 500\r\n\r\n{\"a\":", id="body-cut-short"),
    pytest.param(b"GARBAGE\x00\x01 / HTTP/9\r\n\r\n", id="not-http"),
    pytest.param(b"POST /slack/events HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                 b"zz\r\n", id="bad-chunk"),
])
def test_unreadable_requests_are_counted_not_tracebacks(bot: Bot, request_bytes: bytes) -> None:
    before = len(bot.log_text())
    for _ in range(20):
        answer = _raw(bot, request_bytes, close_after=True)
        assert not answer or answer.split(b" ")[1][:1] in (b"4", b"2"), answer[:60]
    time.sleep(0.3)
    log = bot.log_text()[before:]
    assert "Traceback" not in log
    assert len(log.splitlines()) <= 2, log  # counted, logged at most once a minute


TAILS = ("八" * 2000, "1" + " " * 1990, "seq" + " " * 1990, "lora" + " " * 1990)


def _worst_case(i: int) -> str:
    """What once cost the most to read (hundreds of milliseconds each), after a question that
    costs the most to answer (every model, on a budget)."""
    return f"what can I train on {i + 8} cards? " + TAILS[i % len(TAILS)]


def test_a_burst_of_worst_case_questions_never_holds_up_acks(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    slow = SlackEmulator(latency=0.3)
    with slow, running_bot(slow, tmp_path_factory.mktemp("burst"),
                           extra_env={"LOG_LEVEL": "INFO"}) as noisy:
        sender = SlackSender(noisy.base_url, SIGNING_SECRET)
        with concurrent.futures.ThreadPoolExecutor(max_workers=30) as pool:
            burst = [pool.submit(sender.event, mention(_worst_case(i), channel=f"CBURST{i}"))
                     for i in range(30)]
            concurrent.futures.wait(burst)
            assert all(f.result().status == 200 for f in burst)
            # While the 30 answers are being worked out:
            started = time.monotonic()
            assert sender.event(mention("qwen2.5-7b lora", channel="CPLAIN")).status == 200
            mention_ack = time.monotonic() - started
            started = time.monotonic()
            assert sender.command("qwen2.5-7b lora", slow.response_url("CCMD")).status == 200
            command_ack = time.monotonic() - started
            started = time.monotonic()
            with urllib.request.urlopen(noisy.base_url + "/healthz", timeout=5) as health:
                assert health.status == 200
            health_ack = time.monotonic() - started
        assert max(mention_ack, command_ack, health_ack) < 0.3, (
            mention_ack, command_ack, health_ack)
        slow.wait_for_channel("CPLAIN", timeout=30)
        for i in range(30):
            slow.wait_for_channel(f"CBURST{i}", timeout=60)


def test_log_format_json_writes_one_object_a_line(emulator: SlackEmulator,
                                                  tmp_path_factory: pytest.TempPathFactory
                                                  ) -> None:
    with running_bot(emulator, tmp_path_factory.mktemp("json"),
                     extra_env={"LOG_FORMAT": "json", "LOG_LEVEL": "INFO"}) as shipped:
        sender = SlackSender(shipped.base_url, SIGNING_SECRET)
        assert sender.event(mention("qwen2.5-7b lora", channel="CJSON")).status == 200
        emulator.wait_for_channel("CJSON")
        assert sender.post(b"{}", "application/json", signature="v0=bad").status == 401
        time.sleep(0.3)
    lines = [x for x in shipped.log_text().splitlines() if x.strip()]
    assert len(lines) >= 3
    entries = [json.loads(x) for x in lines]  # every line, gunicorn's own included
    assert all({"time", "level", "logger", "message"} <= set(e) for e in entries)
    assert any(e["logger"].startswith("gunicorn") for e in entries)


# --- the long probe ------------------------------------------------------------------------


@pytest.mark.slow
def test_over_a_thousand_attackers_per_shape_never_keep_slack_out(
        emulator: SlackEmulator, tmp_path_factory: pytest.TempPathFactory) -> None:
    with running_bot(emulator, tmp_path_factory.mktemp("flood"), extra_env={
            "MAX_CONNECTIONS": "1024", "LOG_LEVEL": "INFO"}) as target:
        _probe(target, emulator, SHAPES, 1100, mentions=30, seconds=15)


def test_a_keep_alive_connection_outlives_the_header_deadline_a_silent_one_does_not(
        bot: Bot) -> None:
    """HEADER_TIMEOUT (2 s here) is for a connection's first request: a proxy's idle keep-alive
    connection to the bot is left for the proxy to close, or a request sent as the bot closed
    it would be lost."""
    url = urlparse(bot.base_url)
    assert url.hostname and url.port
    get = b"GET /healthz HTTP/1.1\r\nHost: bot\r\nConnection: keep-alive\r\n\r\n"
    with socket.create_connection((url.hostname, url.port), timeout=5) as kept, \
            socket.create_connection((url.hostname, url.port), timeout=5) as silent:
        kept.sendall(get)
        assert b" 200 " in kept.recv(4096)
        time.sleep(3.0)
        silent.settimeout(1)
        assert silent.recv(4096) == b""  # closed by the server, having sent nothing
        kept.sendall(get)
        assert b" 200 " in kept.recv(4096)
