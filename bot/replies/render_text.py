"""Answers as plain text, for the command line and for Slack's notification fallback."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mincards.bot.answering.answer import Answer
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.facts.table import Entry
from mincards.bot.language import Language
from mincards.bot.replies.examples import examples
from mincards.bot.replies.i18n import t
from mincards.bot.replies.lead import bracket_lines, columns, lead, lead_caveats
from mincards.bot.replies.note_text import note_text
from mincards.bot.replies.render_budget import capacity_lines, capacity_summary, compare_rows
from mincards.bot.replies.render_plan import plan_lines
from mincards.bot.replies.render_words import (
    count_text,
    entry_heading,
    flavour_units,
    framework_list,
    join_words,
)
from mincards.bot.replies.typography import typeset


def framework_line(knowledge: Knowledge, language: Language, entry: Entry,
                   framework: str, flavours: Sequence[str] | None = None,
                   fits: Mapping[str, bool | None] | None = None) -> str:
    """'MindSpeed-LLM: Snt9B 16 cards, 2 nodes | Snt9B23 ...', on `flavours` (all by
    default); with a budget's `fits` (flavour -> fits), each cell marked in place."""
    hw = knowledge.hardware
    name = knowledge.framework_names[framework]
    if not entry.supports(framework):
        return f"{name}{t(language, 'colon')}{t(language, 'not_supported')}"
    cells = []
    for fl in knowledge.table.flavours if flavours is None else flavours:
        count = count_text(hw, language, fl, entry.count(framework, fl))
        if knowledge.is_suspect(entry, framework, fl):
            count = t(language, "cell.suspect", count=count)
        elif fits is not None and fits.get(fl) is not None:
            count = t(language, "cell.fits" if fits[fl] else "cell.over_budget", count=count)
        cells.append(f"{hw.flavours[fl].display} {count}")
    return f"{name}{t(language, 'colon')}" + " | ".join(cells)


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
    """Each entry with a line per framework, each line once: a framework or flavour the
    question named narrows them to what was asked ("with mindspeed on 9b23": that one cell);
    a framework that supports none of the entries is said once, below; entries whose lines are
    the same share one heading ("full-parameter · 4K, 8K")."""
    lang = answer.language
    frameworks, flavours = columns(knowledge, answer)
    supported = [fw for fw in frameworks if any(e.supports(fw) for e in rows)]
    groups: list[tuple[list[str], list[str]]] = []  # (headings, their lines)
    for entry in rows:
        fits = answer.fits.get(entry.key) if answer.budget is not None else None
        body = ["  " + framework_line(knowledge, lang, entry, fw, flavours,
                                      fits.get(fw) if fits is not None else None)
                for fw in supported]
        if groups and groups[-1][1] == body:
            groups[-1][0].append(entry_heading(knowledge, lang, entry))
        else:
            groups.append(([entry_heading(knowledge, lang, entry)], body))
    lines: list[str] = []
    for headings, body in groups:
        lines += ["", _headings(lang, headings), *body]
    unsupported = [fw for fw in frameworks if fw not in supported]
    if unsupported and rows:
        lines += ["", t(lang, "blocks.unsupported", frameworks=framework_list(
            knowledge, lang, unsupported))]
    return lines


def _headings(language: Language, headings: list[str]) -> str:
    """'full-parameter · 4K', or for entries said together 'full-parameter · 4K, 8K; LoRA ·
    4K, 8K'."""
    by_strategy: dict[str, list[str]] = {}
    for heading in headings:
        strategy, length = heading.rsplit(" · ", 1)
        by_strategy.setdefault(strategy, []).append(length)
    return t(language, "semicolon").join(
        f"{strategy} · {t(language, 'list_sep').join(lengths)}"
        for strategy, lengths in by_strategy.items())


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
        summary = capacity_summary(knowledge, answer)
        notes = _notes_block(knowledge, answer)
        room = MAX_CAPACITY_LINES - len(lines) - 1 - (len(notes) + 1 if notes else 0)
        if len(summary) > room:
            shown = max(room - 1, 0)
            summary = [*summary[:shown], t(lang, "capacity.more", count=len(summary) - shown)]
        lines += ["", *(f"- {line}" for line in summary)]
    elif answer.intent == "compare":
        # The lead says who needs fewer, length by length: below, only the rows that differ
        # or were asked for, each once.
        differing = compare_rows(answer)
        frameworks, flavours = columns(knowledge, answer)
        headed: dict[str, list[str]] = {}
        for entry in sorted(differing, key=lambda e: answer.models.index(e.model)):
            # An entry heading once, then a line a model and framework: no line said twice.
            headed.setdefault(entry_heading(knowledge, lang, entry), []).extend(
                f"  {cat[entry.model].display} · "
                f"{framework_line(knowledge, lang, entry, fw, flavours)}" for fw in frameworks)
        for heading, entry_lines in headed.items():
            lines += ["", heading, *entry_lines]
    elif answer.intent == "ambiguous":
        lines += [f"- {cat[c].display} ({c})" for c in answer.candidates]
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
    notes = _notes_block(knowledge, answer)
    if notes:
        lines += ["", *notes]
    return typeset(answer.language, "\n".join(lines))
