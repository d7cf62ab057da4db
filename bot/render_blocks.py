"""Answers as Slack Block Kit: pure functions from an Answer to blocks, tested as data."""

from __future__ import annotations

from typing import Any

from bot.answer import Answer
from bot.followup import FollowUp
from bot.i18n import t
from bot.knowledge import Knowledge
from bot.language import Language
from bot.render_budget import (
    budget_text,
    capacity_head,
    capacity_lines,
    compare_lines,
    compare_title,
    room_text,
    verdict_lines,
)
from bot.render_text import asked_columns, help_text, note_text, render_text
from bot.render_words import count_text, entry_heading, flavour_units, framework_list
from bot.slack_limits import SlackLimits, limits
from bot.slack_text import code, escape
from bot.table import NOT_SUPPORTED, Entry

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
                  "value": value}
    if primary:
        out["style"] = "primary"
    return out


def _entry_blocks(knowledge: Knowledge, answer: Answer, entry: Entry,
                  lim: SlackLimits) -> list[Block]:
    """One section per entry, a field per framework and flavour (one for a framework that does
    not support it); more sections when a wide table has more fields than one section holds."""
    hw = knowledge.hardware
    lang = answer.language
    asked = set(asked_columns(knowledge, answer))
    fields = []
    for fw in knowledge.table.framework_ids:
        name = knowledge.framework_names[fw]
        if not entry.supports(fw):
            mark = "▶ " if any(f == fw for f, _ in asked) else ""
            fields.append(_mrkdwn(f"{mark}*{escape(name)}*\n{t(lang, 'not_supported')}"))
            continue
        for fl in knowledge.table.flavours:
            mark = "▶ " if (fw, fl) in asked else ""
            value = count_text(hw, lang, fl, entry.count(fw, fl))
            fields.append(_mrkdwn(_clip(f"{mark}*{escape(name)} · {hw.flavours[fl].display}*\n"
                                        f"{value}", lim.max_field_text)))
    per = lim.max_section_fields
    chunks = [fields[i:i + per] for i in range(0, len(fields), per)]
    heading = _mrkdwn(f"*{escape(entry_heading(knowledge, lang, entry))}*")
    return [{"type": "section", **({"text": heading} if i == 0 else {}), "fields": chunk}
            for i, chunk in enumerate(chunks)]


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
                            FollowUp.pick(answer, k).encode(lim.max_button_value), lim)
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


def _capacity_blocks(knowledge: Knowledge, answer: Answer, lim: SlackLimits) -> list[Block]:
    """Models that fit, biggest first, a section each; past the limit, the rest by name."""
    assert answer.budget is not None
    lang = answer.language
    cat = knowledge.catalogue
    blocks = [header(t(lang, "capacity.title",
                       budget=budget_text(knowledge, lang, answer.budget),
                       room=room_text(knowledge, answer)), lim),
              section(escape(capacity_head(knowledge, answer)), lim)]
    shown = answer.models[: lim.max_capacity_models]
    per_model = capacity_lines(knowledge, answer)
    for model in shown:
        lines = [escape(line) for line in per_model[model]]
        blocks.append(section("\n".join([f"*{escape(cat[model].display)}*  {code(model)}",
                                         *lines]), lim))
    rest = answer.models[len(shown):]
    if rest:
        blocks.append(context([t(lang, "capacity.more", count=len(rest), names=", ".join(
            escape(cat[m].display) for m in rest))], lim))
    return blocks


