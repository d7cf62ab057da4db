"""A Bolt middleware that counts every request Bolt takes (both modes) by surface and outcome,
and in Socket Mode times its acknowledgement (HTTP mode times it in handlers.web, body read
included)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext

from mincards.handlers import metrics
from mincards.handlers.replies import CountingWebClient
from mincards.handlers.request_context import CURRENT, RequestIds, ids_of
from mincards.handlers.tracing import enter_span

DUPLICATE = "mincards_duplicate"  # set in the context by the dedupe middleware


def surface_of(body: Any) -> str:
    if not isinstance(body, dict):
        return "other"
    if body.get("type") in ("event_callback", "url_verification", "app_rate_limited"):
        return "event"
    if "command" in body:
        return "command"
    return "interaction" if isinstance(body.get("type"), str) else "other"


def observe_middleware(time_acks: bool) -> Callable[..., Awaitable[Any]]:
    async def observe(body: Any, context: AsyncBoltContext,
                      next: Callable[[], Awaitable[Any]]) -> Any:
        started = time.monotonic()
        # Bolt makes a plain client for each request: made to count its calls (metrics).
        if context.client is not None and not isinstance(context.client, CountingWebClient):
            context["client"] = CountingWebClient.like(context.client)
        surface = surface_of(body)
        ids = ids_of(body)
        # Bolt runs the listeners after the last middleware returns, in the same task, and
        # they start the reply's task then: so these are set for the rest of this task and
        # never reset (each request has a task of its own, in both modes), and the reply's
        # task copies them.
        trace_id = enter_span("slack.request", surface=surface, team=ids.team,
                              event_id=ids.event_id)
        CURRENT.set(RequestIds(ids.event_id, ids.team, trace_id or ids.trace_id))
        try:
            return await next()
        finally:
            outcome = "duplicate" if context.get(DUPLICATE) else "accepted"
            metrics.request(surface, outcome)
            if time_acks:
                metrics.ack_seconds(time.monotonic() - started)

    return observe
