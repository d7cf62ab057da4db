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
from handlers.replies import post_to_response_url

COMMAND = "/mincards"
SCOPES = ("commands", "chat:write")
log = logging.getLogger(__name__)


def register(app: App, engine: Engine) -> None:
    @app.command(COMMAND)
    def answer_command(ack: Ack, command: dict[str, Any], client: WebClient) -> None:
        ack()
        question = from_slack(str(command.get("text", "")))
        answer = engine.ask(question)
        payload = message(engine.knowledge, answer, question=question,
                          shareable=answer.intent != "help")
        try:
            client.chat_postEphemeral(channel=command["channel_id"], user=command["user_id"],
                                      **payload)
        except SlackApiError as exc:
            # Private channels and DMs the bot is not in refuse chat.postEphemeral; the
            # command's response URL reaches the person anywhere.
            log.warning("chat.postEphemeral failed (%s); replying through the response URL",
                        exc.response.get("error"))
            post_to_response_url(command["response_url"], {"response_type": "ephemeral",
                                                            **payload})
