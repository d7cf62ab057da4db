"""Buttons and menus on answers: ask again in place (a model picked, a strategy or length the
table has, the model list, the rest of a long list), post an answer to the channel, vote.

Any other interaction (a stale button, another app's message, a shortcut or view this bot does
not know) is acknowledged quietly: Slack would show the person an error for a 404.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from mincards.bot.answering.followup import FollowUp
from mincards.bot.replies.feedback import Feedback
from mincards.bot.replies.render_blocks import (
    CHOOSE_ACTION,
    FEEDBACK_ACTION,
    FOLLOW_ACTION,
    PICK_ACTION,
    SHARE_ACTION,
    SHOW_ALL_ACTION,
    message,
)
from mincards.handlers.conversations import conversation_key
from mincards.handlers.services import Services

log = logging.getLogger(__name__)
ASK_AGAIN = re.compile(
    rf"^(?:{PICK_ACTION}_\d+|{FOLLOW_ACTION}_\d+|{CHOOSE_ACTION}|{SHOW_ALL_ACTION})$")
ANY = re.compile(r".*")


def _follow_up(action: dict[str, Any]) -> FollowUp | None:
    """What a button (its value) or a menu (its selected option's value) asks."""
    selected = action.get("selected_option")
    value = selected.get("value") if isinstance(selected, dict) else action.get("value")
    follow = FollowUp.decode(str(value or ""))
    if follow is None:
        log.warning("ignored a button whose value this bot did not write")
    return follow


def _conversation(context: AsyncBoltContext, container: dict[str, Any], ephemeral: bool
                  ) -> str | None:
    """The DM or thread a clicked message stands in; None for a private (ephemeral) reply."""
    channel = container.get("channel_id")
    if ephemeral or not isinstance(channel, str) or not channel:
        return None
    thread = container.get("thread_ts")
    if not isinstance(thread, str) and not channel.startswith("D"):
        thread = container.get("message_ts")  # a channel message is the root of its thread
    return conversation_key(context, channel, thread if isinstance(thread, str) else None)


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def register(app: AsyncApp, services: Services) -> None:
    knowledge = services.engine.knowledge

    @app.action(ASK_AGAIN)
    @services.inflight.track
    async def ask_again(ack: AsyncAck, body: dict[str, Any], action: dict[str, Any],
                         client: AsyncWebClient, context: AsyncBoltContext) -> None:
        await ack()
        follow = _follow_up(action)
        if follow is None:
            return
        container = _dict(body.get("container"))
        ephemeral = bool(container.get("is_ephemeral"))
        chosen = await services.preferences_of(context, _dict(body.get("user")).get("id"))
        answer = await services.conversations.follow(
            _conversation(context, container, ephemeral), follow, chosen)
        payload = await services.answering.run(lambda: message(
            knowledge, answer, question=follow.text or follow.model or "",
            shareable=ephemeral and answer.intent != "help", page=follow.page), follow.text or "")
        channel, ts = container.get("channel_id"), container.get("message_ts")
        if not ephemeral and channel and ts:
            await client.chat_update(channel=channel, ts=ts, **payload)
            return
        # An ephemeral message can only be replaced through its response URL.
        url = body.get("response_url")
        if isinstance(url, str) and url:
            await services.respond(url, {"replace_original": True, **payload})
        else:
            log.warning("button click without a message or response URL; nowhere to reply")

    @app.action(SHARE_ACTION)
    @services.inflight.track
    async def share_answer(ack: AsyncAck, body: dict[str, Any], action: dict[str, Any],
                           client: AsyncWebClient, context: AsyncBoltContext) -> None:
        await ack()
        follow = _follow_up(action)
        if follow is None:
            return
        text = follow.text or ""
        user = _dict(body.get("user")).get("id")
        # What the sharer saw: their settings narrow the post as they narrowed the reply.
        chosen = await services.preferences_of(context, user)
        answer = await services.answering.answer(
            lambda: services.engine.follow(follow, chosen), text)
        payload = await services.answering.run(lambda: message(
            knowledge, answer, question=text,
            asked_by=user if isinstance(user, str) and user else None), text)
        channel = _dict(body.get("channel")).get("id") or _dict(body.get("container")).get(
            "channel_id")
        url = body.get("response_url")
        if not isinstance(channel, str) or not channel:
            log.warning("share click without a channel; nowhere to post")
            return
        try:
            await client.chat_postMessage(channel=channel, **payload)
        except SlackApiError as exc:
            log.warning("chat.postMessage failed (%s); posting through the response URL",
                        exc.response.get("error"))
            if isinstance(url, str) and url:
                await services.respond(url, {"response_type": "in_channel",
                                                 "replace_original": False, **payload})
            return
        if isinstance(url, str) and url:
            await services.respond(url, {"delete_original": True})

    @app.action(FEEDBACK_ACTION)
    async def record_feedback(ack: AsyncAck, action: dict[str, Any]) -> None:
        await ack()
        vote = Feedback.decode(str(action.get("value", "")))
        if vote is None:
            log.warning("ignored a feedback click whose value this bot did not write")
            return
        log.info(vote.log_line())

    # Registered after the buttons above: what they do not match is acknowledged quietly.
    async def acknowledge_other(ack: AsyncAck, body: dict[str, Any]) -> None:
        await ack()
        log.debug("acknowledged an interaction this bot does not handle: %.40s",
                  body.get("type"))

    app.action(ANY)(acknowledge_other)
    app.shortcut(ANY)(acknowledge_other)
    app.view(ANY)(acknowledge_other)
    app.view_closed(ANY)(acknowledge_other)
    app.options(ANY)(acknowledge_other)
    app.command(ANY)(acknowledge_other)
