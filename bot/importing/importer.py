"""Read the ModelArts page's table into a Table, by its header, whatever its format or columns.

The page's two header rows say which columns hold the model, strategy and sequence length, which
frameworks follow (row one, a merged cell spanning its flavours) and which flavour each column
is (row two). Nothing here knows a framework, flavour or strategy by name: frameworks come from
the header, flavours must be described in hardware.toml, strategies in vocabulary.toml.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass

from mincards.bot.errors import ImportTableError
from mincards.bot.facts.table import (
    Entry,
    FrameworkColumn,
    Source,
    Table,
    model_name_problem,
    page_id,
)
from mincards.bot.facts.vocabulary import Vocabulary
from mincards.bot.importing import page_html, page_markdown, page_text
from mincards.bot.importing.page_grid import GridRow, PageGrid, check_size, is_seq_header

_STRATEGY_MARKS = ("策略", "strategy")
_COUNT = re.compile(r"^(\d{1,7})\s*(?:\*?\s*(?:ascend|die|npus?|cards?|张?卡))?$", re.IGNORECASE)
_NOT_SUPPORTED = frozenset({"-", "–", "—", "n/a", "不支持"})
_LENGTH = re.compile(r"^(\d{1,7})\s*(k)?$", re.IGNORECASE)
_LIST_SEP = re.compile(r"[/、,，;；]+")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")
# What a framework header adds after the name, in an English export ("MindSpeed-LLM cards/DIE").
_NAME_TAIL = re.compile(r"[\s(（/]*(?:(?:specs?|cards?|die|npus?)[\s/)）]*)+$", re.IGNORECASE)
_DATES = (re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})"),
          re.compile(r"(\d{4})年(\d{1,2})月(\d{1,2})日"),
          re.compile(r"(\d{4})/(\d{1,2})/(\d{1,2})"))
# The doc's own caveat that its numbers are a reference (以下配置仅参考...).
_REFERENCE = re.compile(r"(以下配置仅参考[^。\n]*)")
# Readers in the order they are tried; plain tab-separated text is what is left.
_READERS = (page_html, page_markdown, page_text)


def read_grid(text: str) -> PageGrid:
    """The page's rows and text, from whichever format it is in."""
    text = text.lstrip("\ufeff")
    for reader in _READERS:
        if reader.looks_like(text):
            return check_size(reader.read(text))
    raise ImportTableError("no table found: expected the page's text as copied (tab-separated "
                           "cells), its markdown export (a | table) or its saved HTML (<table>)")


def framework_name(cell: str) -> str:
    """The framework's name from its header cell: 'MindSpeed-LLM规格卡数/DIE' -> 'MindSpeed-LLM'."""
    # Pages set names with non-breaking or en dashes as often as with '-'.
    cell = "".join("-" if unicodedata.category(c) == "Pd" else c
                   for c in unicodedata.normalize("NFKC", cell)).strip()
    cut = _CJK.search(cell)
    name = cell[: cut.start()] if cut else cell
    return _NAME_TAIL.sub("", name).strip(" -_/")


@dataclass(frozen=True)
class _Header:
    second_row: int  # the index in the grid's rows of the header's second row
    model: int
    strategy: int
    seq_len: int
    frameworks: tuple[FrameworkColumn, ...]
    # Per framework, its flavours in the order its columns give them.
    flavour_order: tuple[tuple[str, ...], ...]

    @property
    def keys(self) -> frozenset[int]:
        return frozenset({self.model, self.strategy, self.seq_len})


def _cell(cells: list[str], index: int) -> str:
    return cells[index].strip() if index < len(cells) else ""


def _group(columns: list[int], names: dict[int, str], flavours: dict[int, str]
           ) -> list[tuple[str, list[str]]] | None:
    """Framework column groups by their header position; None when they do not make sense."""
    groups: list[tuple[str, list[str]]] = []
    for column in columns:
        if groups and names[column] == groups[-1][0]:
            groups[-1][1].append(flavours[column])
        else:
            groups.append((names[column], [flavours[column]]))
    sets = {frozenset(f) for _, f in groups}
    if len(sets) != 1 or any(len(set(f)) != len(f) for _, f in groups):
        return None
    if len({name for name, _ in groups}) != len(groups):
        return None
    return groups


