"""Answers as Slack Block Kit: pure functions from an Answer to blocks, tested as data."""

from __future__ import annotations

from typing import Any

from bot.answer import Answer
from bot.followup import FollowUp
from bot.i18n import t
from bot.knowledge import Knowledge
from bot.render_text import count_text, entry_heading, note_text, render_text
from bot.slack_limits import SlackLimits, limits
from bot.slack_text import code, escape
from bot.table import FLAVOURS, FRAMEWORKS, Entry

Block = dict[str, Any]
PICK_ACTION = "pick_model"  # action_id prefix; one button per candidate: pick_model_0, ...
SHARE_ACTION = "share_answer"
PICK_BLOCK = "mincards_pick"
SHARE_BLOCK = "mincards_share"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _mrkdwn(text: str) -> Block:
    return {"type": "mrkdwn", "text": text}


def section(text: str, lim: SlackLimits) -> Block:
    return {"type": "section", "text": _mrkdwn(_clip(text, lim.max_section_text))}


def context(texts: list[str], lim: SlackLimits) -> Block:
    texts = texts[: lim.max_context_elements]
    return {"type": "context",
            "elements": [_mrkdwn(_clip(x, lim.max_context_text)) for x in texts]}


def header(text: str, lim: SlackLimits) -> Block:
    return {"type": "header",
            "text": {"type": "plain_text", "text": _clip(text, lim.max_header_text),
                     "emoji": False}}


def button(label: str, action_id: str, value: str, lim: SlackLimits,
           primary: bool = False) -> Block:
    out: Block = {"type": "button", "action_id": action_id,
                  "text": {"type": "plain_text", "text": _clip(label, lim.max_button_text),
                           "emoji": False},
                  "value": value[: lim.max_button_value]}
    if primary:
        out["style"] = "primary"
    return out


def _entry_block(knowledge: Knowledge, answer: Answer, entry: Entry, lim: SlackLimits) -> Block:
    hw = knowledge.hardware
    lang = answer.language
    fields = []
    for fw in FRAMEWORKS:
        counts = entry.counts(fw)
        name = hw.frameworks[fw].display
        if not counts.supported:
            fields.append(_mrkdwn(f"*{name}*\n{t(lang, 'not_supported')}"))
            continue
        for fl in FLAVOURS:
            asked = (fw in answer.frameworks or not answer.frameworks) and (
                fl in answer.flavours or not answer.flavours) and bool(
                answer.frameworks or answer.flavours)
            mark = "▶ " if asked else ""
            value = count_text(hw, lang, fl, getattr(counts, fl))
            fields.append(_mrkdwn(_clip(f"{mark}*{name} · {hw.flavours[fl].display}*\n{value}",
                                        lim.max_field_text)))
    return {"type": "section", "text": _mrkdwn(f"*{escape(entry_heading(lang, entry))}*"),
            "fields": fields[: lim.max_section_fields]}


def _notes(knowledge: Knowledge, answer: Answer, lim: SlackLimits) -> list[Block]:
    sentences = [escape(s) for n in answer.notes if (s := note_text(knowledge, answer.language, n))]
    if not sentences:
        return []
    if len(sentences) > lim.max_context_elements:
        sentences = [*sentences[: lim.max_context_elements - 1],
                     "\n".join(sentences[lim.max_context_elements - 1:])]
    return [context(sentences, lim)]


def _choices(knowledge: Knowledge, answer: Answer, keys: tuple[str, ...],
             lim: SlackLimits) -> list[Block]:
    if not keys:
        return []
    cat = knowledge.catalogue
    shown, rest = keys[: lim.max_choice_buttons], keys[lim.max_choice_buttons:]
    blocks: list[Block] = [{
        "type": "actions", "block_id": PICK_BLOCK,
        "elements": [button(cat[k].display, f"{PICK_ACTION}_{i}",
                            FollowUp.pick(answer, k).encode(), lim)
                     for i, k in enumerate(shown)]}]
    if rest:
        names = ", ".join(escape(cat[k].display) for k in rest)
        blocks.append(context([t(answer.language, "blocks.more", names=names)], lim))
    return blocks


def _list_blocks(knowledge: Knowledge, answer: Answer, lim: SlackLimits) -> list[Block]:
    cat = knowledge.catalogue
    lang = answer.language
    by_family: dict[str, list[str]] = {}
    for key in answer.models:
        by_family.setdefault(cat[key].family, []).append(escape(cat[key].display))
    blocks = [header(t(lang, "list.title", count=len(answer.models)), lim)]
    blocks += [section(f"*{escape(knowledge.vocabulary.families[f].display)}*\n"
                       + ", ".join(names), lim) for f, names in by_family.items()]
    return blocks


