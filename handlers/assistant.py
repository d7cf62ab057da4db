"""Slack's assistant pane (Agents & AI Apps), with Bolt's AsyncAssistant: a greeting and
suggested prompts made from the table when a thread starts (in the person's language, for
their flavour), each message answered as a DM in its thread (follow-ups continue it), the
thread titled after the model asked, a status only while an answer takes more than a moment.

Bolt's assistant middleware takes every threaded DM message; a DM thread outside the pane is
answered the same way (its title and status calls fail quietly: Slack has no pane there)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.context.async_context import AsyncBoltContext
from slack_bolt.context.say.async_say import AsyncSay
from slack_bolt.context.set_status.async_set_status import AsyncSetStatus
from slack_bolt.context.set_suggested_prompts.async_set_suggested_prompts import (
    AsyncSetSuggestedPrompts,
)
from slack_bolt.context.set_title.async_set_title import AsyncSetTitle
from slack_bolt.middleware.assistant.async_assistant import AsyncAssistant
from slack_sdk.web.async_client import AsyncWebClient

from mincards.bot.language import language_of
from mincards.bot.replies.assistant_prompts import greeting, suggested_prompts
from mincards.bot.replies.i18n import t
from mincards.handlers import direct_messages, metrics
from mincards.handlers.conversations import conversation_key
from mincards.handlers.services import Services

EVENTS = ("assistant_thread_started", "assistant_thread_context_changed", "message.im")
SCOPES = ("assistant:write", "im:history", "chat:write")
# An answer taking longer than this shows "is looking it up…" until it is posted.
STATUS_AFTER_SECONDS = 0.5
log = logging.getLogger(__name__)


async def _quietly(call: Awaitable[Any], what: str) -> None:
    """A Slack call that decorates the pane: its failure costs the person nothing."""
    try:
        await call
    except Exception as exc:
        log.debug("assistant %s failed (%s)", what, type(exc).__name__)


def _thread(payload: dict[str, Any]) -> dict[str, Any]:
    thread = payload.get("assistant_thread")
    return thread if isinstance(thread, dict) else {}


def register(app: AsyncApp, services: Services) -> None:
    knowledge = services.engine.knowledge
    assistant = AsyncAssistant(logger=log)

    @assistant.thread_started
    @services.inflight.track
    async def greet(payload: dict[str, Any], say: AsyncSay,
                    set_suggested_prompts: AsyncSetSuggestedPrompts, client: AsyncWebClient,
                    context: AsyncBoltContext) -> None:
        thread = _thread(payload)
        if not (isinstance(thread.get("channel_id"), str) and thread["channel_id"]
                and isinstance(thread.get("thread_ts"), str) and thread["thread_ts"]):
            log.warning("assistant_thread_started without its channel and thread; ignored")
            metrics.surface_result("assistant", "malformed")
            return
        user = thread.get("user_id")
        user = user if isinstance(user, str) and user else None
        language = await services.language_for(client, context, user)
        chosen = await services.preferences_of(context, user)
        flavour = chosen.flavours[0] if chosen is not None and len(chosen.flavours) == 1 \
            else None
        await say(**greeting(knowledge, language))
        prompts = suggested_prompts(knowledge, language, flavour)
        if prompts:
            await _quietly(set_suggested_prompts(
                prompts=[p.json() for p in prompts],
                title=t(language, "assistant.prompts.title")), "suggested prompts")
        metrics.surface_result("assistant", "started")

    @assistant.thread_context_changed
    async def context_changed(payload: dict[str, Any]) -> None:
        # The channel the person looks at does not change what the table says: nothing kept.
        log.debug("assistant thread context changed")
        metrics.surface_result("assistant", "context_changed")

    @assistant.user_message
    @services.inflight.track
    async def answer(payload: dict[str, Any], client: AsyncWebClient,
                     context: AsyncBoltContext, set_status: AsyncSetStatus,
                     set_title: AsyncSetTitle) -> None:
        channel, thread = payload.get("channel"), payload.get("thread_ts")
        if not isinstance(channel, str) or not isinstance(thread, str):
            return
        previous = await services.conversations.state.context(
            conversation_key(context, channel, thread))
        work = asyncio.ensure_future(direct_messages.prepare(services, payload, context))
        done, _ = await asyncio.wait({work}, timeout=STATUS_AFTER_SECONDS)
        if not done:
            # Said before the reply is posted (Slack clears it when the reply lands), never
            # after: a status set once the reply is on its way could outlive it.
            language = language_of(str(payload.get("text") or ""))
            await _quietly(set_status(t(language, "assistant.status")), "status")
        prepared = await work
        if prepared is None:
            return
        await prepared.post(client)
        replied = prepared.answer
        metrics.surface_result("assistant", "answered")
        shown = replied.shown()
        if shown.models and (previous is None or previous.models != shown.models):
            title = " · ".join(knowledge.catalogue[m].display for m in shown.models[:3])
            await _quietly(set_title(title), "title")

    app.assistant(assistant)
