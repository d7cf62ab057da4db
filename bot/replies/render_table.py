"""An answer's numbers laid out: a table block for several entries, fields for one, lines for
surfaces that take no table (App Home, modals).

Rows are entries (strategy · length, with the model in front when there are several models);
columns are framework × flavour, only for frameworks that support at least one row shown: the
others are named in one line, so a five-framework table stays readable at phone width.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mincards.bot.answering.answer import Answer
from mincards.bot.answering.budget import needed
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.facts.table import Entry
from mincards.bot.language import Language
from mincards.bot.replies.blocks import Block, bold_cell, fields, raw_cell, table
from mincards.bot.replies.i18n import t
from mincards.bot.replies.lead import columns, lows
from mincards.bot.replies.render_words import entry_heading, framework_list, plural
from mincards.bot.replies.slack_limits import SlackLimits
from mincards.bot.replies.slack_text import escape

Column = tuple[str, str]  # (framework, flavour)


@dataclass(frozen=True)
class Row:
    label: str
    entry: Entry


@dataclass(frozen=True)
class Layout:
    """What a grid of entries shows: its columns, what to stress, who supports none."""

    rows: tuple[Row, ...]
    columns: tuple[Column, ...]
    unsupported: tuple[str, ...]
    strong: frozenset[tuple[tuple[str, str, int], str, str]] = field(default_factory=frozenset)


def cell_text(knowledge: Knowledge, language: Language, flavour: str, count: int | None) -> str:
    """'16 · 2 nodes' or '16 · 8 cards · 1 node' (the unit is in the column's heading);
    'not supported' for None."""
    if count is None:
        return t(language, "not_supported")
    info = knowledge.hardware.flavours[flavour]
    nodes = info.nodes(count)
    words = {"count": count, "nodes": nodes,
             "nodes_word": plural(language, nodes, "node", "nodes")}
    if info.die_per_card:
        cards = info.cards(count)
        return t(language, "cell.die", cards=cards,
                 cards_word=plural(language, cards, "card", "cards"), **words)
    return t(language, "cell.count", **words)


def unit_name(knowledge: Knowledge, language: Language, flavour: str) -> str:
    """What a flavour counts: 'cards' or 'DIE'."""
    unit = knowledge.hardware.flavours[flavour].unit
    return t(language, "cards") if unit == "card" else unit


def layout(knowledge: Knowledge, answer: Answer, rows: Sequence[Row]) -> Layout:
    """Columns for the frameworks that support a row, on the flavours asked about (or the
    budget's); stressed: where a budget fits, else the fewest the lead sentence names."""
    # A framework or flavour the question named narrows the columns to it.
    frameworks, flavours = columns(knowledge, answer)
    if answer.room:
        flavours = [f for f in flavours if f in answer.room]
    entries = [r.entry for r in rows]
    shown = [fw for fw in frameworks if any(e.supports(fw) for e in entries)]
    unsupported = [fw for fw in frameworks if fw not in shown]
    strong: set[tuple[tuple[str, str, int], str, str]] = set()
    if answer.fits:
        for e in entries:
            for fw, by_flavour in answer.fits.get(e.key, {}).items():
                strong |= {(e.key, fw, fl) for fl, fit in by_flavour.items() if fit}
    elif answer.intent == "compare":
        # Each compared entry's fewest, only where the models differ: a tie stresses nothing.
        by_key = {(e.model, e.strategy, e.seq_len): e for e in entries}
        for side in answer.comparison:
            if side.tie:
                continue
            for model in side.fewer:
                entry = by_key.get((model, side.strategy, side.seq_len))
                if entry is not None:
                    strong |= {(entry.key, fw, side.flavour)
                               for fw in side.fewest[model].frameworks}
    else:
        # The fewest the lead names.
        for group in [tuple(entries)]:
            for low in lows(knowledge, answer, group):
                if low.suspect:
                    continue
                # Compared as used: a 1-DIE cell ties with a 2-DIE one (the 2-DIE unit).
                info = knowledge.hardware.flavours[low.flavour]
                strong |= {(e.key, fw, low.flavour) for e in low.entries
                           for fw in low.frameworks
                           if (c := e.count(fw, low.flavour)) is not None
                           and needed(c, info) == needed(low.count, info)}
    return Layout(tuple(rows), tuple((fw, fl) for fw in shown for fl in flavours),
                  tuple(unsupported), frozenset(strong))


def _cell(knowledge: Knowledge, answer: Answer, grid: Layout, entry: Entry, column: Column,
          compact: bool = False) -> tuple[str, bool]:
    """A cell's text; `compact`: the count alone (its unit is in the column's heading), for a
    table that would pass Slack's characters otherwise."""
    fw, fl = column
    count = entry.count(fw, fl)
    if compact:
        text = "-" if count is None else str(count)
    else:
        text = cell_text(knowledge, answer.language, fl, count)
    fit = answer.fits.get(entry.key, {}).get(fw, {}).get(fl) if answer.fits else None
    if fit is False:
        text = t(answer.language, "cell.over", count=text)
    if knowledge.is_suspect(entry, fw, fl):
        # Shown where it belongs, marked, and never bold.
        return t(answer.language, "cell.suspect", count=text), False
    return text, (entry.key, fw, fl) in grid.strong


def _heading(knowledge: Knowledge, language: Language, column: Column) -> str:
    fw, fl = column
    return t(language, "cell.head", framework=knowledge.framework_names[fw],
             flavour=knowledge.flavour_display(fl), unit=unit_name(knowledge, language, fl))


def table_block(knowledge: Knowledge, answer: Answer, grid: Layout, head: str,
                lim: SlackLimits, compact: bool = False) -> Block:
    """One table: a header row, then a row per entry (the caller keeps within the rows)."""
    rows: list[list[Block]] = [[raw_cell(head), *[raw_cell(_heading(knowledge, answer.language, c))
                                                  for c in grid.columns]]]
    for row in grid.rows:
        cells = [raw_cell(row.label)]
        for column in grid.columns:
            text, strong = _cell(knowledge, answer, grid, row.entry, column, compact)
            cells.append(bold_cell(text) if strong else raw_cell(text))
        rows.append(cells)
    return table(rows, lim)


def entry_fields(knowledge: Knowledge, answer: Answer, grid: Layout, lim: SlackLimits
                 ) -> list[Block]:
    """One entry as fields: a field per framework and flavour shown."""
    (row,) = grid.rows
    texts = []
    for column in grid.columns:
        text, strong = _cell(knowledge, answer, grid, row.entry, column)
        value = f"*{escape(text)}*" if strong else escape(text)
        texts.append(f"{escape(_heading(knowledge, answer.language, column))}\n{value}")
    return fields(texts, lim)


def entry_lines(knowledge: Knowledge, answer: Answer, grid: Layout) -> list[str]:
    """Each entry as mrkdwn lines, for surfaces without tables: a heading, then a line a
    framework with its flavours."""
    out = []
    for row in grid.rows:
        lines = [f"*{escape(row.label)}*"]
        for fw in dict.fromkeys(fw for fw, _ in grid.columns):
            cells = []
            for column in grid.columns:
                if column[0] != fw:
                    continue
                text, strong = _cell(knowledge, answer, grid, row.entry, column)
                shown = f"*{escape(text)}*" if strong else escape(text)
                unit = t(answer.language, "flavour_unit",
                         flavour=knowledge.flavour_display(column[1]),
                         unit=unit_name(knowledge, answer.language, column[1]))
                cells.append(f"{escape(unit)} {shown}")
            lines.append(f"{escape(knowledge.framework_names[fw])}: " + " · ".join(cells))
        out.append("\n".join(lines))
    return out


def unsupported_line(knowledge: Knowledge, language: Language, grid: Layout) -> str:
    if not grid.unsupported:
        return ""
    return escape(t(language, "blocks.unsupported", frameworks=framework_list(
        knowledge, language, list(grid.unsupported))))


def entry_rows(knowledge: Knowledge, answer: Answer, entries: Sequence[Entry],
               with_model: bool = False) -> list[Row]:
    lang = answer.language
    cat = knowledge.catalogue
    return [Row(f"{cat[e.model].display} · {entry_heading(knowledge, lang, e)}" if with_model
                else entry_heading(knowledge, lang, e), e) for e in entries]
