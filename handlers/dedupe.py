"""Each Events API event answered once: Slack redelivers (X-Slack-Retry-Num) or doubles them.
Each interaction (a command, a click, a shortcut, a form) acted on once: Slack never sends one
twice, so a second copy within the signature's five minutes is a replay, acknowledged and
dropped (a share click replayed would post to the channel again). A copy is the same request:
its trigger id with the same bytes signed at the same moment. Two requests that share a trigger
id but differ (bodies copied from Slack's examples, which all carry `111.111.xxx`, with
another text) are two requests, each answered: keyed on the trigger id alone, `/mincards`
after `/mincards help` from such a copy got an empty ack and no answer.

The ids are kept by the bot's State (handlers/state.py): this process's memory, or Redis
shared by every process.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt import BoltResponse
from slack_bolt.context.async_context import AsyncBoltContext
from slack_bolt.request.async_request import AsyncBoltRequest

from mincards.handlers.observe import DUPLICATE
from mincards.handlers.state import State

log = logging.getLogger(__name__)


SIGNED_AT = "x-slack-request-timestamp"


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def _first(values: object) -> str:
    return str(values[0]) if isinstance(values, list | tuple) and values else ""


# Interactions whose payload carries a trigger id (slash commands carry one too).
INTERACTIONS = frozenset({"block_actions", "shortcut", "message_action", "view_submission",
                          "view_closed", "block_suggestion", "workflow_step_execute"})


def delivery_id(body: dict[str, Any], raw: str = "", signed_at: str = "") -> str | None:
    """What makes this delivery one of a kind: an event's id (Slack's retries carry it again),
    an interaction's trigger id with a digest of its bytes and signing time (`raw`,
    `signed_at`: a replay repeats both), else its first action's timestamp and who clicked;
    None for anything else."""
    kind = body.get("type")
    if kind == "event_callback":
        event_id = body.get("event_id")
        if not isinstance(event_id, str) or not event_id:
            return None
        # A retry is the same event again (its type, channel and timestamps); two events
        # that differ there but share an id (bodies copied from Bolt's examples, all `Ev111`)
        # are two events, each answered.
        event = body.get("event")
        facts = [str(event.get(k))[:80] for k in ("type", "channel", "ts", "event_ts")] \
            if isinstance(event, dict) else []
        return f"{event_id[:200]}:{_digest(chr(10).join(facts))}"
    if not (body.get("command") or kind in INTERACTIONS):
        return None
    trigger = body.get("trigger_id")
    if isinstance(trigger, str) and trigger:
        return f"trigger:{trigger[:200]}:{_digest(f'{signed_at}{chr(10)}{raw}')}"
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

    async def skip_repeated_deliveries(req: AsyncBoltRequest, body: dict[str, Any],
                                       context: AsyncBoltContext,
                                       next: Callable[[], Awaitable[Any]]) -> Any:
        # Socket Mode has no signature and hands Bolt the payload parsed: its content alone.
        raw = req.raw_body or json.dumps(body, sort_keys=True, ensure_ascii=False, default=str)
        seen = delivery_id(body, raw, _first(req.headers.get(SIGNED_AT)))
        if seen is not None and not await state.first_time(seen):
            context[DUPLICATE] = True
            log.info("%.60s delivered again; already acted on", seen)
            return BoltResponse(status=200, body="")
        return await next()

    return skip_repeated_deliveries
