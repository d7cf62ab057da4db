"""An answer's entries as lines, the same on every surface: the terminal writes them plain,
Slack in mrkdwn with the lead's counts in bold.

Lines, not a grid: Slack does not say how wide the client is, and a grid of frameworks ×
flavours is cut off on a phone (and a table block stands below the feedback buttons). A line
an entry wraps where the screen ends and reads the same at 900 px and 420 px. Under each
framework (each model in a comparison), entries with the same counts share a line, and
frameworks with the very same lines share a heading: no line is said twice.

    MindSpeed-LLM
      full-parameter · 4K: Snt9B 32 cards, 4 nodes | Snt9B23 32 DIE (16 cards), 2 nodes
      LoRA · 4K, 8K: Snt9B *16 cards, 2 nodes* | Snt9B23 *16 DIE (8 cards), 1 node*
    Llama-Factory
      ...

Each cell is marked in place: bold where the lead's answer is, "(fits)" or "(over budget)"
for a budget, "(likely a source error)" for a count the table gets wrong (never bold).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from mincards.bot.answering.answer import Answer
from mincards.bot.answering.budget import needed
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.facts.table import Entry
from mincards.bot.language import Language
from mincards.bot.replies.i18n import t
from mincards.bot.replies.lead import PLAIN, Style, columns, lows
from mincards.bot.replies.render_budget import compare_rows
from mincards.bot.replies.render_words import (
    count_text,
    entry_heading,
    framework_list,
    join_words,
)

Cell = tuple[tuple[str, str, int], str, str]  # (entry key, framework, flavour)


@dataclass(frozen=True)
class Group:
    """Entries said together: their heading, then a line a framework (a model and framework
    in a comparison)."""

    heading: str
    lines: tuple[str, ...]


def shown_columns(knowledge: Knowledge, answer: Answer) -> tuple[list[str], list[str]]:
    """The frameworks and flavours the lines show: those the question named (else all), and
    of the flavours only those a budget gives room on."""
    frameworks, flavours = columns(knowledge, answer)
    if answer.room:
        flavours = [f for f in flavours if f in answer.room] or flavours
    return frameworks, flavours


def stressed(knowledge: Knowledge, answer: Answer, entries: Sequence[Entry]) -> frozenset[Cell]:
    """The cells to bold: where a budget fits; in a comparison each model's fewest where the
    models differ; else the fewest the lead names. A suspect count never."""
    out: set[Cell] = set()
    if answer.fits:
        for e in entries:
            for fw, by_flavour in answer.fits.get(e.key, {}).items():
                out |= {(e.key, fw, fl) for fl, fit in by_flavour.items() if fit}
    elif answer.intent == "compare":
        by_key = {(e.model, e.strategy, e.seq_len): e for e in entries}
        for side in answer.comparison:
            if side.tie:
                continue
            for model in side.fewer:
                entry = by_key.get((model, side.strategy, side.seq_len))
                if entry is not None:
                    out |= {(entry.key, fw, side.flavour)
                            for fw in side.fewest[model].frameworks}
    else:
        for low in lows(knowledge, answer, tuple(entries)):
            if low.suspect:
                continue
            # Compared as used: a 1-DIE cell ties with a 2-DIE one (the 2-DIE unit).
            info = knowledge.hardware.flavours[low.flavour]
            out |= {(e.key, fw, low.flavour) for e in low.entries for fw in low.frameworks
                    if (c := e.count(fw, low.flavour)) is not None
                    and needed(c, info) == needed(low.count, info)}
    return frozenset(out)


def cell_text(knowledge: Knowledge, answer: Answer, entry: Entry, framework: str, flavour: str,
              style: Style = PLAIN, strong: bool = False) -> str:
    """'16 cards, 2 nodes', marked: bold, '(fits)', '(over budget)', '(likely a source
    error)'."""
    lang = answer.language
    text = style.text(count_text(knowledge.hardware, lang, flavour,
                                 entry.count(framework, flavour)))
    if knowledge.is_suspect(entry, framework, flavour):
        return t(lang, "cell.suspect", count=text)
    if strong:
        text = style.strong(text)
    fit = answer.fits.get(entry.key, {}).get(framework, {}).get(flavour) if answer.fits else None
    if fit is not None and entry.count(framework, flavour) is not None:
        text = t(lang, "cell.fits" if fit else "cell.over_budget", count=text)
    return text