def render_blocks(knowledge: Knowledge, answer: Answer, *, question: str | None = None,
                  shareable: bool = False) -> list[Block]:
    """The message's blocks; `shareable` adds the 'post to channel' button (slash command)."""
    lim = limits()
    lang = answer.language
    cat = knowledge.catalogue
    blocks: list[Block] = []
    asked = code(answer.asked) if answer.asked else ""
    if answer.intent == "lookup":
        info = cat[answer.models[0]]
        blocks.append(header(t(lang, "lookup.title", model=info.display), lim))
        blocks.append(context([t(lang, "blocks.source",
                                 date=knowledge.table.source.date.isoformat(),
                                 key=code(info.key))], lim))
        # A model has at most 4 entries (2 strategies x 2 lengths): far below the block limit.
        blocks += [_entry_block(knowledge, answer, e, lim) for e in answer.rows]
        blocks += _notes(knowledge, answer, lim)
    elif answer.intent == "ambiguous":
        blocks.append(section(t(lang, "ambiguous", asked=asked) if asked
                              else t(lang, "ambiguous.plain"), lim))
        blocks += _choices(knowledge, answer, answer.candidates, lim)
    elif answer.intent == "not_found":
        blocks.append(section(t(lang, "not_found", asked=asked) if asked
                              else t(lang, "not_found.plain"), lim))
        blocks += _notes(knowledge, answer, lim)
        if answer.candidates:
            blocks.append(section(t(lang, "suggest"), lim))
            blocks += _choices(knowledge, answer, answer.candidates, lim)
    elif answer.intent == "not_covered":
        blocks.append(section(t(lang, "not_covered", model=escape(cat[answer.models[0]].display)),
                              lim))
        blocks += _notes(knowledge, answer, lim)
    elif answer.intent == "list":
        blocks += _list_blocks(knowledge, answer, lim)
        blocks += _notes(knowledge, answer, lim)
    else:
        blocks.append(section(escape(t(lang, "help")), lim))
        blocks += _notes(knowledge, answer, lim)
    if shareable and question is not None:
        blocks.append({"type": "actions", "block_id": SHARE_BLOCK, "elements": [
            button(t(lang, "blocks.share"), SHARE_ACTION,
                   FollowUp.same(answer, question).encode(), lim, primary=True)]})
    return blocks[: lim.max_message_blocks]


def fallback_text(knowledge: Knowledge, answer: Answer) -> str:
    """The message's `text`: the whole answer, for notifications and screen readers."""
    return escape(render_text(knowledge, answer))


def message(knowledge: Knowledge, answer: Answer, *, question: str | None = None,
            shareable: bool = False) -> dict[str, Any]:
    """`blocks` and `text` for chat.postMessage / chat.update / a response URL."""
    return {"blocks": render_blocks(knowledge, answer, question=question, shareable=shareable),
            "text": fallback_text(knowledge, answer)}


def _home_model(knowledge: Knowledge, key: str) -> str:
    hw = knowledge.hardware
    info = knowledge.catalogue[key]
    lines = [f"*{escape(info.display)}*  {code(info.key)}"]
    for e in knowledge.table.entries_for(key):
        cells = []
        for fw in FRAMEWORKS:
            c = e.counts(fw)
            pair = "/".join("-" if getattr(c, fl) is None else str(getattr(c, fl))
                            for fl in FLAVOURS)
            cells.append(f"{hw.frameworks[fw].display} {pair}")
        lines.append(f"{e.strategy} {e.seq_len}: " + " · ".join(cells))
    return "\n".join(lines)


def home_view(knowledge: Knowledge) -> dict[str, Any]:
    """The App Home tab: how to ask, then the whole table, one section per model."""
    lim = limits()
    date = knowledge.table.source.date.isoformat()
    blocks: list[Block] = [header(t("en", "home.title"), lim), section(t("en", "home.how"), lim),
                           section(t("zh", "home.how"), lim), {"type": "divider"},
                           section(t("en", "home.table", date=date), lim)]
    blocks += [section(_home_model(knowledge, key), lim) for key in knowledge.table.models()]
    return {"type": "home", "blocks": blocks[: lim.max_home_blocks]}
