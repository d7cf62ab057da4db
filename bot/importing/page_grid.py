"""A page of the ModelArts table, whatever format it came in, as rows of cells plus its text.

Each format reader (text as copied, markdown export, saved HTML) turns the page into a PageGrid;
`bot.importer` reads the table's meaning from that, the same way for all three.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# The page's header names the sequence-length column with one of these; that is how the table
# is told from the rest of the page.
SEQ_MARKS = ("seq_len", "序列长度", "sequence length")


def is_seq_header(cell: str) -> bool:
    cell = cell.lower()
    return any(mark in cell for mark in SEQ_MARKS)


@dataclass(frozen=True)
class GridRow:
    """One table row as the format gives it: an empty cell is a merged one (spanning from the
    left, or continuing the row above); a reader that expands spans writes the value out."""

    line: int
    cells: list[str]


@dataclass(frozen=True)
class TextLine:
    """A line of the page's text outside the table (title, date, the doc's notes)."""

    line: int
    text: str


@dataclass(frozen=True)
class PageGrid:
    format: str
    rows: list[GridRow] = field(default_factory=list)
    text: list[TextLine] = field(default_factory=list)