def cells_text(knowledge: Knowledge, answer: Answer, entry: Entry, framework: str,
               flavours: Sequence[str], style: Style = PLAIN,
               strong: Collection[Cell] = ()) -> str:
    """'Snt9B 16 cards, 2 nodes | Snt9B23 16 DIE (8 cards), 1 node'; 'not supported' when the
    framework has none of them."""
    if not entry.supports(framework):
        return t(answer.language, "not_supported")
    return " | ".join(f"{style.text(knowledge.flavour_display(fl))} "
                      + cell_text(knowledge, answer, entry, framework, fl, style,
                                  (entry.key, framework, fl) in strong)
                      for fl in flavours)


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


def _said_once(units: Sequence[tuple[str, str, str, str]], language: Language,
               style: Style) -> list[Group]:
    """Units (who, what, kind, cells) said with no line twice: under each `who` (a framework,
    or a model in a comparison), the `what`s (entries) whose cells are the same share a line
    ('LoRA · 4K, 8K: ...'), lines of the same `kind` only; and whoever has the very same lines
    shares a heading ('MindSpeed-LLM and Llama-Factory'). Every line names its entries, so none
    can read like another."""
    # who -> [(kind, cells) -> whats], in the order first met.
    by_who: dict[str, dict[tuple[str, str], list[str]]] = {}
    for who, what, kind, cells in units:
        by_who.setdefault(who, {}).setdefault((kind, cells), []).append(what)
    # Each line once: (kind, whats, cells) -> the whos that say it.
    whos: dict[tuple[str, tuple[str, ...], str], list[str]] = {}
    for who, lines in by_who.items():
        for (kind, cells), whats in lines.items():
            whos.setdefault((kind, tuple(whats), cells), []).append(who)
    groups: dict[tuple[str, ...], list[str]] = {}
    for (kind, entries, cells), said_by in whos.items():
        label = (f"{kind} · " if kind else "") + _headings(language, list(entries))
        groups.setdefault(tuple(said_by), []).append(
            f"{style.text(label)}{t(language, 'colon')}{cells}")
    return [Group(style.text(join_words(language, list(said_by))), tuple(lines))
            for said_by, lines in groups.items()]


def entry_groups(knowledge: Knowledge, answer: Answer, rows: Sequence[Entry],
                 style: Style = PLAIN) -> list[Group]:
    """A lookup's entries under each framework that supports any of them ('MindSpeed-LLM',
    then 'full-parameter · 4K: Snt9B 32 cards, 4 nodes | ...'), no line said twice."""
    lang = answer.language
    frameworks, flavours = shown_columns(knowledge, answer)
    supported = [fw for fw in frameworks if any(e.supports(fw) for e in rows)]
    strong = stressed(knowledge, answer, rows)
    units = [(knowledge.framework_names[fw], entry_heading(knowledge, lang, e), "",
              cells_text(knowledge, answer, e, fw, flavours, style, strong))
             for fw in supported for e in rows]
    return _said_once(units, lang, style)


def compare_groups(knowledge: Knowledge, answer: Answer, style: Style = PLAIN) -> list[Group]:
    """A comparison's rows that differ or were asked for, under each model ('Qwen2.5-32B',
    then 'Llama-Factory · LoRA · 4K: ...'); models whose lines are the same share them."""
    lang = answer.language
    cat = knowledge.catalogue
    rows = sorted(compare_rows(answer), key=lambda e: answer.models.index(e.model))
    frameworks, flavours = shown_columns(knowledge, answer)
    strong = stressed(knowledge, answer, rows)
    units = [(cat[e.model].display, entry_heading(knowledge, lang, e),
              knowledge.framework_names[fw],
              cells_text(knowledge, answer, e, fw, flavours, style, strong))
             for e in rows for fw in frameworks]
    return _said_once(units, lang, style)


def unsupported_text(knowledge: Knowledge, answer: Answer, rows: Sequence[Entry]) -> str:
    """The frameworks the question is about that support none of the rows, said once; ''
    when there are none."""
    frameworks, _ = shown_columns(knowledge, answer)
    unsupported = [fw for fw in frameworks if not any(e.supports(fw) for e in rows)]
    if not unsupported or not rows:
        return ""
    return t(answer.language, "blocks.unsupported",
             frameworks=framework_list(knowledge, answer.language, unsupported))

