"""Socket Mode end to end: apps.connections.open hands out a ws://127.0.0.1 URL; events arrive."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest

from tests.blockkit import assert_valid_modal, seen
from tests.bot_process import APP_TOKEN, BOT_TOKEN, Bot, running_bot
from tests.conftest import assert_no_secrets
from tests.slack_emulator import SlackEmulator, wait_until
from tests.slack_sender import event_callback, mention, new_trigger
from tests.test_views import state


@pytest.fixture(scope="module")
def bot(emulator: SlackEmulator, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bot]:
    with running_bot(emulator, tmp_path_factory.mktemp("socket"), socket_mode=True) as running:
        yield running
    assert_no_secrets(running, emulator)


def test_connects_with_the_app_token(bot: Bot, emulator: SlackEmulator) -> None:
    (opened,) = emulator.of("apps.connections.open")[:1]
    assert opened.headers["authorization"] == f"Bearer {APP_TOKEN}"


def test_mention_over_socket_mode_is_acked_and_answered(bot: Bot,
                                                        emulator: SlackEmulator) -> None:
    emulator.calls.clear()
    event = mention("qwen3-30b-a3b lora 8k")
    emulator.send_socket_event(event_callback(event))
    (call,) = emulator.wait_for("chat.postMessage")
    assert call.params["channel"] == "C0001" and call.params["thread_ts"] == event["ts"]
    assert call.params["text"].startswith("Qwen3-30B-A3B · LoRA · 8K: 16 cards (2 nodes)")
    assert "MindSpeed-LLM · Snt9B\n16 cards, 2 nodes" in seen(call.params)
    assert "Llama-Factory · Snt9B\n32 cards, 4 nodes" in seen(call.params)
    assert call.headers["authorization"] == f"Bearer {BOT_TOKEN}"


def test_no_token_in_the_socket_mode_log(bot: Bot) -> None:
    log = bot.log_text()
    assert "Socket Mode" in log
    for secret in (APP_TOKEN, BOT_TOKEN, "FAKEAPPTOKEN", "FAKEBOTTOKEN"):
        assert secret not in log


def test_reconnects_after_slack_drops_the_socket(bot: Bot, emulator: SlackEmulator) -> None:
    opened = len(emulator.of("apps.connections.open"))
    old = emulator.wait_for_socket()
    emulator.drop_sockets()
    # A new URL is asked for and a new connection made, then events flow again.
    emulator.wait_for("apps.connections.open", count=opened + 1, timeout=30)
    new = wait_until(lambda: next((c for c in emulator.ws_connections if c is not old), None),
                     30, "no new Socket Mode connection")
    assert new is not old
    emulator.calls.clear()
    event = mention("deepseek r1 lora")
    emulator.send_socket_event(event_callback(event))
    (call,) = emulator.wait_for("chat.postMessage")
    assert "DeepSeek" in call.params["text"] and "64 cards (8 nodes)" in call.params["text"]


def test_redelivered_event_over_the_socket_is_answered_once(bot: Bot,
                                                            emulator: SlackEmulator) -> None:
    emulator.calls.clear()
    body = event_callback(mention("gemma3-27b lora"))
    emulator.send_socket_event(body)
    emulator.send_socket_event(body)  # Slack's retry: a new envelope, the same event_id
    emulator.wait_for("chat.postMessage")
    time.sleep(0.5)
    assert len(emulator.of("chat.postMessage")) == 1


def test_the_ask_form_is_answered_in_the_socket_acknowledgement(bot: Bot,
                                                               emulator: SlackEmulator) -> None:
    """Over Socket Mode a modal's answer travels in the envelope's ack, as Slack expects."""
    submission = {"type": "view_submission", "user": {"id": "U0001", "team_id": "T0001"},
                  "team": {"id": "T0001"}, "api_app_id": "A0001", "token": "legacy",
                  "trigger_id": new_trigger(),
                  "view": {"id": "V1", "type": "modal", **state("glm4-9b", "full", "8192")}}
    envelope = emulator.send_envelope("interactive", submission)
    ack = wait_until(lambda: emulator.ws_acks.get(envelope), 10, "no ack")
    assert ack["payload"]["response_action"] == "update"
    view = ack["payload"]["view"]
    assert_valid_modal(view)
    assert "GLM-4-9B · full-parameter · 8K:" in json.dumps(view, ensure_ascii=False)


def test_slash_commands_on_a_slow_slack_are_all_acknowledged_in_time(
        emulator: SlackEmulator, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Replies waiting on Slack (here 1 s a call) never hold up the next acknowledgement."""
    with running_bot(emulator, tmp_path_factory.mktemp("slow"), socket_mode=True):
        emulator.latency = 1.0
        try:
            sent = {}
            for i in range(30):
                command = {"command": "/mincards", "text": "qwen2.5-72b lora 8k",
                           "channel_id": f"CSLOW{i}", "user_id": "U0001", "team_id": "T0001",
                           "response_url": emulator.response_url(f"CSLOW{i}"),
                           "trigger_id": new_trigger(),
                           "api_app_id": "A0001", "token": "legacy"}
                sent[emulator.send_envelope("slash_commands", command)] = time.monotonic()
            acked = wait_until(lambda: all(emulator.acked_at(e) for e in sent) and sent, 10,
                               "not every command was acknowledged")
            assert acked
            assert max(emulator.acked_at(e) - at for e, at in sent.items()) < 3  # Slack's limit
            calls = emulator.wait_for("response", count=30, timeout=15)
            assert {c.params["_url"] for c in calls} == {f"/response/CSLOW{i}" for i in range(30)}
        finally:
            emulator.latency = 0.0