def _equal_split(columns: list[int], names: list[str], flavours: dict[int, str]
                 ) -> list[tuple[str, list[str]]] | None:
    """Framework names written without spacer cells: split the flavour columns evenly."""
    if not names or len(columns) % len(names):
        return None
    width = len(columns) // len(names)
    groups = [(name, [flavours[c] for c in columns[i * width:(i + 1) * width]])
              for i, name in enumerate(names)]
    sets = {frozenset(f) for _, f in groups}
    return groups if len(sets) == 1 and all(len(set(f)) == width for _, f in groups) else None


def _header(grid: PageGrid, flavours_known: Collection[str]) -> _Header:
    at = next((i for i, row in enumerate(grid.rows) if any(is_seq_header(c) for c in row.cells)),
              None)
    if at is None:
        raise ImportTableError("no table header (a header row naming SEQ_LEN or 序列长度)")
    if at + 1 >= len(grid.rows):
        raise ImportTableError(f"line {grid.rows[at].line}: the header needs a second row, "
                               "naming the flavour (Snt9B, ...) of each framework column")
    first, second = grid.rows[at].cells, grid.rows[at + 1].cells
    line = grid.rows[at + 1].line
    width = max(len(first), len(second))
    # The model, strategy and length cells span both header rows (a copy may leave the lower
    # half empty); a framework's cell stands over flavour cells.
    flavour_columns = [c for c in range(width)
                       if _cell(second, c) and _cell(second, c) != _cell(first, c)]
    leading = min(flavour_columns, default=width)
    keys = [c for c in range(width) if _cell(first, c) and (
        _cell(second, c) == _cell(first, c) or (not _cell(second, c) and c < leading))]
    seq = [c for c in keys if is_seq_header(_cell(first, c))]
    strategy = [c for c in keys if any(m in _cell(first, c).lower() for m in _STRATEGY_MARKS)]
    model = [c for c in keys if c not in seq and c not in strategy]
    if len(seq) != 1 or len(strategy) != 1 or len(model) != 1:
        shown = [c[:40] for c in first[:10]]
        raise ImportTableError(f"line {grid.rows[at].line}: cannot tell the model, strategy and "
                               f"sequence-length columns from the header {shown!r}")
    columns = [c for c in range(width) if c not in keys and _cell(second, c)]
    if not columns:
        raise ImportTableError(f"line {line}: the header names no framework columns")
    flavours: dict[int, str] = {}
    for c in columns:
        flavour = page_id(_cell(second, c))
        if flavour not in flavours_known:
            raise ImportTableError(
                f"line {line}: flavour {_cell(second, c)!r} is not described in hardware.toml; "
                f"add a [flavours.{flavour}] section there (display, chip, unit, per_node, and "
                f"die_per_card / min_parallel_unit / advise_node_below where they apply)")
        flavours[c] = flavour
    names: dict[int, str] = {}
    for c in columns:
        # A framework's cell spans its flavour columns: an empty one continues the name before.
        names[c] = framework_name(_cell(first, c)) or (names[columns[columns.index(c) - 1]]
                                                       if columns.index(c) else "")
    if not names[columns[0]]:
        raise ImportTableError(f"line {grid.rows[at].line}: no framework name above the first "
                               "flavour column")
    groups = _group(columns, names, flavours) or _equal_split(
        columns, list(dict.fromkeys(framework_name(c) for i, c in enumerate(first)
                                    if i not in keys and framework_name(c))), flavours)
    if groups is None:
        raise ImportTableError(f"line {line}: every framework in the header needs one column "
                               f"per flavour; got {[names[c] for c in columns]} over "
                               f"{[_cell(second, c) for c in columns]}")
    named = [n for c in range(width) if c not in keys and (n := framework_name(_cell(first, c)))]
    unplaced = [n for n in dict.fromkeys(named) if n not in {name for name, _ in groups}]
    if unplaced:
        raise ImportTableError(f"line {line}: the header names {unplaced} but gives no flavour "
                               "columns under them (is its second row cut short?)")
    frameworks = tuple(FrameworkColumn(page_id(name), name) for name, _ in groups)
    ids = [fw.id for fw in frameworks]
    if len(set(ids)) != len(ids) or not all(ids):
        raise ImportTableError(f"line {grid.rows[at].line}: framework names {ids} repeat or are "
                               "empty")
    return _Header(at + 1, model[0], strategy[0], seq[0], frameworks,
                   tuple(tuple(f) for _, f in groups))


