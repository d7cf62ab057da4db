"""/mincards: answer privately, with a button that posts the answer for the whole channel."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import Ack, App
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.engine import Engine
from bot.render_blocks import message
from bot.slack_text import from_slack
from handlers.conversations import Conversations
from handlers.replies import post_to_response_url

COMMAND = "/mincards"
SCOPES = ("commands", "chat:write")
log = logging.getLogger(__name__)


def register(app: App, engine: Engine, conversations: Conversations) -> None:
    @app.command(COMMAND)
    def answer_command(ack: Ack, command: dict[str, Any], client: WebClient) -> None:
        ack()
        question = from_slack(str(command.get("text") or ""))
        answer = engine.ask(question)
        payload = message(engine.knowledge, answer, question=question,
                          shareable=answer.intent != "help")
        channel, user = command.get("channel_id"), command.get("user_id")
        response_url = command.get("response_url")
        if channel and user:
            try:
                client.chat_postEphemeral(channel=channel, user=user, **payload)
                return
            except SlackApiError as exc:
                # Private channels and DMs the bot is not in refuse chat.postEphemeral; the
                # command's response URL reaches the person anywhere.
                log.warning("chat.postEphemeral failed (%s); replying through the response URL",
                            exc.response.get("error"))
            except Exception:  # Slack down after retries: still try the response URL
                log.exception("chat.postEphemeral failed; replying through the response URL")
        if isinstance(response_url, str) and response_url:
            post_to_response_url(response_url, {"response_type": "ephemeral", **payload})
        else:
            log.warning("/mincards without a channel, user or response URL; nowhere to reply")
