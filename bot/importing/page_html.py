"""The page saved as HTML: its <table>, with rowspan and colspan written out into a full grid.

Read with the standard library's HTML parser (html.parser), which copes with the unclosed tags
and entities of real pages; spans are expanded so a merged cell's value stands in every cell it
covers, which is what the merge means.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

from mincards.bot.importing.page_grid import (
    MAX_GRID_CELLS,
    GridRow,
    PageGrid,
    TextLine,
    is_seq_header,
    too_large,
)

FORMAT = "html"
# Elements that end a line of the page's text.
_BLOCKS = frozenset({"p", "div", "br", "li", "h1", "h2", "h3", "h4", "h5", "h6", "title",
                     "section", "header", "footer", "caption", "tr", "table", "dt", "dd"})
_IGNORED = frozenset({"script", "style", "template", "noscript"})
_MAX_SPAN = 1000  # a bigger span is a broken page, not a table


def looks_like(text: str) -> bool:
    head = text.lstrip()[:1000].lower()
    return head.startswith("<") and ("<table" in text.lower() or "<html" in head)


@dataclass
class _Cell:
    rowspan: int
    colspan: int
    parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return " ".join("".join(self.parts).split())


@dataclass
class _Row:
    line: int
    cells: list[_Cell] = field(default_factory=list)


@dataclass
class _Table:
    rows: list[_Row] = field(default_factory=list)
    cell: _Cell | None = None


def _span(value: str | None) -> int:
    try:
        return min(max(int(str(value).strip()), 1), _MAX_SPAN)
    except ValueError:
        return 1


class _PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[_Table] = []
        self.text: list[TextLine] = []
        self._open: list[_Table] = []
        self._ignored = 0
        self._line: list[str] = []
        self._line_at = 1

    def _flush(self) -> None:
        text = " ".join("".join(self._line).split())
        if text:
            self.text.append(TextLine(self._line_at, text))
        self._line = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _IGNORED:
            self._ignored += 1
            return
        if tag in _BLOCKS and not self._open:
            self._flush()
        table = self._open[-1] if self._open else None
        if tag == "table":
            self._open.append(_Table())
        elif tag == "tr" and table is not None:
            table.cell = None
            table.rows.append(_Row(self.getpos()[0]))
        elif tag in ("td", "th") and table is not None:
            if not table.rows:
                table.rows.append(_Row(self.getpos()[0]))
            spans = dict(attrs)
            table.cell = _Cell(_span(spans.get("rowspan")), _span(spans.get("colspan")))
            table.rows[-1].cells.append(table.cell)
        elif tag == "br" and table is not None and table.cell is not None:
            table.cell.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _IGNORED:
            self._ignored = max(self._ignored - 1, 0)
            return
        if tag == "table" and self._open:
            self.tables.append(self._open.pop())
        elif tag in ("td", "th", "tr") and self._open:
            self._open[-1].cell = None
        if tag in _BLOCKS and not self._open:
            self._flush()

    def handle_data(self, data: str) -> None:
        if self._ignored:
            return
        if self._open:
            cell = self._open[-1].cell
            if cell is not None:
                cell.parts.append(data)
            return
        if not self._line:
            self._line_at = self.getpos()[0]
        self._line.append(data)

    def close(self) -> None:
        super().close()
        while self._open:  # a page cut off inside its table still gives what it has
            self.tables.append(self._open.pop())
        self._flush()


def _place(cells: list[str], column: int, value: str) -> None:
    while len(cells) <= column:
        cells.append("")
    cells[column] = value


def _carry(cells: list[str], column: int, pending: dict[int, tuple[int, str]]) -> None:
    """Write a cell spanning down from a row above into this row's `column`."""
    left, text = pending.pop(column)
    _place(cells, column, text)
    if left > 1:
        pending[column] = (left - 1, text)


def expand(rows: list[_Row], max_cells: int = MAX_GRID_CELLS) -> list[GridRow]:
    """Rows with every rowspan and colspan written out: one cell per grid column. A grid past
    `max_cells` is refused as it grows: a few spans can ask for billions of cells."""
    pending: dict[int, tuple[int, str]] = {}  # column -> (rows it still covers, its text)
    out: list[GridRow] = []
    written = 0
    for row in rows:
        cells: list[str] = []
        column = 0
        for cell in row.cells:
            while column in pending:
                _carry(cells, column, pending)
                column += 1
            written += cell.colspan
            if written > max_cells:
                raise too_large(row.line, max_cells)
            for _ in range(cell.colspan):
                _place(cells, column, cell.text)
                if cell.rowspan > 1:
                    pending[column] = (cell.rowspan - 1, cell.text)
                column += 1
        carried = sorted(c for c in pending if c >= column)
        written += len(carried)
        if written > max_cells:
            raise too_large(row.line, max_cells)
        for later in carried:
            _carry(cells, later, pending)
        out.append(GridRow(row.line, cells))
    return out


def read(text: str) -> PageGrid:
    parser = _PageParser()
    parser.feed(text)
    parser.close()
    # The table is the one whose header names the sequence length (a page has others).
    table = next((t for t in parser.tables
                  if any(is_seq_header(c.text) for r in t.rows[:3] for c in r.cells)), None)
    return PageGrid(FORMAT, expand(table.rows) if table else [], parser.text)