def _count(cell: str, line: int) -> int | None:
    cell = unicodedata.normalize("NFKC", cell).strip()
    if cell.lower() in _NOT_SUPPORTED:
        return None
    m = _COUNT.match(cell)
    if not m or int(m.group(1)) <= 0:
        raise ImportTableError(f"line {line}: {cell[:40]!r} is not a card count like '8*Ascend' "
                               "or '-'")
    return int(m.group(1))


def _framework_counts(cells: list[str], header: _Header, line: int
                      ) -> dict[str, dict[str, int | None]]:
    """Each framework's count per flavour. A value followed by empty cells, or standing alone
    where there are too few cells for a value per flavour, was a merged cell: it holds for all
    of that framework's flavours."""
    out: dict[str, dict[str, int | None]] = {}
    i = 0
    for n, framework in enumerate(header.frameworks):
        order = header.flavour_order[n]
        width = len(order)
        if i >= len(cells) or not cells[i]:
            raise ImportTableError(f"line {line}: no value for {framework.name}")
        group = cells[i:i + width]
        left_after = len(header.frameworks) - n - 1
        if len(group) == width and all(group) and len(cells) - (i + width) >= left_after:
            out[framework.id] = {fl: _count(c, line) for fl, c in zip(order, group, strict=True)}
            i += width
            continue
        value = _count(cells[i], line)
        out[framework.id] = dict.fromkeys(order, value)
        i += 1
        spanned = 1
        while i < len(cells) and not cells[i] and spanned < width:
            i += 1
            spanned += 1
    extra = [c for c in cells[i:] if c]
    if extra:
        shown = [c[:40] for c in extra[:5]]
        raise ImportTableError(f"line {line}: unexpected extra values {shown!r}")
    return out


def _strategies(cell: str, vocabulary: Vocabulary, line: int) -> list[str]:
    words = [w.strip() for w in _LIST_SEP.split(unicodedata.normalize("NFKC", cell)) if w.strip()]
    if not words:
        raise ImportTableError(f"line {line}: empty strategy")
    out = []
    for word in words:
        word = word[:40]  # said back in an error: a cell is never echoed whole
        strategy = vocabulary.strategy_of(word)
        if strategy is None:
            key = page_id(word) or "new_strategy"
            raise ImportTableError(
                f"line {line}: unknown strategy {word!r}: vocabulary.toml knows "
                f"{sorted(vocabulary.strategies)}. To take it, add to vocabulary.toml:\n"
                f"  [strategies.{key}]\n"
                f"  label = {{ en = \"...\", zh = \"...\" }}\n"
                f"  words = [\"{word.lower()}\"]")
        out.append(strategy)
    return out


def _lengths(cell: str, k: int, line: int) -> list[int]:
    parts = [p.strip() for p in _LIST_SEP.split(unicodedata.normalize("NFKC", cell)) if p.strip()]
    if not parts:
        raise ImportTableError(f"line {line}: empty sequence length")
    out = []
    for part in parts:
        m = _LENGTH.match(part)
        if not m or int(m.group(1)) <= 0:
            raise ImportTableError(f"line {line}: sequence length {part[:40]!r} is not a whole "
                                   "number or a length like 32k")
        out.append(int(m.group(1)) * (k if m.group(2) else 1))
    return out


