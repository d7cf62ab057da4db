"""An answer's rows as a table a person can paste: markdown or CSV, a column per framework and
flavour of the loaded table, counts as the table writes them (Snt9B cards, Snt9B23 DIE)."""

from __future__ import annotations

import csv
import io

from mincards.bot.answering.answer import Answer
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.replies.i18n import t
from mincards.bot.replies.lead import columns as lead_columns

FORMATS = ("markdown", "csv")


def _table(knowledge: Knowledge, answer: Answer, fmt: str
           ) -> tuple[list[str], list[list[str]]]:
    """The head and rows. A count the table makes suspect is marked: in markdown beside it,
    in CSV (whose counts stay numbers) in a last column naming the cells."""
    hardware = knowledge.hardware
    shown = answer.shown()
    # A framework or flavour the question named narrows the columns to it.
    frameworks, flavours = lead_columns(knowledge, answer)
    columns = [(fw, fl) for fw in frameworks for fl in flavours]
    names = [f"{knowledge.framework_names[fw]} {hardware.flavours[fl].display}"
             for fw, fl in columns]
    head = ["model", "strategy", "seq_len",
            *(f"{name} ({hardware.flavours[fl].unit})" for name, (_, fl) in zip(
                names, columns, strict=True))]
    marked = t(answer.language, "cell.suspect", count="{}")
    rows = []
    any_suspect = False
    for entry in shown.rows:
        cells, suspect = [], []
        for name, (fw, fl) in zip(names, columns, strict=True):
            count = entry.count(fw, fl)
            cell = "-" if count is None else str(count)
            if knowledge.is_suspect(entry, fw, fl):
                suspect.append(name)
                cell = marked.format(cell) if fmt == "markdown" else cell
            cells.append(cell)
        any_suspect = any_suspect or bool(suspect)
        rows.append([knowledge.catalogue[entry.model].display, entry.strategy,
                     str(entry.seq_len), *cells, "; ".join(suspect)])
    if fmt == "csv" and any_suspect:
        head.append("likely source error")
    else:
        rows = [r[:-1] for r in rows]
    return head, rows


def render_rows(knowledge: Knowledge, answer: Answer, fmt: str) -> str:
    """The rows in `fmt` (one of FORMATS); '' when the answer has none."""
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

    return "\n".join([line(head), "|" + "---|" * len(head), *(line(r) for r in rows)])
