"""`mincards serve --data-dir DIR`: the Slack bot answers from another version of the table."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from mincards.bot.facts.knowledge import default_data_dir
from mincards.bot.importing.data_import import apply_import, plan_import
from tests.blockkit import seen
from tests.bot_process import SIGNING_SECRET, Bot, running_bot
from tests.conftest import assert_no_secrets
from tests.pages import five_framework_page
from tests.slack_emulator import SlackEmulator
from tests.slack_sender import SlackSender, mention


@pytest.fixture(scope="module")
def five_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("five") / "data"
    shutil.copytree(default_data_dir(), folder)
    page = folder.parent / "page.txt"
    page.write_text(five_framework_page(), encoding="utf-8")
    apply_import(folder, plan_import(folder, page))
    return folder


@pytest.fixture(scope="module")
def bot(emulator: SlackEmulator, tmp_path_factory: pytest.TempPathFactory,
        five_data: Path) -> Iterator[Bot]:
    with running_bot(emulator, tmp_path_factory.mktemp("bot"),
                     serve_args=("--data-dir", str(five_data))) as running:
        yield running
    assert_no_secrets(running, emulator)


def test_the_bot_answers_from_the_data_folder_given(bot: Bot, emulator: SlackEmulator) -> None:
    emulator.reset()
    slack = SlackSender(bot.base_url, SIGNING_SECRET)
    assert slack.event(mention("qwen2.5-72b lora 4k on verl")).status == 200
    (call,) = emulator.wait_for("chat.postMessage")
    text = seen(call.params)
    assert "VeRL · Snt9B\n32 cards, 4 nodes" in text and "2025-10-22" in text
    # The framework named narrows the columns to it: the folder's other four are not shown.
    assert "MindSpeed-MM" not in json.dumps(call.params["blocks"])