def _date(lines: list[str]) -> dt.date | None:
    for line in lines:
        for pattern in _DATES:
            if m := pattern.search(line):
                try:
                    return dt.date(*(int(g) for g in m.groups()))
                except ValueError:
                    continue
    return None


def _source(grid: PageGrid, header: _Header, date: dt.date | None) -> Source:
    start = grid.rows[header.second_row - 1].line
    # In text and markdown the page's words stand above the table; in HTML, anywhere around it.
    lines = [t.text for t in grid.text if t.line < start or grid.format == page_html.FORMAT]
    title = next((line for line in lines if line), "")
    note = next((m.group(1) for line in lines if (m := _REFERENCE.search(line))), "")
    return Source(title=title, date=date or _date(lines), note=note)


def _rows(grid: PageGrid, header: _Header) -> list[GridRow]:
    rows = grid.rows[header.second_row + 1:]
    if rows:
        # Text between rows means a row that lost its cells (spaces for tabs, say): refuse,
        # rather than import a table with that row silently missing.
        inside = [t for t in grid.text if rows[0].line < t.line < rows[-1].line]
        if inside:
            raise ImportTableError(f"line {inside[0].line}: {inside[0].text[:60]!r} stands "
                                   "inside the table but is not a table row")
    return rows


def import_table(text: str, vocabulary: Vocabulary, flavours: Collection[str], *,
                 date: dt.date | None = None) -> Table:
    """Read a page (any format) into a Table; raises ImportTableError naming the bad line.

    `flavours`: the flavour ids hardware.toml describes. `date`: the page's date when it carries
    none (the markdown export), or to override it.
    """
    grid = read_grid(text)
    header = _header(grid, flavours)
    entries: list[Entry] = []
    above = ("", "", "")
    for row in _rows(grid, header):
        if not any(row.cells) or any(is_seq_header(c) for c in row.cells):
            continue  # a blank row, or the header repeated
        cells = row.cells
        keys = [_cell(cells, c) or above[i]
                for i, c in enumerate((header.model, header.strategy, header.seq_len))]
        if not keys[0]:
            raise ImportTableError(f"line {row.line}: a continuation row with no model above it")
        if not keys[1] or not keys[2]:
            raise ImportTableError(f"line {row.line}: no strategy or sequence length, and none "
                                   "above to continue")
        # An empty model (or strategy, or length) cell continues the row above: a merged cell.
        above = (keys[0], keys[1], keys[2])
        model = unicodedata.normalize("NFKC", keys[0]).strip()
        if problem := model_name_problem(model):
            raise ImportTableError(f"line {row.line}: {problem}")
        strategies = _strategies(keys[1], vocabulary, row.line)
        lengths = _lengths(keys[2], vocabulary.sequence.k, row.line)
        counts = _framework_counts(
            [c.strip() for i, c in enumerate(cells) if i not in header.keys], header, row.line)
        for strategy in strategies:
            for seq_len in lengths:
                entries.append(Entry(model=model, strategy=strategy, seq_len=seq_len,
                                     counts=counts))
    times = Counter(e.key for e in entries)
    dupes = sorted(k for k, n in times.items() if n > 1)
    if dupes:
        shown = ", ".join(map(str, dupes[:5])) + (f" and {len(dupes) - 5} more"
                                                  if len(dupes) > 5 else "")
        raise ImportTableError(f"duplicate entries in the table: {shown}")
    if not entries:
        raise ImportTableError("the table has no rows")
    # The hardware's order, so a page listing Snt9B23 first still writes the same table.
    flavour_ids = tuple(f for f in flavours if f in set(header.flavour_order[0]))
    return Table(source=_source(grid, header, date), frameworks=header.frameworks,
                 flavours=flavour_ids, entries=tuple(entries))
