"""A short run of the load test (the full run is `make load`): correctness only, no timing."""

from __future__ import annotations

from pathlib import Path

from bench.load import run_load
from tests.bot_process import running_bot
from tests.slack_emulator import SlackEmulator


def test_short_load_run_answers_every_request_exactly_once(tmp_path: Path) -> None:
    with SlackEmulator() as emulator, running_bot(emulator, tmp_path,
                                                  extra_env={"LOG_LEVEL": "WARNING"}) as bot:
        result = run_load(bot, emulator, rate=40, seconds=3)
    assert result["sent"] == 120
    assert result["acknowledged"] == result["sent"] == result["answered_once"]
    assert result["lost"] == 0 and result["doubled"] == 0
    assert result["memory_mb"]["start"] > 0
