"""An answer's rows as a table a person can paste: markdown or CSV, a column per framework and
flavour of the loaded table, counts as the table writes them (Snt9B cards, Snt9B23 DIE).

A pasted table keeps every caveat the reply has: whose entries they are (a stand-in, a
bracket's neighbours, a quantized copy), counts that are likely source errors, and, with a
budget, where each entry fits. Markdown says them in a quoted line above the table and beside
a count; CSV, whose counts stay numbers, in a `fits` and a `note` column.
"""

from __future__ import annotations

import csv
import io

from mincards.bot.answering.answer import Answer
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.facts.table import Entry
from mincards.bot.replies.i18n import t
from mincards.bot.replies.lead import bracket_sentence, lead
from mincards.bot.replies.lead import columns as lead_columns
from mincards.bot.replies.render_estimate import markdown_lines

FORMATS = ("markdown", "csv")


def _entries(answer: Answer) -> tuple[tuple[Entry, ...], str]:
    """The rows shown and, for rows not of the asked model, what they are to it."""
    shown = answer.shown()
    if shown.rows:
        use = answer.stand_in
        if use is not None and use.relation == "same_architecture":
            return shown.rows, use.asked
        return shown.rows, ""
    around = answer.bracket
    if around is None:
        return (), ""
    near = [n for n in (*around.same, around.below, around.above) if n is not None]
    return tuple(e for n in near for e in n.rows), answer.asked_display or answer.asked


def _preface(knowledge: Knowledge, answer: Answer) -> list[str]:
    """The sentences that say whose entries these are, for markdown's quoted lines."""
    lang = answer.language
    use = answer.stand_in
    if use is not None and use.relation == "same_architecture":
        return [t(lang, "stand_in.reference", model=knowledge.catalogue[use.model].display,
                  asked=use.asked)]
    if use is not None:
        return [lead(knowledge, answer)]
    if answer.bracket is not None:
        return [bracket_sentence(knowledge, answer)]
    return []


def _fits(knowledge: Knowledge, answer: Answer, entry: Entry, names: dict[tuple[str, str], str]
          ) -> str:
    """'MindSpeed-LLM Snt9B; Llama-Factory Snt9B23': where a budget holds the entry."""
    fits = answer.fits.get(entry.key, {})
    return "; ".join(name for (fw, fl), name in names.items()
                     if fits.get(fw, {}).get(fl) and not knowledge.is_suspect(entry, fw, fl))


def _table(knowledge: Knowledge, answer: Answer, fmt: str
           ) -> tuple[list[str], list[list[str]]]:
    hardware = knowledge.hardware
    lang = answer.language
    entries, beside = _entries(answer)
    # A framework or flavour the question named narrows the columns to it.
    frameworks, flavours = lead_columns(knowledge, answer)
    names = {(fw, fl): f"{knowledge.framework_names[fw]} {hardware.flavours[fl].display}"
             for fw in frameworks for fl in flavours}
    head = ["model", "strategy", "seq_len",
            *(f"{name} ({hardware.flavours[fl].unit})" for (_, fl), name in names.items())]
    marked = t(lang, "cell.suspect", count="{}")
    budget = answer.budget is not None
    rows, notes = [], []
    for entry in entries:
        cells, suspect = [], []
        for (fw, fl), name in names.items():
            count = entry.count(fw, fl)
            cell = "-" if count is None else str(count)
            if knowledge.is_suspect(entry, fw, fl):
                suspect.append(name)
                cell = marked.format(cell) if fmt == "markdown" else cell
            cells.append(cell)
        row = [knowledge.catalogue[entry.model].display, entry.strategy, str(entry.seq_len),
               *cells]
        if budget:
            row.append(_fits(knowledge, answer, entry, names))
        rows.append(row)
        note = []
        if beside:
            note.append(t(lang, "rows.beside", asked=beside))
        if suspect:
            note.append(t(lang, "rows.suspect", cells=", ".join(suspect)))
        notes.append("; ".join(note))
    if budget:
        head.append("fits")
    if fmt == "csv" and any(notes):
        head.append("note")
        rows = [[*r, n] for r, n in zip(rows, notes, strict=True)]
    return head, rows


def render_rows(knowledge: Knowledge, answer: Answer, fmt: str) -> str:
    """The rows in `fmt` (one of FORMATS); '' when the answer has none. In markdown, an
    estimate beside them is a table of its own under its label."""
    made = _rows(knowledge, answer, fmt)
    if fmt == "markdown" and answer.estimate is not None and answer.estimate.cells:
        estimate = "\n".join(markdown_lines(knowledge, answer.estimate, answer.language))
        return f"{made}\n\n{estimate}" if made else estimate
    return made


def _rows(knowledge: Knowledge, answer: Answer, fmt: str) -> str:
    head, rows = _table(knowledge, answer, fmt)
    if not rows:
        return ""
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(head)
        writer.writerows(rows)
        return out.getvalue().rstrip("\n")

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    quoted = [f"> {sentence}" for sentence in _preface(knowledge, answer)]
    table = [line(head), "|" + "---|" * len(head), *(line(r) for r in rows)]
    return "\n".join([*quoted, *([""] if quoted else []), *table])
