"""Answers as plain text, for the command line and for Slack's notification fallback."""

from __future__ import annotations

from mincards.bot.answering.answer import Answer
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.facts.table import Entry
from mincards.bot.language import Language
from mincards.bot.replies.examples import examples
from mincards.bot.replies.i18n import t
from mincards.bot.replies.lead import bracket_lines, lead, lead_caveats
from mincards.bot.replies.note_text import note_text
from mincards.bot.replies.render_budget import capacity_lines, capacity_summary_of, shown_notes
from mincards.bot.replies.render_entries import compare_groups, entry_groups, unsupported_text
from mincards.bot.replies.render_estimate import budget_line, estimate_lines
from mincards.bot.replies.render_plan import plan_lines
from mincards.bot.replies.render_words import (
    flavour_units,
    framework_list,
    join_words,
)
from mincards.bot.replies.typography import typeset


def help_text(knowledge: Knowledge, language: Language) -> str:
    table = knowledge.table
    return t(language, "help", examples="\n".join(f"  {q}" for q in examples(knowledge, language)),
             strategies=join_words(language, [knowledge.strategy_label(s, language)
                                               for s in table.strategies()], "or"),
             frameworks=framework_list(knowledge, language, list(table.framework_ids)),
             flavours=flavour_units(knowledge, language))


def _notes_block(knowledge: Knowledge, answer: Answer) -> list[str]:
    said = lead_caveats(knowledge, answer)
    notes = tuple(n for n in answer.notes if n not in said)
    if answer.intent == "not_covered":
        # The reason is the lead's; what the table has is said under it.
        notes = tuple(n for n in notes[1:] if n.kind != "table_has")
    sentences = [s for n in notes if (s := note_text(knowledge, answer.language, n))]
    if not sentences:
        return []
    return [t(answer.language, "notes"), *[f"- {s}" for s in sentences]]


def _entries(knowledge: Knowledge, answer: Answer, rows: tuple[Entry, ...]) -> list[str]:
    """Each group of entries with a line per framework (bot/replies/render_entries.py), and
    the frameworks that support none of them, once."""
    lines: list[str] = []
    for group in entry_groups(knowledge, answer, rows):
        lines += ["", group.heading, *(f"  {line}" for line in group.lines)]
    unsupported = unsupported_text(knowledge, answer, rows)
    if unsupported:
        lines += ["", unsupported]
    return lines


def stand_in_lines(knowledge: Knowledge, answer: Answer) -> list[str]:
    """Whose entries these are, and the source of the fact that makes them the reference."""
    use = answer.stand_in
    if use is None:
        return []
    lang = answer.language
    model = knowledge.catalogue[use.model].display
    lines = []
    if use.relation == "same_architecture":
        # The lead said the asked model is not in the table: not said again.
        lines.append(t(lang, "stand_in.reference.after_lead", model=model))
    # The source is data, written in English; a Chinese reply says what it states in Chinese
    # (the JSON keeps the source itself).
    lines.append(t(lang, f"stand_in.source.{use.relation}", model=model, source=use.source))
    return lines


# A "which one?" names each choice on a line of its own up to this many; more are a line a family.
MAX_CHOICE_LINES = 8


def _choices(knowledge: Knowledge, answer: Answer) -> list[str]:
    """The choices of a "which one?", a line each, or when there are many a line a series
    (family, version and variant: 'Qwen2.5-VL-7B, Qwen2.5-VL-72B')."""
    cat = knowledge.catalogue
    if len(answer.candidates) <= MAX_CHOICE_LINES:
        return [f"- {cat[c].display} ({c})" for c in answer.candidates]
    series: dict[tuple[str, tuple[str, ...], str | None], list[str]] = {}
    for key in answer.candidates:
        info = cat[key]
        series.setdefault((info.family, info.versions, info.variant), []).append(info.display)
    return ["- " + t(answer.language, "list_sep").join(names) for names in series.values()]


