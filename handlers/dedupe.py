"""Each Events API event answered once: Slack redelivers (X-Slack-Retry-Num) or doubles them.

The ids are kept by the bot's State (handlers/state.py): this process's memory, or Redis
shared by every process.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt import BoltResponse
from slack_bolt.context.async_context import AsyncBoltContext

from mincards.handlers.observe import DUPLICATE
from mincards.handlers.state import State

log = logging.getLogger(__name__)


def dedupe_middleware(state: State) -> Callable[..., Awaitable[Any]]:
    """Bolt middleware: an event id seen before (here, or in Redis by any process) gets a
    quiet 200 and no second answer."""

    async def skip_repeated_events(body: dict[str, Any], context: AsyncBoltContext,
                                   next: Callable[[], Awaitable[Any]]) -> Any:
        event_id = body.get("event_id")
        if (body.get("type") == "event_callback" and isinstance(event_id, str) and event_id
                and not await state.first_time(event_id)):
            context[DUPLICATE] = True
            log.info("event %.40s delivered again; already answered", event_id)
            return BoltResponse(status=200, body="")
        return await next()

    return skip_repeated_events
