"""Slack's legacy assistant pane (assistant_view), with Bolt's AsyncAssistant: a greeting and
suggested prompts made from the table when a thread starts (in the person's language, for
their flavour), each message answered as a DM in its thread (follow-ups continue it), the
thread titled after the model asked, a status only while an answer takes more than a moment.

Bolt's assistant middleware takes every threaded DM message; a DM thread outside the pane is
answered the same way (its title and status calls fail quietly: Slack has no pane there)."""

from __future__ import annotations

import logging
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

from mincards.bot.replies.assistant_prompts import greeting, suggested_prompts
from mincards.bot.replies.i18n import t
from mincards.handlers import direct_messages, metrics
from mincards.handlers.conversations import conversation_key
from mincards.handlers.services import Services

# The agent view (the shipped manifests' agent_view) sends DMs only; the legacy pane's thread
# events are still answered for an app installed from an older manifest (assistant_view),
# until Slack retires it, but no shipped manifest subscribes to them.
EVENTS = ("message.im",)
LEGACY_EVENTS = ("assistant_thread_started", "assistant_thread_context_changed")
SCOPES = ("assistant:write", "im:history", "chat:write")
log = logging.getLogger(__name__)


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
            await direct_messages.quietly(set_suggested_prompts(
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
        prepared = await direct_messages.prepared_with_status(services, payload, context,
                                                              set_status)
        if prepared is None:
            return
        await prepared.post(client)
        metrics.surface_result("assistant", "answered")
        title = direct_messages.session_title(services, prepared.answer)
        shown = prepared.answer.shown()
        if title and (previous is None or previous.models != shown.models):
            await direct_messages.quietly(set_title(title), "title")

    app.assistant(assistant)
