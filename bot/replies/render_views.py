"""Views: the App Home tab (per person, in their language) and the "ask" modal with its answer.

Views take no table block, so an answer in a view is written as lines (render_blocks.view_blocks).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from mincards.bot import shallow_json
from mincards.bot.answering.answer import Answer
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.language import Language
from mincards.bot.replies.blocks import (
    Block,
    context,
    header,
    option,
    plain,
    section,
    static_select,
)
from mincards.bot.replies.i18n import t
from mincards.bot.replies.render_blocks import model_menu, view_blocks
from mincards.bot.replies.render_words import framework_list, seq_short
from mincards.bot.replies.slack_limits import SlackLimits, limits
from mincards.bot.replies.slack_text import escape

HOME_CHOOSE_ACTION = "home_choose_model"
ASK_VIEW = "mincards_ask"  # the modal's callback_id
ANSWER_VIEW = "mincards_answer"
# The modal's inputs: block_id and action_id alike.
MODEL_INPUT, STRATEGY_INPUT, SEQ_INPUT, BUDGET_INPUT = "model", "strategy", "seq_len", "budget"


def _legend(knowledge: Knowledge, language: Language) -> str:
    """Cards vs DIE, from the hardware facts: what each flavour counts and what a node holds."""
    parts = []
    for fl in knowledge.table.flavours:
        info = knowledge.hardware.flavours[fl]
        if info.die_per_card:
            parts.append(t(language, "home.legend.die", flavour=info.display, chip=info.chip,
                           die=info.die_per_card, per_node=info.per_node,
                           cards=info.cards(info.per_node)))
        else:
            parts.append(t(language, "home.legend.card", flavour=info.display, chip=info.chip,
                           per_node=info.per_node))
    return t(language, "home.legend", flavours=escape(t(language, "semicolon").join(parts)))


def home_view(knowledge: Knowledge, language: Language, picked: Answer | None = None,
              settings: list[Block] | None = None) -> dict[str, Any]:
    """The Home tab: a model menu at the top (its answer under it once picked), the person's
    settings when any are kept, the legend, how to ask, the source."""
    lim = limits()
    shown = picked.models[0] if picked is not None and len(picked.models) == 1 else None
    menu = model_menu(knowledge, language, HOME_CHOOSE_ACTION, lim, picked=shown)
    blocks: list[Block] = [header(t(language, "home.title"), lim),
                           section(t(language, "home.hello"), lim) | {"accessory": menu}]
    if picked is not None:
        blocks += [{"type": "divider"}, *view_blocks(knowledge, picked)]
    if settings:
        blocks += [{"type": "divider"}, *settings]
    blocks += [{"type": "divider"},
               section(_legend(knowledge, language), lim),
               section(t(language, "home.ask"), lim),
               context([escape(t(language, "home.source",
                                 date=knowledge.table.source.date_text(),
                                 count=len(knowledge.table.models()),
                                 frameworks=framework_list(knowledge, language, list(
                                     knowledge.table.framework_ids))))], lim)]
    return {"type": "home", "blocks": blocks[: lim.max_home_blocks]}


def _input(block_id: str, label: str, element: Block, lim: SlackLimits,
           optional: bool = True) -> Block:
    return {"type": "input", "block_id": block_id, "optional": optional,
            "label": plain(label, lim.max_input_label), "element": element}


def _modal(language: Language, callback_id: str, blocks: list[Block], lim: SlackLimits,
           submit: bool) -> dict[str, Any]:
    view: dict[str, Any] = {
        "type": "modal", "callback_id": callback_id,
        "title": plain(t(language, "modal.title"), lim.max_view_title),
        "close": plain(t(language, "modal.close"), lim.max_view_button),
        "private_metadata": json.dumps({"l": language}),
        "blocks": blocks[: lim.max_home_blocks]}
    if submit:
        view["submit"] = plain(t(language, "modal.submit"), lim.max_view_button)
    return view


def ask_modal(knowledge: Knowledge, language: Language, picked: str | None = None
              ) -> dict[str, Any]:
    """Model (required), strategy, length and budget (optional): the parts of a question;
    `picked`: a table model chosen already (the form opened from a model's link)."""
    lim = limits()
    cat = knowledge.catalogue
    table = knowledge.table
    groups: dict[str, list[Block]] = {}
    initial = None
    for key in table.models():
        family = knowledge.vocabulary.families[cat[key].family].display
        choice = option(cat[key].display, key, lim)
        groups.setdefault(family, []).append(choice)
        if key == picked:
            initial = choice
    strategies = [option(knowledge.strategy_label(s, language), s, lim)
                  for s in knowledge.strategies if s in table.strategies()]
    lengths = [option(seq_short(n), str(n), lim)
               for n in sorted({e.seq_len for e in table.entries})]
    any_text = t(language, "modal.any")
    blocks = [
        _input(MODEL_INPUT, t(language, "modal.model"), static_select(
            MODEL_INPUT, t(language, "blocks.pick_model"), list(groups.items()), lim,
            initial=initial), lim, optional=False),
        _input(STRATEGY_INPUT, t(language, "modal.strategy"), static_select(
            STRATEGY_INPUT, any_text, [("", strategies)], lim), lim),
        _input(SEQ_INPUT, t(language, "modal.seq"), static_select(
            SEQ_INPUT, any_text, [("", lengths)], lim), lim),
        _input(BUDGET_INPUT, t(language, "modal.budget"), {
            "type": "plain_text_input", "action_id": BUDGET_INPUT,
            "placeholder": plain(t(language, "modal.budget.hint"), lim.max_placeholder_text)},
            lim),
    ]
    return _modal(language, ASK_VIEW, blocks, lim, submit=True)


def answer_modal(knowledge: Knowledge, answer: Answer) -> dict[str, Any]:
    """The modal's answer, in place of the form: only the person who asked sees it."""
    lim = limits()
    blocks = [*view_blocks(knowledge, answer),
              context([escape(t(answer.language, "modal.private"))], lim)]
    return _modal(answer.language, ANSWER_VIEW, blocks, lim, submit=False)


@dataclass(frozen=True)
class ModalAnswer:
    """What the modal was filled in with."""

    language: Language
    model: str | None
    strategy: str | None
    seq_len: int | None
    budget: str


def read_modal(view: Any) -> ModalAnswer:
    """The submitted form's values, whatever shape they arrive in (missing parts are None)."""
    view = view if isinstance(view, dict) else {}
    raw = view.get("private_metadata")
    try:
        meta = shallow_json.loads(raw) if isinstance(raw, str) and raw else {}
    except ValueError:
        meta = {}
    language: Language = "zh" if isinstance(meta, dict) and meta.get("l") == "zh" else "en"
    state = view.get("state")
    values = state.get("values") if isinstance(state, dict) else None
    values = values if isinstance(values, dict) else {}

    def picked(block: str) -> str | None:
        element = values.get(block, {}).get(block) if isinstance(values.get(block), dict) else None
        if not isinstance(element, dict):
            return None
        selected = element.get("selected_option")
        if isinstance(selected, dict) and isinstance(selected.get("value"), str):
            return str(selected["value"])
        value = element.get("value")
        return value if isinstance(value, str) else None

    seq = picked(SEQ_INPUT)
    return ModalAnswer(language=language, model=picked(MODEL_INPUT),
                       strategy=picked(STRATEGY_INPUT),
                       # isascii: '²' and '①' are digits to isdigit, and not to int.
                       seq_len=int(seq) if seq and seq.isascii() and seq.isdigit()
                       and len(seq) < 8 else None,
                       budget=(picked(BUDGET_INPUT) or "").strip()[:200])
