"""Direct messages to the bot: answer in the DM, in the thread when asked in one; each is a
conversation that follow-ups continue. On Slack's agent messaging experience (AGENT_VIEW, the
shipped manifests' agent_view) a message written in the Messages tab opens a session: it is
answered in its own thread, with a status while the answer takes more than a moment, and the
session is titled after the model asked (agents.sessions.rename)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from mincards.bot.answering.answer import Answer
from mincards.bot.language import language_of
from mincards.bot.reading.pasted import FENCE
from mincards.bot.replies.i18n import t
from mincards.bot.replies.slack_text import from_slack
from mincards.handlers.attachments import SCOPES as ATTACHMENT_SCOPES
from mincards.handlers.attachments import AttachmentError, attached_config
from mincards.handlers.conversations import conversation_key
from mincards.handlers.services import Services

EVENTS = ("message.im",)
SCOPES = ("im:history", "chat:write", *ATTACHMENT_SCOPES)
# Messages a person wrote; edits, deletions, joins and bot posts have other subtypes.
ANSWERED_SUBTYPES = (None, "thread_broadcast", "file_share")
# An answer taking longer than this shows "is looking it up…" on its thread until it is posted.
STATUS_AFTER_SECONDS = 0.5
log = logging.getLogger(__name__)


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
    # In the agent view each message written in the Messages tab opens a session: its
    # answer goes in that message's thread, and a follow-up there continues the DM's
    # conversation as one written below it would.
    ts = event.get("ts")
    opens = bool(services.agent_view and thread is None and isinstance(ts, str) and ts
                 and event.get("subtype") != "thread_broadcast")
    reply_thread = ts if opens else thread
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
    answer = await services.conversations.ask(
        conversation_key(context, channel, thread), question, chosen,
        also=conversation_key(context, channel, reply_thread) if opens else None)
    if failed is not None:
        answer = services.engine.without_shape(answer, question, failed.name, failed.reason)
    payload = await services.reply_to(answer, question, chosen)
    return Prepared(answer, payload, channel, reply_thread)


async def quietly(call: Awaitable[Any], what: str) -> None:
    """A Slack call that decorates a conversation (a status, a title, prompts): its failure
    costs the person nothing."""
    try:
        await call
    except Exception as exc:
        log.debug("%s failed (%s)", what, type(exc).__name__)


async def prepared_with_status(services: Services, event: dict[str, Any],
                               context: AsyncBoltContext,
                               set_status: Callable[[str], Awaitable[Any]] | None
                               ) -> Prepared | None:
    """`prepare`, with a status on the thread while an answer takes more than a moment.
    Said before the reply is posted (Slack clears it when the reply lands), never after: a
    status set once the reply is on its way could outlive it."""
    work = asyncio.ensure_future(prepare(services, event, context))
    done, _ = await asyncio.wait({work}, timeout=STATUS_AFTER_SECONDS)
    if not done and set_status is not None:
        language = language_of(str(event.get("text") or ""))
        await quietly(set_status(t(language, "assistant.status")), "status")
    return await work


def session_title(services: Services, answer: Answer) -> str | None:
    shown = answer.shown()
    catalogue = services.engine.knowledge.catalogue
    return " · ".join(catalogue[m].display for m in shown.models[:3]) if shown.models else None


def register(app: AsyncApp, services: Services) -> None:
    @app.event("message")
    @services.inflight.track
    async def answer_direct_message(event: dict[str, Any], client: AsyncWebClient,
                                    context: AsyncBoltContext) -> None:
        # Bolt's set_status for a DM is on the message's own thread: the agent view's session.
        status = context.get("set_status") if services.agent_view else None
        prepared = await prepared_with_status(services, event, context, status)
        if prepared is None:
            return
        await prepared.post(client)
        title = session_title(services, prepared.answer)
        if services.agent_view and prepared.thread and title:
            await quietly(client.agents_sessions_rename(
                channel_id=prepared.channel, thread_ts=prepared.thread, title=title),
                "session title")