def _compare_blocks(knowledge: Knowledge, answer: Answer, lim: SlackLimits) -> list[Block]:
    """Which needs fewer, flavour by flavour; then each model's own numbers."""
    cat = knowledge.catalogue
    blocks = [header(compare_title(knowledge, answer), lim),
              section("\n".join(f"• {escape(line)}"
                                 for line in compare_lines(knowledge, answer)), lim)]
    for model in answer.models:
        blocks.append(section(f"*{escape(cat[model].display)}*  {code(model)}", lim))
        for e in answer.rows:
            if e.model == model:
                blocks += _entry_blocks(knowledge, answer, e, lim)
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
        verdict = verdict_lines(knowledge, answer)
        if verdict:
            # A budget question is answered first: yes, no, or where it fits and where not.
            blocks.append(section("\n".join([f"*{escape(verdict[0])}*",
                                              *[f"• {escape(v)}" for v in verdict[1:]]]), lim))
        blocks.append(header(t(lang, "lookup.title", model=info.display), lim))
        blocks.append(context([t(lang, "blocks.source",
                                 date=knowledge.table.source.date_text(),
                                 key=code(info.key))], lim))
        # A model has a handful of entries (strategies x lengths): far below the block limit.
        for e in answer.rows:
            blocks += _entry_blocks(knowledge, answer, e, lim)
        blocks += _notes(knowledge, answer, lim)
    elif answer.intent == "capacity":
        blocks += _capacity_blocks(knowledge, answer, lim)
        blocks += _notes(knowledge, answer, lim)
    elif answer.intent == "compare":
        blocks += _compare_blocks(knowledge, answer, lim)
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
        blocks.append(section(escape(help_text(knowledge, lang)), lim))
        blocks += _notes(knowledge, answer, lim)
    if shareable and question is not None:
        blocks.append({"type": "actions", "block_id": SHARE_BLOCK, "elements": [
            button(t(lang, "blocks.share"), SHARE_ACTION,
                   FollowUp.same(answer, question).encode(lim.max_button_value), lim,
                   primary=True)]})
    return blocks[: lim.max_message_blocks]


def slash_help(language: Language, command: str) -> dict[str, Any]:
    """What a bare slash command shows: how to use it, mentions and DMs."""
    text = t(language, "help.slash", command=command)
    return {"blocks": [section(text, limits())], "text": text}


def fallback_text(knowledge: Knowledge, answer: Answer) -> str:
    """The message's `text`: the whole answer, for notifications and screen readers."""
    return escape(render_text(knowledge, answer))


def message(knowledge: Knowledge, answer: Answer, *, question: str | None = None,
            shareable: bool = False) -> dict[str, Any]:
    """`blocks` and `text` for chat.postMessage / chat.update / a response URL."""
    return {"blocks": render_blocks(knowledge, answer, question=question, shareable=shareable),
            "text": fallback_text(knowledge, answer)}


def _home_model(knowledge: Knowledge, key: str) -> str:
    info = knowledge.catalogue[key]
    table = knowledge.table
    lines = [f"*{escape(info.display)}*  {code(info.key)}"]
    for e in table.entries_for(key):
        cells = []
        for fw in table.framework_ids:
            pair = "/".join(NOT_SUPPORTED if (c := e.count(fw, fl)) is None else str(c)
                            for fl in table.flavours)
            cells.append(f"{escape(knowledge.framework_names[fw])} {pair}")
        lines.append(f"{escape(knowledge.strategy_label(e.strategy, 'en'))} {e.seq_len}: "
                     + " · ".join(cells))
    return "\n".join(lines)


def home_view(knowledge: Knowledge) -> dict[str, Any]:
    """The App Home tab: how to ask, then the whole table, one section per model."""
    lim = limits()
    table = knowledge.table
    flavours = "/".join(knowledge.flavour_display(fl) for fl in table.flavours)
    columns = " · ".join(f"{escape(fw.name)} {flavours}" for fw in table.frameworks)

    def how(lang: Language) -> Block:
        return section(t(lang, "home.how",
                         frameworks=escape(framework_list(knowledge, lang,
                                                          list(table.framework_ids))),
                         flavours=flavour_units(knowledge, lang)), lim)

    blocks: list[Block] = [header(t("en", "home.title"), lim), how("en"), how("zh"),
                           {"type": "divider"},
                           section(t("en", "home.table", date=table.source.date_text(),
                                     columns=columns, units=flavour_units(knowledge, "en")),
                                   lim)]
    blocks += [section(_home_model(knowledge, key), lim) for key in table.models()]
    return {"type": "home", "blocks": blocks[: lim.max_home_blocks]}
