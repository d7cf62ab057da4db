"""A page of the ModelArts table, whatever format it came in, as rows of cells plus its text.

Each format reader (text as copied, markdown export, saved HTML) turns the page into a PageGrid;
`bot.importer` reads the table's meaning from that, the same way for all three.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mincards.bot.errors import ImportTableError

# The ModelArts table is a few thousand cells (a few hundred rows of a dozen columns); a page
# past this is not it, and is refused before its rows are read (a handful of HTML spans could
# otherwise ask for billions).
MAX_GRID_CELLS = 100_000

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


def too_large(line: int, max_cells: int = MAX_GRID_CELLS) -> ImportTableError:
    return ImportTableError(f"line {line}: the table grows past {max_cells:,} cells (with its "
                            "rowspan and colspan written out); the ModelArts table has a few "
                            "thousand: is this the right page?")


def check_size(grid: PageGrid, max_cells: int = MAX_GRID_CELLS) -> PageGrid:
    """The grid, unless it holds more cells than any version of the table could."""
    cells = 0
    for row in grid.rows:
        cells += len(row.cells)
        if cells > max_cells:
            raise too_large(row.line, max_cells)
    return grid
