"""/mincards: answer privately, with a button that posts the answer for the whole channel."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.language import language_of
from bot.render_blocks import message, slash_help
from bot.slack_text import from_slack
from handlers.services import Services

COMMAND = "/mincards"
SCOPES = ("commands", "chat:write")
log = logging.getLogger(__name__)


def register(app: AsyncApp, services: Services) -> None:
    knowledge = services.engine.knowledge

    @app.command(COMMAND)
    @services.inflight.track
    async def answer_command(ack: AsyncAck, command: dict[str, Any],
                             client: AsyncWebClient) -> None:
        await ack()  # before anything else: Slack gives a command three seconds
        question = from_slack(str(command.get("text") or ""))
        answer = services.engine.ask(question)
        if answer.intent == "help" and (not question.strip() or answer.note("no_model") is None):
            # `/mincards` alone, or `/mincards help`: how to use it, and the other ways in.
            payload = slash_help(language_of(question), COMMAND)
        else:
            payload = message(knowledge, answer, question=question,
                              shareable=answer.intent != "help")
        channel, user = command.get("channel_id"), command.get("user_id")
        response_url = command.get("response_url")
        if channel and user:
            try:
                await client.chat_postEphemeral(channel=channel, user=user, **payload)
                return
            except SlackApiError as exc:
                # Private channels and DMs the bot is not in refuse chat.postEphemeral; the
                # command's response URL reaches the person anywhere.
                log.warning("chat.postEphemeral failed (%s); replying through the response URL",
                            exc.response.get("error"))
            except Exception:  # Slack down after retries: still try the response URL
                log.exception("chat.postEphemeral failed; replying through the response URL")
        if isinstance(response_url, str) and response_url:
            await services.respond(response_url, {"response_type": "ephemeral", **payload})
        else:
            log.warning("/mincards without a channel, user or response URL; nowhere to reply")
