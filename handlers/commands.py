"""/mincards: answer privately, with a button that posts the answer for the whole channel.

The reply goes through the command's response URL, Slack's way to answer a command anywhere
(private channels and DMs the bot is not in included); chat.postEphemeral is the fallback for a
response URL that fails, and needs the bot in the channel.
"""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from mincards.bot.language import language_of
from mincards.bot.replies.render_blocks import message, slash_help
from mincards.bot.replies.slack_text import from_slack
from mincards.handlers.estimates import with_hub_estimate
from mincards.handlers.preference_menus import forget_me, open_settings
from mincards.handlers.services import Services

COMMAND = "/mincards"
# `/mincards settings` opens the settings; `/mincards forget me` clears the person's own.
SETTINGS_WORDS = frozenset({"settings", "setting", "preferences", "设置", "設置"})
FORGET_WORDS = frozenset({"forget me", "忘记我", "清除设置"})
SCOPES = ("commands", "chat:write")
log = logging.getLogger(__name__)


async def reply_privately(services: Services, client: AsyncWebClient, payload: dict[str, Any],
                          response_url: object, channel: object, user: object) -> None:
    """The response URL first; chat.postEphemeral only when that certainly did not land (a
    post Slack may have taken, whose answer never came, is not sent twice)."""
    if isinstance(response_url, str) and response_url:
        landed = await services.respond(
            response_url, {"response_type": "ephemeral", "replace_original": False, **payload})
        if landed is not False:
            return
    if isinstance(channel, str) and channel and isinstance(user, str) and user:
        try:
            await client.chat_postEphemeral(channel=channel, user=user, **payload)
            return
        except SlackApiError as exc:  # e.g. the bot is not in that channel
            log.warning("chat.postEphemeral failed too (%s); the answer is lost",
                        exc.response.get("error"))
        except Exception as exc:  # Slack down after retries
            log.error("chat.postEphemeral failed too (%s); the answer is lost", exc)
        return
    log.warning("no response URL that worked and no channel and user; nowhere to reply")


def register(app: AsyncApp, services: Services) -> None:
    knowledge = services.engine.knowledge

    @app.command(COMMAND)
    @services.inflight.track
    async def answer_command(ack: AsyncAck, command: dict[str, Any], client: AsyncWebClient,
                             context: AsyncBoltContext) -> None:
        await ack()  # before anything else: Slack gives a command three seconds
        question = from_slack(str(command.get("text") or ""))
        asked = " ".join(question.lower().split())
        if asked in SETTINGS_WORDS or asked in FORGET_WORDS:
            chosen = await services.preferences_of(context, command.get("user_id"))
            language = (chosen.language if chosen is not None and chosen.language != "auto"
                        else language_of(question))
            said = (await open_settings(services, client, context, command, language)
                    if asked in SETTINGS_WORDS else
                    await forget_me(services, context, command, language))
            if said:
                await reply_privately(services, client, {"text": said},
                                      command.get("response_url"), command.get("channel_id"),
                                      command.get("user_id"))
            return
        chosen = await services.preferences_of(context, command.get("user_id"))
        answer = await services.answering.answer(
            lambda: services.engine.recall(question, None, chosen), question)
        answer = await with_hub_estimate(services.engine, answer, question)

        def render() -> dict[str, Any]:
            if answer.intent == "help" and (not question.strip()
                                            or answer.note("no_model") is None):
                # `/mincards` alone, or `/mincards help`: how to use it, and the other ways in.
                return slash_help(language_of(question), COMMAND)
            return message(knowledge, answer, question=question,
                           shareable=answer.intent != "help",
                           short=chosen is not None and chosen.length == "short")

        payload = await services.answering.render(answer, ("command", question, chosen), render,
                                                  question)
        await reply_privately(services, client, payload, command.get("response_url"),
                              command.get("channel_id"), command.get("user_id"))
