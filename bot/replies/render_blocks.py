"""Answers as Slack messages: pure functions from an Answer to blocks and text, tested as data.

Every reply opens with the sentence that answers (bot/lead.py), which is also the message's
`text`: what a notification or a screen reader says. Warnings that change a plan follow in a
section of their own. Several entries are one table block; Slack takes one table a message and
shows it at the bottom, so it is always the last block, captioned by the footer just above it.
Every answer that is not one offers what to do next: a button or a menu that answers in place.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from mincards.bot.answering.answer import Answer
from mincards.bot.answering.conversation import context_of
from mincards.bot.answering.followup import FollowUp
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.facts.table import Entry
from mincards.bot.language import Language
from mincards.bot.replies.blocks import (
    Block,
    actions,
    button,
    context,
    feedback,
    fields,
    option,
    section,
    static_select,
)
from mincards.bot.replies.examples import examples
from mincards.bot.replies.feedback import Feedback
from mincards.bot.replies.i18n import t
from mincards.bot.replies.lead import (
    MRKDWN,
    TAGGED,
    Style,
    as_mrkdwn,
    as_notification,
    bracket_lines,
    choices_said,
    lead,
    short_text,
)
from mincards.bot.replies.note_text import note_text
from mincards.bot.replies.render_budget import capacity_summary_of, shown_notes
from mincards.bot.replies.render_entries import (
    Group,
    cell_text,
    compare_groups,
    entry_groups,
    shown_columns,
    stressed,
    unsupported_text,
)
from mincards.bot.replies.render_estimate import (
    advice_line,
    budget_line,
    estimate_rows,
    heading,
    record_line,
    uncovered_lines,
)
from mincards.bot.replies.render_notes import split_notes
from mincards.bot.replies.render_plan import plan_lines
from mincards.bot.replies.render_text import help_text, stand_in_lines
from mincards.bot.replies.render_words import entry_heading
from mincards.bot.replies.slack_limits import SlackLimits, limits
from mincards.bot.replies.slack_text import code, escape

PICK_ACTION = "pick_model"  # a choice button: pick_model_0, pick_model_1, ...
FOLLOW_ACTION = "follow"  # any other button that asks again: follow_0, follow_1, ...
CHOOSE_ACTION = "choose_model"  # the model menu
SHARE_ACTION = "share_answer"
SHOW_ALL_ACTION = "show_all"  # the same question without the asker's settings
FEEDBACK_ACTION = "answer_feedback"
PICK_BLOCK = "mincards_pick"
SHARE_BLOCK = "mincards_share"
SHOW_ALL_BLOCK = "mincards_show_all"
NEXT_BLOCK = "mincards_next"
# The notification's words escaped as the blocks' are, nothing stressed.
MRKDWN_PLAIN = Style(text=escape, strong=lambda s: s)
USER_ID = re.compile(r"[UW][A-Z0-9]{2,30}")  # only a real user id is ever written as <@...>


def _bullets(lines: list[str] | tuple[str, ...]) -> str:
    return "\n".join(f"• {escape(line)}" for line in lines)


def _warnings(knowledge: Knowledge, answer: Answer, lim: SlackLimits,
              skip: frozenset[str] = frozenset()) -> tuple[list[Block], list[str]]:
    """(the warnings section, the informative remarks)."""
    notes = split_notes(knowledge, answer, skip)
    blocks = []
    if notes.warnings:
        blocks.append(section(f"*{escape(t(answer.language, 'warn.title'))}*\n"
                              + _bullets(notes.warnings), lim))
    return blocks, [escape(i) for i in notes.info]


def _footer(knowledge: Knowledge, answer: Answer, lim: SlackLimits, extra: list[str],
            key: str | None = None) -> Block:
    lang = answer.language
    date = knowledge.table.source.date_text()
    source = (t(lang, "blocks.footer", date=date, key=code(key)) if key
              else escape(t(lang, "blocks.footer.plain", date=date)))
    return context([*extra, source], lim)


def _choices(knowledge: Knowledge, answer: Answer, keys: tuple[str, ...],
             lim: SlackLimits) -> list[Block]:
    if not keys:
        return []
    cat = knowledge.catalogue
    values = {k: FollowUp.pick(answer, k).encode(lim.max_button_value) for k in keys}
    if len(keys) <= lim.max_choice_buttons:
        return [actions([button(cat[k].display, f"{PICK_ACTION}_{i}", values[k], lim)
                         for i, k in enumerate(keys)], lim, PICK_BLOCK)]
    if all(len(v) <= lim.max_option_value for v in values.values()):
        # Many: one menu with every one of them, in the order given (plain models first).
        menu = static_select(CHOOSE_ACTION, t(answer.language, "blocks.pick_model"),
                             [("", [option(cat[k].display, values[k], lim) for k in keys])],
                             lim)
        return [section(escape(t(answer.language, "blocks.pick_model.label")), lim)
                | {"accessory": menu}]
    # A question narrowed so far that a menu's value cannot hold it: every one a button.
    per_block = lim.max_actions_elements
    return [actions([button(cat[k].display, f"{PICK_ACTION}_{at + i}", values[k], lim)
                     for i, k in enumerate(keys[at:at + per_block])], lim,
                    PICK_BLOCK if at == 0 else f"{PICK_BLOCK}_{at // per_block}")
            for at in range(0, len(keys), per_block)]


def _follow_buttons(pairs: list[tuple[str, FollowUp]], lim: SlackLimits,
                    block_id: str | None = None) -> list[Block]:
    if not pairs:
        return []
    return [actions([button(label, f"{FOLLOW_ACTION}_{i}", follow.encode(lim.max_button_value),
                            lim) for i, (label, follow) in enumerate(pairs)], lim, block_id)]


def model_menu(knowledge: Knowledge, language: Language, action_id: str, lim: SlackLimits,
               models: tuple[str, ...] | None = None, picked: str | None = None) -> Block:
    """A select menu of the table's models, grouped by family; each value a FollowUp. The
    `picked` model shows as chosen (the Home tab under its answer)."""
    cat = knowledge.catalogue
    groups: dict[str, list[Block]] = {}
    initial = None
    for key in models if models is not None else knowledge.table.models():
        family = knowledge.vocabulary.families[cat[key].family].display
        choice = option(cat[key].display, FollowUp(language=language, model=key).encode(
            lim.max_option_value), lim)
        groups.setdefault(family, []).append(choice)
        if key == picked:
            initial = choice
    return static_select(action_id, t(language, "blocks.pick_model"), list(groups.items()), lim,
                         initial=initial)


def _estimate(knowledge: Knowledge, answer: Answer, lim: SlackLimits) -> list[Block]:
    """After the table's numbers: the estimate, labelled in its first words, its lines not
    bold (they are not the table's), its record and the page's advice in small print."""
    if answer.estimate is None:
        return []
    lang = answer.language
    lines = [f"_{escape(heading(answer.estimate, lang))}_"]
    lines += [f"• {escape(line)}" for line in estimate_rows(knowledge, answer.estimate, lang)]
    lines += [escape(line) for line in uncovered_lines(knowledge, answer.estimate, lang)]
    judged = budget_line(knowledge, answer)
    if judged:
        lines.append(escape(judged))
    record = record_line(answer.estimate, lang)
    small = [escape(record)] if record else []
    advice = (advice_line(knowledge, answer.estimate, lang)
              if answer.note("below_node") is None else None)
    if advice:
        small.append(escape(advice))
    # A context block needs an element: a length grown past the table has no record to say.
    return [section("\n".join(lines), lim), *([context(small, lim)] if small else [])]


def _feedback(answer: Answer, lim: SlackLimits) -> Block:
    """Thumbs up or down; the value says what was answered (kind, model), never the words."""
    return feedback(FEEDBACK_ACTION,
                    (t(answer.language, "feedback.up"), Feedback.of(answer, "up").encode()),
                    (t(answer.language, "feedback.down"), Feedback.of(answer, "down").encode()),
                    lim)


def _sections(groups: list[Group], lim: SlackLimits) -> list[Block]:
    """Groups of entries as few sections as Slack's characters allow: a bold heading, then
    its lines. Lines wrap at any width: nothing is cut off on a phone."""
    texts = [(f"*{g.heading}*\n" if g.heading else "") + "\n".join(g.lines) for g in groups]
    out: list[str] = []
    for text in texts:
        if out and len(out[-1]) + 2 + len(text) <= lim.max_section_text:
            out[-1] += "\n\n" + text
        else:
            out.append(text)
    return [section(text, lim) for text in out]


def _entry_fields(knowledge: Knowledge, answer: Answer, entry: Entry,
                  lim: SlackLimits) -> list[Block]:
    """One entry as fields, a framework and flavour each (two columns on any screen); as lines
    when there are more than a section's fields."""
    frameworks, flavours = shown_columns(knowledge, answer)
    shown = [fw for fw in frameworks if entry.supports(fw)]
    if len(shown) * len(flavours) > lim.max_section_fields:
        return _sections(entry_groups(knowledge, answer, [entry], MRKDWN), lim)
    strong = stressed(knowledge, answer, [entry])
    texts = [escape(t(answer.language, "cell.head", framework=knowledge.framework_names[fw],
                      flavour=knowledge.flavour_display(fl))) + "\n"
             + cell_text(knowledge, answer, entry, fw, fl, MRKDWN, (entry.key, fw, fl) in strong)
             for fw in shown for fl in flavours]
    return fields(texts, lim)


def _capacity_sections(knowledge: Knowledge, answer: Answer, shown: Sequence[str],
                       lim: SlackLimits) -> list[Block]:
    """A bullet a model shown: its fewest that fits on each flavour (bot/replies/render_budget)."""
    lines = capacity_summary_of(knowledge, answer)
    bullets = tuple(f"• {escape(lines[m])}" for m in shown if m in lines)
    return _sections([Group("", bullets)], lim) if bullets else []


def _numbers(knowledge: Knowledge, answer: Answer, rows: tuple[Entry, ...],
             lim: SlackLimits) -> list[Block]:
    """Fields for one entry, else a section of lines a group of entries."""
    if len(rows) == 1:
        return _entry_fields(knowledge, answer, rows[0], lim)
    return _sections(entry_groups(knowledge, answer, rows, MRKDWN), lim)


def _not_covered_options(knowledge: Knowledge, answer: Answer) -> list[tuple[str, FollowUp]]:
    """What the table has for the model: a button per strategy, or per length when the
    question's strategy is listed but not at that length. Each keeps the question's other
    narrowing, except what this table version lacks (a framework or flavour it has no column
    for)."""
    model = answer.models[0]
    table = knowledge.table
    base = context_of(answer)
    keep_fws = tuple(f for f in base.frameworks if table.framework(f))
    keep_fls = tuple(f for f in base.flavours if f in table.flavours)
    entries = table.entries_for(model)
    asked = [s for s in answer.strategies if any(e.strategy == s for e in entries)]
    out: list[tuple[str, FollowUp]] = []
    if asked and answer.seq_lens:
        for e in sorted((e for e in entries if e.strategy in asked), key=lambda e: e.seq_len):
            label = entry_heading(knowledge, answer.language, e)
            out.append((label, FollowUp(language=answer.language, context=replace(base,
                strategies=(e.strategy,), seq_lens=(e.seq_len,), frameworks=keep_fws,
                flavours=keep_fls))))
        return out
    for strategy in knowledge.strategies:
        if any(e.strategy == strategy for e in entries):
            out.append((knowledge.strategy_label(strategy, answer.language), FollowUp(
                language=answer.language, context=replace(base,
                    strategies=(strategy,), seq_lens=(), frameworks=keep_fws,
                    flavours=keep_fls))))
    return out


class MessageBuilder:
    """The blocks of one answer; `page` is where a long capacity list goes on from."""

    def __init__(self, knowledge: Knowledge, answer: Answer, lim: SlackLimits,
                 page: int = 0) -> None:
        self.knowledge = knowledge
        self.answer = answer
        self.lim = lim
        self.page = page
        self.lang = answer.language
        self.said: str | None = None  # the lead, when the caller has it already

    def lead(self) -> str:
        return self.said if self.said is not None else lead(self.knowledge, self.answer, MRKDWN)

    def lookup(self) -> list[Block]:
        k, a, lim = self.knowledge, self.answer, self.lim
        blocks = [section(self.lead(), lim)]
        if a.intent == "plan":
            # The formula filled in, one line a step: anyone can check it by hand.
            blocks.append(section(_bullets(plan_lines(k, a)), lim))
        # A budget's verdict is the lead; the lines mark each cell in place (bold where it
        # fits, "over budget" where not): the rows are never said again above them.
        warn, info = _warnings(k, a, lim)
        blocks += warn
        info = [*(escape(line) for line in stand_in_lines(k, a)), *info,
                escape(unsupported_text(k, a, a.rows))]
        blocks += _numbers(k, a, a.rows, lim)
        blocks += _estimate(k, a, lim)
        return self._finish(blocks, _footer(k, a, lim, info, a.models[0]))

    def capacity(self) -> list[Block]:
        k, a, lim = self.knowledge, self.answer, self.lim
        blocks = [section(self.lead(), lim)]
        shown, rest_from = self._capacity_page()
        # Only the caveats this page's counts call for.
        warn, info = _warnings(k, shown_notes(k, a, shown), lim)
        blocks += warn
        if shown:
            # A line a model: its fewest count per flavour that fits, and the strategy when
            # only one does; its entries a pick away.
            blocks += _capacity_sections(k, a, shown, lim)
            picks = {m: FollowUp.pick(a, m).encode(lim.max_option_value) for m in shown}
            if all(len(v) <= lim.max_option_value for v in picks.values()):
                menu = static_select(CHOOSE_ACTION, t(self.lang, "blocks.pick_model"),
                                     [("", [option(k.catalogue[m].display, picks[m], lim)
                                            for m in shown])], lim)
                blocks.append(section(escape(t(self.lang, "blocks.entries_of")), lim)
                              | {"accessory": menu})
        if rest_from < len(a.models):
            rest = len(a.models) - rest_from
            blocks += _follow_buttons([(t(self.lang, "blocks.show_rest", count=rest), FollowUp(
                language=self.lang, context=context_of(a), page=rest_from))], lim, NEXT_BLOCK)
        return self._finish(blocks, _footer(k, a, lim, info))

    def _capacity_page(self) -> tuple[tuple[str, ...], int]:
        """The models this page shows (a line each, at most max_capacity_models), and where
        the next page starts."""
        models = self.answer.models
        start = min(max(self.page, 0), len(models))
        shown = models[start:start + self.lim.max_capacity_models]
        return tuple(shown), start + len(shown)

    def compare(self) -> list[Block]:
        k, a, lim = self.knowledge, self.answer, self.lim
        blocks = [section(self.lead(), lim)]
        warn, info = _warnings(k, a, lim)
        blocks += warn
        blocks += _sections(compare_groups(k, a, MRKDWN), lim)
        return self._finish(blocks, _footer(k, a, lim, info))

    def ambiguous(self) -> list[Block]:
        k, a, lim = self.knowledge, self.answer, self.lim
        return [section(self.lead(), lim), *_choices(k, a, a.candidates, lim)]

    def not_found(self) -> list[Block]:
        k, a, lim = self.knowledge, self.answer, self.lim
        blocks = [section(self.lead(), lim)]
        # Not bold: these are other models' numbers, never the answer for the one asked.
        around = bracket_lines(k, a, Style(text=escape, strong=lambda s: s))
        if around:
            # The neighbours' own numbers, each said as its lookup would say it.
            blocks.append(section("\n".join(f"• {line}" for line in around), lim))
        _, info = _warnings(k, a, lim)
        info = [*(escape(line) for line in stand_in_lines(k, a)), *info]
        if info:
            blocks.append(context(info, lim))
        blocks += _estimate(k, a, lim)
        if a.candidates:
            blocks.append(section(escape(t(self.lang, "suggest")), lim))
            blocks += _choices(k, a, a.candidates, lim)
        blocks += _follow_buttons([(t(self.lang, "blocks.list_models"),
                                    FollowUp(language=self.lang, show="list"))], lim)
        return blocks

    def not_covered(self) -> list[Block]:
        k, a, lim = self.knowledge, self.answer, self.lim
        blocks = [section(self.lead(), lim)]
        # The reason is in the lead; the other remarks follow, then what the table has.
        rest = replace(a, notes=a.notes[1:])
        notes = split_notes(k, rest, skip=frozenset({"table_has"}))
        reasons = [*notes.warnings, *notes.info]
        if reasons:
            blocks.append(section(_bullets(reasons), lim))
        # A length past the table: what the table stops at is said above, the estimate here.
        blocks += _estimate(k, a, lim)
        options = _not_covered_options(k, a)
        if options:
            blocks.append(section(escape(t(self.lang, "blocks.try",
                                           model=k.catalogue[a.models[0]].display)), lim))
            blocks += _follow_buttons(options[: lim.max_actions_elements], lim)
        return blocks

    def model_list(self) -> list[Block]:
        k, a, lim = self.knowledge, self.answer, self.lim
        cat = k.catalogue
        by_family: dict[str, list[str]] = {}
        for key in a.models:
            by_family.setdefault(cat[key].family, []).append(escape(cat[key].display))
        lines = [f"*{escape(k.vocabulary.families[f].display)}*: " + ", ".join(names)
                 for f, names in by_family.items()]
        menu = model_menu(k, self.lang, CHOOSE_ACTION, lim, a.models)
        return [section(f"*{self.lead()}*", lim),
                section(escape(t(self.lang, "blocks.pick_model.label")), lim)
                | {"accessory": menu},
                section("\n".join(lines), lim),
                _footer(k, a, lim, [])]

    def help(self) -> list[Block]:
        k, lim = self.knowledge, self.lim
        lines = help_text(k, self.lang).split("\n")
        blocks = [section(self.lead(), lim)]
        if len(lines) > 1:
            blocks.append(section(escape(lines[-1]), lim))
        asks = examples(k, self.lang)[: lim.max_examples]
        if asks:
            blocks.append(section(escape(t(self.lang, "blocks.examples")), lim))
            blocks += _follow_buttons([(q, FollowUp(language=self.lang, text=q)) for q in asks],
                                      lim)
        return blocks

    def _finish(self, blocks: list[Block], footer: Block) -> list[Block]:
        """The answer, its footer, then the feedback buttons below it all."""
        return [*blocks, footer, _feedback(self.answer, self.lim)]

    def build(self) -> list[Block]:
        # A model of a table model's architecture shows that model's entries, its lead saying
        # whose they are.
        self.answer = self.answer.shown()
        by_intent = {"lookup": self.lookup, "plan": self.lookup, "capacity": self.capacity,
                     "compare": self.compare,
                     "ambiguous": self.ambiguous, "not_found": self.not_found,
                     "not_covered": self.not_covered, "list": self.model_list,
                     "help": self.help}
        return by_intent[self.answer.intent]()


def render_blocks(knowledge: Knowledge, answer: Answer, *, question: str | None = None,
                  shareable: bool = False, page: int = 0, asked_by: str | None = None,
                  said: str | None = None) -> list[Block]:
    """The message's blocks. `shareable` adds 'post to channel' (a private reply); `asked_by`
    (a user id) says who asked, on a shared post; `said`: the lead in mrkdwn, when the caller
    has it."""
    lim = limits()
    builder = MessageBuilder(knowledge, answer, lim, page)
    builder.said = said
    blocks = builder.build()
    extra: list[Block] = _show_all(answer, lim)
    if asked_by and USER_ID.fullmatch(asked_by):
        extra.append(context([t(answer.language, "blocks.asked_by", user=escape(asked_by))],
                             lim))
    if shareable and question is not None:
        extra.append(actions([button(t(answer.language, "blocks.share"), SHARE_ACTION,
                                     FollowUp.same(answer, question).encode(
                                         lim.max_button_value), lim, primary=True)],
                             lim, SHARE_BLOCK))
    # Below the answer and its feedback buttons.
    blocks += extra
    if len(blocks) > lim.max_message_blocks:  # never so far: keep the lead and the end
        blocks = [*blocks[: lim.max_message_blocks - len(extra) - 1], *blocks[-len(extra) - 1:]]
    return blocks


def view_blocks(knowledge: Knowledge, answer: Answer) -> list[Block]:
    """An answer for a surface without the message's buttons (App Home, a modal): the same
    lead, warnings, numbers and footer."""
    lim = limits()
    blocks = [section(lead(knowledge, answer, MRKDWN), lim)]
    answer = answer.shown()
    if answer.intent == "plan":
        blocks.append(section(_bullets(plan_lines(knowledge, answer)), lim))
    if answer.intent not in ("lookup", "compare", "capacity", "plan"):
        notes = split_notes(knowledge, answer)
        if notes.warnings or notes.info:
            blocks.append(context([escape(x) for x in (*notes.warnings, *notes.info)], lim))
        return [*blocks, *_estimate(knowledge, answer, lim)]
    if answer.intent == "capacity":
        answer = shown_notes(knowledge, answer, answer.models[: lim.max_capacity_models])
    warn, info = _warnings(knowledge, answer, lim)
    blocks += warn
    key = None
    if answer.intent == "compare":
        blocks += _sections(compare_groups(knowledge, answer, MRKDWN), lim)
    elif answer.intent == "capacity":
        blocks += _capacity_sections(knowledge, answer,
                                     answer.models[: lim.max_capacity_models], lim)
    else:
        info = [*(escape(line) for line in stand_in_lines(knowledge, answer)), *info,
                escape(unsupported_text(knowledge, answer, answer.rows))]
        blocks += _numbers(knowledge, answer, answer.rows, lim)
        blocks += _estimate(knowledge, answer, lim)
        key = answer.models[0]
    blocks.append(_footer(knowledge, answer, lim, info, key))
    return blocks


def slash_help(language: Language, command: str) -> dict[str, Any]:
    """What a bare slash command shows: how to use it, mentions and DMs."""
    text = t(language, "help.slash", command=command)
    return {"blocks": [section(text, limits())], "text": text}


def fallback_text(knowledge: Knowledge, answer: Answer, tagged: str | None = None) -> str:
    """The message's `text`: the sentence that answers, for notifications and screen readers;
    a "which one?" names its choices, so that the notification stands alone. `tagged`: the
    lead in the TAGGED style, when the caller has it."""
    if tagged is None:
        return escape(short_text(knowledge, answer))
    return as_notification(tagged) + choices_said(knowledge, answer, MRKDWN_PLAIN)


def _show_all(answer: Answer, lim: SlackLimits) -> list[Block]:
    """"Show all" under an answer the asker's settings narrowed: the same without them."""
    follow = FollowUp.show_all(answer)
    if follow is None:
        return []
    return [actions([button(t(answer.language, "blocks.show_all"), SHOW_ALL_ACTION,
                            follow.encode(lim.max_button_value), lim)], lim, SHOW_ALL_BLOCK)]


def short_message(knowledge: Knowledge, answer: Answer) -> dict[str, Any]:
    """A reply for a person whose settings ask for short ones: the sentence that answers, and
    in small print the settings line and the source."""
    lim = limits()
    said = [escape(note_text(knowledge, answer.language, n)) for n in answer.notes
            if n.kind == "from_settings"]
    return {"blocks": [section(lead(knowledge, answer, MRKDWN), lim),
                       _footer(knowledge, answer, lim, said), *_show_all(answer, lim)],
            "text": fallback_text(knowledge, answer)}


def message(knowledge: Knowledge, answer: Answer, *, question: str | None = None,
            shareable: bool = False, page: int = 0, asked_by: str | None = None,
            short: bool = False) -> dict[str, Any]:
    """`blocks` and `text` for chat.postMessage / chat.update / a response URL; `short`: the
    sentence that answers alone (a person's setting), except where it needs its choices."""
    if short and answer.intent not in ("ambiguous", "help", "list"):
        return short_message(knowledge, answer)
    # One lead for both when the blocks show the answer as it is (a stand-in's do not).
    tagged = lead(knowledge, answer, TAGGED) if answer.shown() is answer else None
    return {"blocks": render_blocks(knowledge, answer, question=question, shareable=shareable,
                                    page=page, asked_by=asked_by,
                                    said=as_mrkdwn(tagged) if tagged is not None else None),
            "text": fallback_text(knowledge, answer, tagged)}
