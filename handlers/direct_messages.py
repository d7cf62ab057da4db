"""Direct messages to the bot: answer in the DM, in the thread when asked in one; each is a
conversation that follow-ups continue."""

from __future__ import annotations

from typing import Any

from slack_bolt import App, BoltContext
from slack_sdk import WebClient

from bot.engine import Engine
from bot.render_blocks import message
from bot.slack_text import from_slack
from handlers.conversations import Conversations, conversation_key

EVENTS = ("message.im",)
SCOPES = ("im:history", "chat:write")
# Messages a person wrote; edits, deletions, joins and bot posts have other subtypes.
ANSWERED_SUBTYPES = (None, "thread_broadcast", "file_share")


def register(app: App, engine: Engine, conversations: Conversations) -> None:
    @app.event("message")
    def answer_direct_message(event: dict[str, Any], client: WebClient,
                              context: BoltContext) -> None:
        if event.get("channel_type") != "im" or event.get("subtype") not in ANSWERED_SUBTYPES:
            return
        if event.get("bot_id") or not event.get("user") or event["user"] == context.bot_user_id:
            return
        channel = event.get("channel")
        if not isinstance(channel, str) or not channel:
            return
        question = from_slack(str(event.get("text") or ""), context.bot_user_id)
        thread_ts = event.get("thread_ts")
        thread = thread_ts if isinstance(thread_ts, str) else None
        # The DM is one conversation; a thread inside it is another.
        answer = conversations.ask(conversation_key(context, channel, thread), question)
        client.chat_postMessage(channel=channel,
                                thread_ts=thread,
                                **message(engine.knowledge, answer, question=question))