# A terminal reply for what fits a budget stays within this many lines unless every entry is
# asked for (`every`, `mincards ask --all`).
MAX_CAPACITY_LINES = 40


def render_text(knowledge: Knowledge, answer: Answer, opening: str | None = None,
                every: bool = False) -> str:
    """The answer as text: the sentence that answers first (as in Slack), then the detail;
    `opening` is that sentence when the caller has it already; `every`: a capacity answer's
    every entry, not a line a model."""
    if answer.intent == "help":
        lines: list[str] = []
    else:
        lines = [opening if opening is not None else lead(knowledge, answer)]
    answer = answer.shown()
    lang = answer.language
    cat = knowledge.catalogue
    if answer.intent in ("lookup", "plan"):
        info = cat[answer.models[0]]
        if answer.intent == "plan":
            lines += ["", *plan_lines(knowledge, answer)]
        # A budget's verdict is the lead; each row below is marked in place where it fits,
        # never said again above the table.
        lines += stand_in_lines(knowledge, answer)
        lines.append("")
        lines.append(t(lang, "lookup.title", model=info.display)
                     + t(lang, "table_name", key=info.key))
        lines += _entries(knowledge, answer, answer.rows)
    elif answer.intent == "capacity" and every:
        for model, model_lines in capacity_lines(knowledge, answer).items():
            lines.append(f"- {cat[model].display} ({model})")
            lines += [f"    {line}" for line in model_lines]
    elif answer.intent == "capacity":
        # A line a model, biggest first, within the terminal's bound with the notes below.
        by_model = capacity_summary_of(knowledge, answer)
        notes = _notes_block(knowledge, shown_notes(knowledge, answer, list(by_model)))
        room = MAX_CAPACITY_LINES - len(lines) - 1 - (len(notes) + 1 if notes else 0)
        summary = list(by_model.values())
        if len(summary) > room:
            shown = max(room - 1, 0)
            summary = [*summary[:shown], t(lang, "capacity.more", count=len(summary) - shown)]
            # Only the caveats the lines shown call for.
            answer = shown_notes(knowledge, answer, list(by_model)[:shown])
        else:
            answer = shown_notes(knowledge, answer, list(by_model))
        lines += ["", *(f"- {line}" for line in summary)]
    elif answer.intent == "compare":
        # The lead says who needs fewer, length by length: below, only the rows that differ
        # or were asked for, each once.
        for group in compare_groups(knowledge, answer):
            lines += ["", group.heading, *(f"  {line}" for line in group.lines)]
    elif answer.intent == "ambiguous":
        lines += _choices(knowledge, answer)
    elif answer.intent == "not_found":
        lines += stand_in_lines(knowledge, answer)
        lines += [f"- {line}" for line in bracket_lines(knowledge, answer)]
        if answer.candidates:
            lines.append(t(lang, "suggest"))
            lines += [f"- {cat[c].display} ({c})" for c in answer.candidates]
    elif answer.intent == "not_covered":
        has = answer.note("table_has")
        if has is not None:
            lines.append(note_text(knowledge, lang, has))
    elif answer.intent == "list":
        by_family: dict[str, list[str]] = {}
        for key in answer.models:
            by_family.setdefault(cat[key].family, []).append(cat[key].display)
        for family, names in by_family.items():
            display = knowledge.vocabulary.families[family].display
            lines.append("- " + t(lang, "list.family", family=display,
                                  models=t(lang, "list_sep").join(names)))
    else:
        lines.append(help_text(knowledge, lang))
    if answer.estimate is not None:
        # After what the table says (the stand-in's or the bracket's entries), never before.
        lines += ["", *estimate_lines(knowledge, answer.estimate, lang,
                                      advice=answer.note("below_node") is None,
                                      budget=budget_line(knowledge, answer))]
    notes = _notes_block(knowledge, answer)
    if notes:
        lines += ["", *notes]
    return typeset(answer.language, "\n".join(lines))
