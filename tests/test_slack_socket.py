"""Socket Mode end to end: apps.connections.open hands out a ws://127.0.0.1 URL; events arrive."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot_process import APP_TOKEN, BOT_TOKEN, Bot, running_bot
from tests.slack_emulator import SlackEmulator
from tests.slack_sender import event_callback, mention


@pytest.fixture(scope="module")
def emulator() -> Iterator[SlackEmulator]:
    with SlackEmulator() as emu:
        yield emu


@pytest.fixture(scope="module")
def bot(emulator: SlackEmulator, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bot]:
    with running_bot(emulator, tmp_path_factory.mktemp("socket"), socket_mode=True) as running:
        yield running


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
    assert "Qwen3-30B-A3B" in call.params["text"]
    assert "MindSpeed-LLM: Snt9B 16 cards, 2 nodes" in call.params["text"]
    assert "LLaMA-Factory: Snt9B 32 cards, 4 nodes" in call.params["text"]
    assert call.headers["authorization"] == f"Bearer {BOT_TOKEN}"


def test_no_token_in_the_socket_mode_log(bot: Bot) -> None:
    log = bot.log_text()
    assert "Socket Mode" in log
    for secret in (APP_TOKEN, BOT_TOKEN, "FAKEAPPTOKEN", "FAKEBOTTOKEN"):
        assert secret not in log
