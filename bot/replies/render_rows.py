"""An answer's rows as a table a person can paste: markdown or CSV, a column per framework and
flavour of the loaded table, counts as the table writes them (Snt9B cards, Snt9B23 DIE)."""

from __future__ import annotations

import csv
import io

from mincards.bot.answering.answer import Answer
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.replies.lead import columns as lead_columns

FORMATS = ("markdown", "csv")


def _table(knowledge: Knowledge, answer: Answer) -> tuple[list[str], list[list[str]]]:
    hardware = knowledge.hardware
    shown = answer.shown()
    # A framework or flavour the question named narrows the columns to it.
    frameworks, flavours = lead_columns(knowledge, answer)
    columns = [(fw, fl) for fw in frameworks for fl in flavours]
    head = ["model", "strategy", "seq_len",
            *(f"{knowledge.framework_names[fw]} {hardware.flavours[fl].display} "
              f"({hardware.flavours[fl].unit})" for fw, fl in columns)]
    rows = []
    for entry in shown.rows:
        counts = [entry.count(fw, fl) for fw, fl in columns]
        rows.append([knowledge.catalogue[entry.model].display, entry.strategy,
                     str(entry.seq_len), *("-" if c is None else str(c) for c in counts)])
    return head, rows


def render_rows(knowledge: Knowledge, answer: Answer, fmt: str) -> str:
    """The rows in `fmt` (one of FORMATS); '' when the answer has none."""
    head, rows = _table(knowledge, answer)
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
