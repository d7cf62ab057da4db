"""Estimates in Slack, end to end: the real app under gunicorn, a model named by its Hugging
Face id read from a local Hub after the acknowledgement, a config.json pasted as a code block,
and a Hub that fails said in one remark."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.blockkit import assert_valid_message, seen
from tests.bot_process import Bot, running_bot
from tests.conftest import assert_no_secrets
from tests.fake_hub import FakeHub, HubModel
from tests.slack_emulator import SlackEmulator
from tests.slack_sender import SlackSender, direct_message, mention

CONFIGS = Path(__file__).resolve().parent / "configs"
MISTRAL = (CONFIGS / "mistralai--Mistral-Small-24B-Instruct-2501.json").read_text(
    encoding="utf-8")


@pytest.fixture(scope="module")
def hub() -> Iterator[FakeHub]:
    with FakeHub({"acme/ReasonerX-24B": HubModel(MISTRAL.encode(), total=23_572_403_200),
                  "slow/model": HubModel(MISTRAL.encode(), slow=30.0)}) as running:
        yield running


@pytest.fixture(scope="module")
def bot(emulator: SlackEmulator, hub: FakeHub,
        tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bot]:
    folder = tmp_path_factory.mktemp("bot")
    env = {"HF_ENDPOINT": hub.url, "MINCARDS_CACHE": str(folder / "cache"),
           "HF_HOME": str(folder / "hf"), "HF_HUB_DISABLE_TELEMETRY": "1",
           "MINCARDS_HUB_TIMEOUT": "2"}
    with running_bot(emulator, folder, extra_env=env) as running:
        yield running
    assert_no_secrets(running, emulator)


def test_a_hub_model_is_estimated_in_the_reply(slack: SlackSender, emulator: SlackEmulator,
                                              hub: FakeHub) -> None:
    response = slack.event(mention("how many cards for acme/ReasonerX-24B lora 4k?"))
    assert response.status == 200
    (call,) = emulator.wait_for("chat.postMessage", timeout=20)
    assert_valid_message(call.params)
    shown = seen(call.params)
    assert "Estimate, not the table's, for acme/ReasonerX-24B (23.57B" in shown
    assert "from its configuration on Hugging Face" in shown
    assert "possibly" in shown and "held out one at a time" in shown
    assert any("acme/ReasonerX-24B" in r for r in hub.requests)


def test_a_pasted_config_is_estimated(slack: SlackSender, emulator: SlackEmulator) -> None:
    slack.event(direct_message(f"这个模型全参需要几张卡？\n```{MISTRAL}```"))
    (call,) = emulator.wait_for("chat.postMessage", timeout=20)
    shown = seen(call.params)
    assert "估算（不是表中数据）" in shown and "来自它的 config.json" in shown


def test_a_hub_that_does_not_answer_is_one_remark(slack: SlackSender,
                                                  emulator: SlackEmulator) -> None:
    slack.event(mention("slow/model lora"))
    (call,) = emulator.wait_for("chat.postMessage", timeout=40)
    shown = seen(call.params)
    assert "No estimate beyond the table: Hugging Face did not answer within 2 s" in shown
    assert "The table has no entry for “slow/model”" in shown
    assert "Estimate, not the table's" not in shown
