"""The event loop's watch: a loop held (by CPU-bound work on it, a slow import, a starved
process) is said in the log with how long, so a Slack call that timed out without reaching
Slack can be told from a slow Slack."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from mincards.handlers.loop_lag import watch_lag


def test_a_held_loop_is_said_once_with_how_long(caplog: pytest.LogCaptureFixture) -> None:
    async def run() -> None:
        watch = asyncio.get_running_loop().create_task(watch_lag(period=0.05, held=0.3))
        await asyncio.sleep(0.2)  # a free loop: nothing said
        time.sleep(0.6)  # the loop held
        await asyncio.sleep(0.2)
        watch.cancel()

    with caplog.at_level(logging.WARNING, logger="mincards.handlers.loop_lag"):
        asyncio.run(run())
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and said[0].startswith("the event loop was held for 0.")
