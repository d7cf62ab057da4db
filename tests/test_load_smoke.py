"""Short runs of the load test (the full runs are `make load` and bench/load.py's options):
correctness only, no timing, on a Slack that answers at once and on one that takes 0.3 s."""

from __future__ import annotations

from pathlib import Path

from bench.load import run_load
from tests.bot_process import running_bot
from tests.redis_process import running_redis
from tests.slack_emulator import SlackEmulator


def test_short_load_run_answers_every_request_exactly_once(tmp_path: Path) -> None:
    with SlackEmulator() as emulator, running_bot(emulator, tmp_path,
                                                  extra_env={"LOG_LEVEL": "WARNING"}) as bot:
        result = run_load(bot, emulator, rate=40, seconds=3)
    assert result["sent"] == 120
    assert result["acknowledged"] == result["sent"] == result["answered_once"]
    assert result["lost"] == 0 and result["doubled"] == 0
    assert result["memory_mb"]["start"] > 0


def test_a_burst_on_a_slow_slack_with_workers_redis_and_retries(tmp_path: Path) -> None:
    with running_redis(tmp_path) as url, SlackEmulator(latency=0.3) as emulator, running_bot(
            emulator, tmp_path, extra_env={"LOG_LEVEL": "WARNING", "WEB_CONCURRENCY": "2",
                                           "REDIS_URL": url}) as bot:
        result = run_load(bot, emulator, rate=150, seconds=1, retries=True)
    said = {k: result[k] for k in ("acknowledged", "answered_once", "lost", "doubled",
                                   "redeliveries_acknowledged", "cpu_cores")}
    assert result["sent"] == 150 and result["redelivered"] == 100
    assert result["lost"] == 0 and result["doubled"] == 0, said
    assert result["acknowledged"] == 150 == result["answered_once"], said
    assert result["redeliveries_acknowledged"] == 100, said
