"""Slack's bad days: rate limits, server errors, dropped connections, refusals, redeliveries."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from mincards.handlers.replies import CONNECTION_RETRIES, SERVER_ERROR_RETRIES
from tests.bot_process import BOT_TOKEN, MINCARDS, SIGNING_SECRET, Bot, free_port
from tests.process_exit import run_to_exit
from tests.slack_emulator import Fault, SlackEmulator
from tests.slack_sender import SlackSender, event_callback, mention


class LogTail:
    """The bot's log from now on."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.start = len(bot.log_text())

    def text(self) -> str:
        return self.bot.log_text()[self.start:]

    def wait_for(self, needle: str, timeout: float = 10) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if needle in self.text():
                return self.text()
            time.sleep(0.05)
        raise AssertionError(f"{needle!r} not logged; log:\n{self.text()[-3000:]}")


def still_serving(slack: SlackSender, emulator: SlackEmulator) -> None:
    """The next question is answered, whatever happened before."""
    emulator.reset()
    slack.event(mention("glm4-9b lora 4k", channel="CNEXT"))
    (call,) = emulator.wait_for("chat.postMessage")
    assert call.params["channel"] == "CNEXT" and "GLM-4-9B" in call.params["text"]


@pytest.mark.parametrize("status", [500, 503])
def test_server_errors_are_retried_boundedly_then_logged(
        bot: Bot, slack: SlackSender, emulator: SlackEmulator, status: int) -> None:
    log = LogTail(bot)
    emulator.fail("chat.postMessage", Fault(status=status, body={"ok": False, "error": "fatal"},
                                            times=100))
    slack.event(mention("qwen2.5-7b lora"))
    text = log.wait_for("Slack refused", timeout=20)
    assert f"HTTP {status}" in text
    assert len(emulator.of("chat.postMessage")) == 1 + SERVER_ERROR_RETRIES
    still_serving(slack, emulator)


