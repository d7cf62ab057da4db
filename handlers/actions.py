"""Buttons: pick a model from a choice (updates the message), or post an answer to the channel."""

from __future__ import annotations

import logging
import re
from typing import Any

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.engine import Engine
from bot.followup import FollowUp
from bot.render_blocks import PICK_ACTION, SHARE_ACTION, message
from handlers.conversations import Conversations, conversation_key
from handlers.replies import post_to_response_url

log = logging.getLogger(__name__)
PICK = re.compile(rf"^{PICK_ACTION}_\d+$")


def _follow_up(action: dict[str, Any]) -> FollowUp | None:
    follow = FollowUp.decode(str(action.get("value", "")))
    if follow is None:
        log.warning("ignored a button whose value this bot did not write")
    return follow


def _conversation(context: BoltContext, container: dict[str, Any], ephemeral: bool
                  ) -> str | None:
    """The DM or thread a clicked message stands in; None for a private (ephemeral) reply."""
    channel = container.get("channel_id")
    if ephemeral or not isinstance(channel, str) or not channel:
        return None
    thread = container.get("thread_ts")
    if not isinstance(thread, str) and not channel.startswith("D"):
        thread = container.get("message_ts")  # a channel message is the root of its thread
    return conversation_key(context, channel, thread if isinstance(thread, str) else None)


def register(app: App, engine: Engine, conversations: Conversations) -> None:
    @app.action(PICK)
    def pick_model(ack: Ack, body: dict[str, Any], action: dict[str, Any],
                   client: WebClient, context: BoltContext) -> None:
        ack()
        follow = _follow_up(action)
        if follow is None:
            return
        container = body.get("container") or {}
        ephemeral = bool(container.get("is_ephemeral"))
        answer = conversations.follow(_conversation(context, container, ephemeral), follow)
        payload = message(engine.knowledge, answer, question=follow.text or follow.model or "",
                          shareable=ephemeral and answer.intent != "help")
        channel, ts = container.get("channel_id"), container.get("message_ts")
        if not ephemeral and channel and ts:
            client.chat_update(channel=channel, ts=ts, **payload)
            return
        # An ephemeral message can only be replaced through its response URL.
        url = body.get("response_url")
        if isinstance(url, str) and url:
            post_to_response_url(url, {"replace_original": True, **payload})
        else:
            log.warning("button click without a message or response URL; nowhere to reply")

    @app.action(SHARE_ACTION)
    def share_answer(ack: Ack, body: dict[str, Any], action: dict[str, Any],
                     client: WebClient) -> None:
        ack()
        follow = _follow_up(action)
        if follow is None:
            return
        answer = engine.follow(follow)
        payload = message(engine.knowledge, answer, question=follow.text or "")
        channel = (body.get("channel") or {}).get("id") or (body.get("container") or {}).get(
            "channel_id")
        url = body.get("response_url")
        if not channel:
            log.warning("share click without a channel; nowhere to post")
            return
        try:
            client.chat_postMessage(channel=channel, **payload)
        except SlackApiError as exc:
            log.warning("chat.postMessage failed (%s); posting through the response URL",
                        exc.response.get("error"))
            if url:
                post_to_response_url(url, {"response_type": "in_channel",
                                           "replace_original": False, **payload})
            return
        if url:
            post_to_response_url(url, {"delete_original": True})
