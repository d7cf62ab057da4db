"""Direct messages to the bot: answer in the DM, in the thread when asked in one; each is a
conversation that follow-ups continue."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from mincards.bot.answering.answer import Answer
from mincards.bot.reading.pasted import FENCE
from mincards.bot.replies.slack_text import from_slack
from mincards.handlers.attachments import SCOPES as ATTACHMENT_SCOPES
from mincards.handlers.attachments import AttachmentError, attached_config
from mincards.handlers.conversations import conversation_key
from mincards.handlers.services import Services

EVENTS = ("message.im",)
SCOPES = ("im:history", "chat:write", *ATTACHMENT_SCOPES)
# Messages a person wrote; edits, deletions, joins and bot posts have other subtypes.
ANSWERED_SUBTYPES = (None, "thread_broadcast", "file_share")


@dataclass(frozen=True)
class Prepared:
    """A DM's answer and the reply to post for it, where it goes."""

    answer: Answer
    payload: dict[str, Any]
    channel: str
    thread: str | None

    async def post(self, client: AsyncWebClient) -> None:
        await client.chat_postMessage(channel=self.channel, thread_ts=self.thread,
                                      **self.payload)


async def prepare(services: Services, event: dict[str, Any],
                  context: AsyncBoltContext) -> Prepared | None:
    """The answer to a person's DM (in its thread when asked in one; the assistant pane's
    threads are such threads), not yet posted; None when the event is not a person's message
    to answer."""
    if event.get("channel_type") != "im" or event.get("subtype") not in ANSWERED_SUBTYPES:
        return None
    if event.get("bot_id") or not event.get("user") or event["user"] == context.bot_user_id:
        return None
    channel = event.get("channel")
    if not isinstance(channel, str) or not channel:
        return None
    question = from_slack(str(event.get("text") or ""), context.bot_user_id)
    thread_ts = event.get("thread_ts")
    thread = thread_ts if isinstance(thread_ts, str) else None
    failed = None
    if FENCE not in question:
        # A config.json attached to the DM is read as if pasted in it.
        try:
            attached = await attached_config(services, event, context.bot_token)
        except AttachmentError as exc:
            failed, attached = exc, None
        if attached is not None:
            question = f"{question}\n{FENCE}{attached}{FENCE}"
    # The DM is one conversation; a thread inside it is another.
    chosen = await services.preferences_of(context, event.get("user"))
    answer = await services.conversations.ask(conversation_key(context, channel, thread),
                                              question, chosen)
    if failed is not None:
        answer = services.engine.without_shape(answer, question, failed.name, failed.reason)
    payload = await services.reply_to(answer, question, chosen)
    return Prepared(answer, payload, channel, thread)


def register(app: AsyncApp, services: Services) -> None:
    @app.event("message")
    @services.inflight.track
    async def answer_direct_message(event: dict[str, Any], client: AsyncWebClient,
                                    context: AsyncBoltContext) -> None:
        prepared = await prepare(services, event, context)
        if prepared is not None:
            await prepared.post(client)