def test_a_dropped_connection_is_retried_and_delivered_once(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    emulator.fail("chat.postMessage", Fault(drop=True))
    slack.event(mention("qwen2.5-32b full 8k"))
    calls = emulator.wait_for("chat.postMessage", count=2)
    time.sleep(0.5)
    assert len(emulator.of("chat.postMessage")) == 2
    assert calls[0].params == calls[1].params


def test_slack_staying_unreachable_is_logged_with_its_cause(
        bot: Bot, slack: SlackSender, emulator: SlackEmulator) -> None:
    log = LogTail(bot)
    emulator.fail("chat.postMessage", Fault(drop=True, times=100))
    slack.event(mention("qwen2.5-32b lora"))
    # One line naming the request, the method and the cause.
    text = log.wait_for("while handling event_callback app_mention: chat.postMessage failed: ",
                        timeout=20)
    assert any(cause in text for cause in ("ServerDisconnectedError", "ClientConnectionError",
                                           "ClientOSError", "ConnectionResetError"))
    assert "Traceback" not in text
    assert len(emulator.of("chat.postMessage")) == 1 + CONNECTION_RETRIES
    still_serving(slack, emulator)


@pytest.mark.parametrize("error", ["channel_not_found", "not_in_channel", "invalid_auth"])
def test_refusals_are_logged_clearly_and_not_retried(
        bot: Bot, slack: SlackSender, emulator: SlackEmulator, error: str) -> None:
    log = LogTail(bot)
    emulator.fail("chat.postMessage", Fault(body={"ok": False, "error": error}))
    slack.event(mention("qwen3-14b lora"))
    text = log.wait_for("Slack refused")
    assert "chat.postMessage" in text and error in text
    assert len(emulator.of("chat.postMessage")) == 1
    still_serving(slack, emulator)


@pytest.mark.parametrize("error", ["channel_not_found", "not_in_channel", "invalid_auth"])
def test_slash_command_answers_through_the_response_url_where_the_bot_is_not(
        slack: SlackSender, emulator: SlackEmulator, error: str) -> None:
    """A private channel or DM the bot is not in refuses chat.postEphemeral; the response URL,
    tried first, reaches the person anyway and the Web API is never needed."""
    emulator.fail("chat.postEphemeral", Fault(body={"ok": False, "error": error}))
    slack.command("internvl2.5-38b lora", emulator.response_url("fallback"))
    (call,) = emulator.wait_for("response")
    assert call.params["response_type"] == "ephemeral"
    assert "InternVL2.5-38B" in call.params["text"]
    time.sleep(0.3)
    assert emulator.of("chat.postEphemeral") == []


def test_slash_command_falls_back_to_chat_post_ephemeral_when_the_response_url_is_down(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    emulator.fail("response", Fault(status=503, times=100))
    slack.command("internvl2.5-8b", emulator.response_url("down"))
    (call,) = emulator.wait_for("chat.postEphemeral", timeout=20)
    assert "InternVL2.5-8B" in call.params["text"]
    assert len(emulator.of("response")) >= 2  # retried before falling back


def test_rate_limited_response_url_waits_and_lands_once(slack: SlackSender,
                                                        emulator: SlackEmulator) -> None:
    emulator.fail("response", Fault(status=429, headers={"Retry-After": "1"}))
    slack.command("qwen2-72b lora", emulator.response_url("limited"))
    first, second = emulator.wait_for("response", count=2)
    assert second.at - first.at >= 0.9
    time.sleep(0.5)
    assert len(emulator.of("response")) == 2


def test_redelivery_after_a_slow_answer_gets_no_second_reply(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    emulator.fail("chat.postMessage", Fault(delay=2.0))
    body = event_callback(mention("qwen2.5-72b lora 8k"))
    assert slack.post(json.dumps(body), "application/json").status == 200
    time.sleep(0.3)  # the first answer is still on its way when Slack gives up waiting
    retry = slack.post(json.dumps(body), "application/json",
                       headers={"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"})
    assert retry.status == 200
    emulator.wait_for("chat.postMessage")
    time.sleep(2.5)
    assert len(emulator.of("chat.postMessage")) == 1


def test_same_event_id_twice_gets_one_reply(slack: SlackSender,
                                            emulator: SlackEmulator) -> None:
    body = json.dumps(event_callback(mention("qwen3-4b")))
    assert slack.post(body, "application/json").status == 200
    assert slack.post(body, "application/json").status == 200
    emulator.wait_for("chat.postMessage")
    time.sleep(0.5)
    assert len(emulator.of("chat.postMessage")) == 1


def test_different_events_are_each_answered(slack: SlackSender,
                                            emulator: SlackEmulator) -> None:
    for i in range(5):
        slack.event(mention("qwen3-4b", channel=f"CD{i}"))
    emulator.wait_for("chat.postMessage", count=5)


def _serve_once(api_url: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLACK_")}
    env.update({"SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_SIGNING_SECRET": SIGNING_SECRET,
                "SLACK_API_URL": api_url, "HOST": "127.0.0.1", "PORT": str(free_port()),
                "XDG_STATE_HOME": str(tmp_path / "state")})
    return run_to_exit([str(MINCARDS), "serve"], env=env, cwd=tmp_path, capture_output=True,
                       text=True, check=False)


def test_a_refused_token_stops_start_up_with_a_clear_message(
        emulator: SlackEmulator, tmp_path: Path) -> None:
    emulator.reset()
    emulator.fail("auth.test", Fault(body={"ok": False, "error": "invalid_auth"}))
    result = _serve_once(emulator.api_url, tmp_path)
    assert result.returncode == 2
    assert "Slack refused SLACK_BOT_TOKEN: invalid_auth" in result.stderr
    assert "Traceback" not in result.stderr and BOT_TOKEN not in result.stderr


def test_unreachable_slack_stops_start_up_with_a_clear_message(tmp_path: Path) -> None:
    result = _serve_once(f"http://127.0.0.1:{free_port()}/api/", tmp_path)
    assert result.returncode == 2
    assert "cannot reach Slack at SLACK_API_URL" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("first", ["stuck", "cut"])
def test_an_auth_test_stuck_on_its_connection_is_asked_again(tmp_path: Path, first: str) -> None:
    """As in CI (ci86, ci103): the start-up auth.test's response headers came and its body
    never did. The bot asks again on a fresh connection and starts, instead of waiting on the
    first for ever. `cut`: the connection closed before the body's end (http.client's
    IncompleteRead, which once escaped as a traceback at start: the floors suite)."""
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    held: list[socket.socket] = []
    answer = json.dumps({"ok": True, "url": "https://t.slack.com/", "team": "T", "user": "bot",
                         "team_id": "T1", "user_id": "U1", "bot_id": "B1"}).encode()

    def serve() -> None:
        for attempt in range(2):
            try:
                conn, _ = server.accept()
            except OSError:
                return
            conn.recv(65536)
            if attempt == 0:  # headers and a part of the body, then nothing
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                             b"Content-Length: 500\r\n\r\n{\"ok\":")
                if first == "cut":
                    conn.close()
                else:
                    held.append(conn)
                continue
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                         b"Content-Length: " + str(len(answer)).encode() + b"\r\n\r\n" + answer)
            held.append(conn)

    threading.Thread(target=serve, daemon=True).start()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLACK_")}
    env.update({"SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_SIGNING_SECRET": SIGNING_SECRET,
                "SLACK_API_URL": f"http://127.0.0.1:{port}/api/", "HOST": "127.0.0.1",
                "PORT": str(free_port()), "XDG_STATE_HOME": str(tmp_path / "state")})
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen([str(MINCARDS), "serve"], env=env, cwd=tmp_path,
                                   stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    try:
        deadline = time.monotonic() + 90  # the first attempt's bound, then a start
        while time.monotonic() < deadline and process.poll() is None:
            text = log.read_text(encoding="utf-8", errors="replace")
            if "connected to Slack as bot" in text:
                break
            time.sleep(0.2)
        text = log.read_text(encoding="utf-8", errors="replace")
        assert "connected to Slack as bot" in text, text[-3000:]
        assert "attempt 1 of 3" in text and "Traceback" not in text
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        server.close()
        for conn in held:
            conn.close()
