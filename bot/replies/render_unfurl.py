"""The card under a pasted model link (a Slack unfurl): the lead sentence for the model (its
stand-in's or its bracket when the table lacks it by name), where it comes from, and a button
that opens the form with the model picked. Only what the table answers: no card otherwise."""

from __future__ import annotations

from typing import Any

from mincards.bot.answering.answer import Answer
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.reading.model_links import ModelLink
from mincards.bot.replies.blocks import actions, button, context, section
from mincards.bot.replies.i18n import t
from mincards.bot.replies.lead import MRKDWN, lead
from mincards.bot.replies.render_estimate import short_line
from mincards.bot.replies.slack_limits import limits
from mincards.bot.replies.slack_text import escape

UNFURL_ASK_ACTION = "unfurl_ask"  # the card's button: the form, with the model picked


def table_model(answer: Answer) -> str | None:
    """The table model whose numbers the card gives (the model's own, or its stand-in's)."""
    shown = answer.shown()
    return shown.models[0] if shown.intent in ("lookup", "plan") and shown.models else None


def answers_link(answer: Answer) -> bool:
    """Whether the table says something definite about the linked model: its entries, a
    same-architecture stand-in's, or the table's models either side of its size. A "which
    one?" or a name the table cannot place with no estimate: no card (silence, not noise); a
    model only the estimate speaks for gets its estimate, labelled."""
    if answer.intent in ("lookup", "plan"):
        return bool(answer.models)
    return answer.intent == "not_found" and (answer.stand_in is not None
                                             or answer.bracket is not None
                                             or answer.estimate is not None)


def unfurl_card(knowledge: Knowledge, answer: Answer, link: ModelLink) -> dict[str, Any] | None:
    """chat.unfurl's attachment for the link; None when the table has no answer for it."""
    if not answers_link(answer):
        return None
    lim = limits()
    lang = answer.language
    said = t(lang, "unfurl.source", site=link.site, date=knowledge.table.source.date_text())
    blocks = [section(lead(knowledge, answer, MRKDWN), lim)]
    estimated = (short_line(knowledge, answer.estimate, lang)
                 if answer.estimate is not None and answer.intent == "not_found" else None)
    if estimated:  # after the table's words, never as them
        blocks.append(section(escape(estimated), lim))
    blocks.append(context([escape(said)], lim))
    # The form opens with the table's model picked (none for a bracket: the person picks).
    blocks.append(actions([button(t(lang, "unfurl.ask"), UNFURL_ASK_ACTION,
                                  table_model(answer) or "-", lim)], lim))
    return {"blocks": blocks}
