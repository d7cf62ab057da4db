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
        try:
            return await next()
        finally:
            outcome = "duplicate" if context.get(DUPLICATE) else "accepted"
            metrics.request(surface_of(body), outcome)
            if time_acks:
                metrics.ack_seconds(time.monotonic() - started)

    return observe
