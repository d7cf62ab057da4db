"""Channel mentions: answer in the thread of the asking message; a later mention in that
thread continues the conversation ("and lora?")."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from mincards.bot.replies.slack_text import from_slack
from mincards.handlers.conversations import conversation_key
from mincards.handlers.services import Services

EVENTS = ("app_mention",)
SCOPES = ("app_mentions:read", "chat:write")
log = logging.getLogger(__name__)


def register(app: AsyncApp, services: Services) -> None:
    @app.event("app_mention")
    @services.inflight.track
    async def answer_mention(event: dict[str, Any], client: AsyncWebClient,
                             context: AsyncBoltContext) -> None:
        channel, ts = event.get("channel"), event.get("thread_ts") or event.get("ts")
        if not isinstance(channel, str) or not channel or not isinstance(ts, str):
            log.warning("app_mention without a channel or ts; nowhere to reply")
            return
        if channel.startswith("D"):
            return  # a DM is answered by the direct-message listener, exactly once
        question = from_slack(str(event.get("text") or ""), context.bot_user_id)
        # The reply goes in the asking message's thread: that thread is the conversation.
        chosen = await services.preferences_of(context, event.get("user"))
        answer = await services.conversations.ask(conversation_key(context, channel, ts),
                                                  question, chosen)
        payload = await services.reply_to(answer, question, chosen)
        await client.chat_postMessage(channel=channel, thread_ts=ts, **payload)
