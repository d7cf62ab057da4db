"""The page's table as copied from a browser: tab-separated lines, merged cells left empty."""

from __future__ import annotations

from mincards.bot.importing.page_grid import GridRow, PageGrid, TextLine

FORMAT = "text"


def looks_like(text: str) -> bool:
    return "\t" in text


def read(text: str) -> PageGrid:
    rows: list[GridRow] = []
    lines: list[TextLine] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if "\t" in line:
            rows.append(GridRow(number, [cell.strip() for cell in line.rstrip().split("\t")]))
        elif line.strip():
            lines.append(TextLine(number, line.strip()))
    return PageGrid(FORMAT, rows, lines)
