"""Shortcuts: "Ask mincards" (global) opens a form and answers in it, privately; "How many cards
for this?" (on a message) answers about that message's text, only to the person who asked."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from mincards.bot.language import language_of
from mincards.bot.replies.i18n import t
from mincards.bot.replies.render_blocks import message
from mincards.bot.replies.render_views import (
    ASK_VIEW,
    BUDGET_INPUT,
    MODEL_INPUT,
    answer_modal,
    ask_modal,
    read_modal,
)
from mincards.bot.replies.slack_text import escape, from_slack
from mincards.handlers.commands import reply_privately
from mincards.handlers.services import Services

ASK_SHORTCUT = "mincards_ask"  # global shortcut callback_id
THIS_SHORTCUT = "mincards_this"  # message shortcut callback_id
SCOPES = ("commands",)
log = logging.getLogger(__name__)


def _id(body: dict[str, Any], key: str) -> str | None:
    part = body.get(key)
    value = part.get("id") if isinstance(part, dict) else None
    return value if isinstance(value, str) and value else None


def register(app: AsyncApp, services: Services) -> None:
    knowledge = services.engine.knowledge

    @app.shortcut(ASK_SHORTCUT)
    @services.inflight.track
    async def open_form(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient,
                        context: AsyncBoltContext) -> None:
        await ack()
        trigger, user = body.get("trigger_id"), _id(body, "user")
        if not isinstance(trigger, str) or not trigger:
            log.warning("global shortcut without a trigger_id; no form to open")
            return
        language = await services.language_for(client, context, user)
        await client.views_open(trigger_id=trigger, view=ask_modal(knowledge, language))

    @app.view(ASK_VIEW)
    async def answer_form(ack: AsyncAck, body: dict[str, Any],
                          context: AsyncBoltContext) -> None:
        form = read_modal(body.get("view"))
        lang = form.language
        engine = services.engine
        typed = form.budget
        budget = await services.answering.run(lambda: engine.read_budget(typed)) if typed else None
        errors = {}
        if not form.model:
            errors[MODEL_INPUT] = t(lang, "blocks.pick_model")
        if typed and budget is None:
            problem = await services.answering.run(lambda: engine.budget_problem(typed))
            reason, count = problem or ("unread", None)
            errors[BUDGET_INPUT] = t(lang, f"modal.budget.{reason}", count=count)
        if errors:
            await ack(response_action="errors", errors=errors)
            return
        model = form.model
        assert model is not None
        # The settings' lookup is cached in the common case: the form is answered in its ack.
        chosen = await services.preferences_of(context, _id(body, "user"))
        answer = await services.answering.answer(lambda: engine.form(
            lang, model, strategies=(form.strategy,) if form.strategy else (),
            seq_lens=(form.seq_len,) if form.seq_len else (), budget=budget,
            preferences=chosen))
        view = await services.answering.run(lambda: answer_modal(knowledge, answer))
        # The answer replaces the form: only the person who filled it in sees it.
        await ack(response_action="update", view=view)

    @app.shortcut(THIS_SHORTCUT)
    @services.inflight.track
    async def answer_message(ack: AsyncAck, body: dict[str, Any],
                             client: AsyncWebClient, context: AsyncBoltContext) -> None:
        await ack()
        shown = body.get("message")
        text = from_slack(str(shown.get("text") or "")) if isinstance(shown, dict) else ""
        if text.strip():
            chosen = await services.preferences_of(context, _id(body, "user"))
            answer = await services.answering.answer(
                lambda: services.engine.recall(text, None, chosen), text)
            payload = await services.answering.run(lambda: message(
                knowledge, answer, question=text, shareable=answer.intent != "help",
                short=chosen is not None and chosen.length == "short"), text)
        else:
            note = escape(t(language_of(text), "shortcut.no_text"))
            payload = {"text": note, "blocks": [
                {"type": "section", "text": {"type": "mrkdwn", "text": note}}]}
        await reply_privately(services, client, payload, body.get("response_url"),
                              _id(body, "channel"), _id(body, "user"))
