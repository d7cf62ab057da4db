"""The page's markdown export: a pipe table where `||` (an empty cell) marks a merged one."""

from __future__ import annotations

import html
import re

from mincards.bot.importing.page_grid import GridRow, PageGrid, TextLine

FORMAT = "markdown"
_PIPE_SPLIT = re.compile(r"(?<!\\)\|")
_ESCAPE = re.compile(r"\\(.)")
_ALIGNMENT = re.compile(r"^:?-{3,}:?$")
_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_EMPHASIS = re.compile(r"\*\*|__")
_SUBSCRIPT = re.compile(r"~([^~]*)~")


def looks_like(text: str) -> bool:
    return any(line.lstrip().startswith("|") and line.count("|") >= 3
               for line in text.splitlines())


def plain(text: str) -> str:
    """Markdown inline text as plain text: no emphasis, escapes or <br>, entities decoded."""
    text = _BREAK.sub(" ", text)
    text = _EMPHASIS.sub("", text)
    text = _SUBSCRIPT.sub(r"\1", text)
    return html.unescape(_ESCAPE.sub(r"\1", text)).strip()


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [plain(cell) for cell in _PIPE_SPLIT.split(inner)]


def read(text: str) -> PageGrid:
    rows: list[GridRow] = []
    lines: list[TextLine] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("|"):
            cells = _cells(line)
            if cells and all(_ALIGNMENT.match(c) for c in cells if c) and any(cells):
                continue  # the |---|---| line under a header
            rows.append(GridRow(number, cells))
        elif line.strip():
            lines.append(TextLine(number, plain(line.strip().lstrip("#").lstrip("> "))))
    return PageGrid(FORMAT, rows, lines)
