"""Each Events API event answered once: Slack redelivers (X-Slack-Retry-Num) or doubles them.
Each interaction (a command, a click, a shortcut, a form) acted on once: Slack never sends one
twice, so a second copy within the signature's five minutes is a replay, acknowledged and
dropped (a share click replayed would post to the channel again).

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


# Interactions whose payload carries a trigger id (slash commands carry one too).
INTERACTIONS = frozenset({"block_actions", "shortcut", "message_action", "view_submission",
                          "view_closed", "block_suggestion", "workflow_step_execute"})


def delivery_id(body: dict[str, Any]) -> str | None:
    """What makes this delivery one of a kind: an event's id, an interaction's trigger id
    (else its first action's timestamp and who clicked); None for anything else."""
    kind = body.get("type")
    if kind == "event_callback":
        event_id = body.get("event_id")
        return event_id if isinstance(event_id, str) and event_id else None
    if not (body.get("command") or kind in INTERACTIONS):
        return None
    trigger = body.get("trigger_id")
    if isinstance(trigger, str) and trigger:
        return f"trigger:{trigger[:200]}"
    actions = body.get("actions")
    first = actions[0] if isinstance(actions, list) and actions else None
    user = body.get("user")
    if isinstance(first, dict) and isinstance(first.get("action_ts"), str):
        who = user.get("id") if isinstance(user, dict) else None
        return f"action:{str(who)[:40]}:{first['action_ts'][:40]}"
    return None


def dedupe_middleware(state: State) -> Callable[..., Awaitable[Any]]:
    """Bolt middleware: an event id or interaction seen before (here, or in Redis by any
    process) gets a quiet 200 and no second answer."""

    async def skip_repeated_deliveries(body: dict[str, Any], context: AsyncBoltContext,
                                       next: Callable[[], Awaitable[Any]]) -> Any:
        seen = delivery_id(body)
        if seen is not None and not await state.first_time(seen):
            context[DUPLICATE] = True
            log.info("%.60s delivered again; already acted on", seen)
            return BoltResponse(status=200, body="")
        return await next()

    return skip_repeated_deliveries