def test_unfurls_the_assistant_pane_and_the_workflow_step_over_socket_mode(
        bot: Bot, emulator: SlackEmulator) -> None:
    from tests.test_slack_surfaces import fixture, links

    emulator.calls.clear()
    emulator.send_socket_event(fixture("link_shared.json", links=links(
        "https://huggingface.co/Qwen/Qwen3-8B")))
    (unfurl,) = emulator.wait_for("chat.unfurl")
    assert "Qwen3-8B" in json.dumps(unfurl.params["unfurls"])
    emulator.send_socket_event(fixture("assistant_thread_started.json"))
    emulator.wait_for("assistant.threads.setSuggestedPrompts")
    emulator.send_socket_event(fixture("assistant_user_message.json", text="qwen3-8b lora 8k",
                                       thread_ts="1726133777.000001"))
    emulator.wait_for("assistant.threads.setTitle")
    emulator.send_socket_event(fixture("function_executed.json",
                                       inputs={"model": "qwen3-8b", "strategy": "lora"}))
    (done,) = emulator.wait_for("functions.completeSuccess")
    assert done.params["outputs"]["lead"].startswith("Qwen3-8B")


def test_reconnects_back_off_when_slack_closes_every_new_connection(
        bot: Bot, emulator: SlackEmulator) -> None:
    """Before: 441 apps.connections.open calls in 20 s and a log line each. Now a growing,
    jittered wait, a counted line a minute, and back at once when Slack is well again."""
    log_before = len(bot.log_text())
    opened = len(emulator.of("apps.connections.open"))
    emulator.close_new_sockets = True
    try:
        emulator.drop_sockets()
        time.sleep(10)
        asked = len(emulator.of("apps.connections.open")) - opened
        assert 2 <= asked <= 16, asked
        # What an operator reads (INFO and above; this bot logs DEBUG for the tests).
        said = [line for line in bot.log_text()[log_before:].splitlines()
                if " DEBUG " not in line and line.strip()]
        assert len(said) <= 6 and sum("reconnected to Slack" in x for x in said) <= 1, said
    finally:
        emulator.close_new_sockets = False
    wait_until(lambda: emulator.ws_connections, 70, "no Socket Mode connection after Slack "
               "accepted them again")
    emulator.calls.clear()
    emulator.send_socket_event(event_callback(mention("qwen3-8b lora")))
    emulator.wait_for("chat.postMessage")
