"""A warning when this process's event loop was held: nothing else on the loop (an
acknowledgement, a reply's Slack call and its timeout) could run meanwhile, so a Slack call
started just before can time out without ever reaching Slack. Said with how long, so a lost
reply in the log can be told from a slow Slack (ci203, ci221: a freshly forked worker's reply
never reached the Slack stand-in, and the bot gave up after 10 s)."""

from __future__ import annotations

import asyncio
import logging
import time

log = logging.getLogger(__name__)
# How often the loop is looked at, and how late a look must be to be said.
PERIOD_SECONDS = 0.5
HELD_SECONDS = 1.0


async def watch_lag(period: float = PERIOD_SECONDS, held: float = HELD_SECONDS) -> None:
    """Runs until cancelled; logs each time the loop came back `held` seconds late or more."""
    while True:
        before = time.monotonic()
        await asyncio.sleep(period)
        late = time.monotonic() - before - period
        if late >= held:
            log.warning("the event loop was held for %.1f s: nothing on it ran meanwhile", late)


def start_watching() -> asyncio.Task[None]:
    return asyncio.get_running_loop().create_task(watch_lag(), name="mincards-loop-lag")
