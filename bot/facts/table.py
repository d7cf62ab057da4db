"""The ModelArts minimum-card table: its frameworks, flavours, entries and source, and its CSV file.

Nothing here names a framework, flavour or strategy: the table knows its own columns, read from
the page's header by `mincards import-table` and kept in data/table.csv.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import unicodedata
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from mincards.bot.errors import DataError
from mincards.bot.facts.data_bytes import MAX_FILE_BYTES, read_bounded
from mincards.bot.facts.datafiles import STRICT_KEYS, validate

NOT_SUPPORTED = "-"
KEY_COLUMNS: tuple[str, ...] = ("model", "strategy", "seq_len")
# A count column is "<framework id>.<flavour id>"; ids never hold a '.', so the split is exact.
COLUMN_SEP = "."
_META = re.compile(r"^#\s*(title|date|note):\s*(.*)$")
_FRAMEWORK_META = re.compile(r"^#\s*framework:\s*([a-z0-9_]+)\s*=\s*(.+?)\s*$")
_ID = re.compile(r"^[a-z0-9]+(?:_[a-z0-9]+)*$")
_ID_RUN = re.compile(r"[^a-z0-9]+")
# Seven digits at most: no count or length is ten million, and int() of a few thousand
# digits raises (Python limits the digits it converts).
_COUNT = re.compile(r"^\d{1,7}$")
# A model name starts with a letter or digit and holds letters, digits and . _ - / : + ( ) or
# spaces: never a spreadsheet formula (=, +, -, @ first) or a quote, pipe or bang.
_MODEL_NAME = re.compile(r"^[^\W_][\w.\-/:+() ]{0,79}$")
# A file this large is not a table of a few hundred rows: refused before it is read.


def model_name_problem(name: str) -> str | None:
    """Why a cell cannot be a model's name (None when it can): one that a spreadsheet would
    run as a formula, or that holds characters no model name has."""
    if _MODEL_NAME.fullmatch(name):
        return None
    if name[:1] in ("=", "+", "-", "@"):
        return (f"{name[:40]!r} starts with {name[0]!r}, which a spreadsheet runs as a "
                "formula: not a model name")
    return (f"{name[:40]!r} is not a model name (letters, digits and . _ - / : + ( ) only, "
            "starting with a letter or digit, at most 80 characters)")


def _comment(line: str) -> str:
    """A comment line as written, also after a spreadsheet saved it as a row of cells:
    '# title: x,,,,' or, with a comma inside, '"# note: a, b",,,'."""
    if line.startswith("#") and "," not in line:
        return line
    if line.startswith(("#", '"#')):
        cells = next(csv.reader([line]), [])
        if cells and cells[0].startswith("#") and not any(c.strip() for c in cells[1:]):
            return cells[0]
    return line

# flavour id -> count; None where the framework does not support the entry.
Counts = Mapping[str, int | None]


def page_id(name: str) -> str:
    """The id of a name on the page: lower-cased, every run of other characters one '_'.

    'MindSpeed-LLM' -> 'mindspeed_llm', 'Llama-Factory' -> 'llama_factory', 'Snt9b' -> 'snt9b'.
    """
    return _ID_RUN.sub("_", unicodedata.normalize("NFKC", name).lower()).strip("_")


def is_id(text: str) -> bool:
    return bool(_ID.match(text))


@dataclass(frozen=True)
class FrameworkColumn:
    """A framework the table has a column group for: its id and its name as the page writes it."""

    id: str
    name: str


@dataclass(frozen=True)
class Entry:
    """One (model, strategy, seq_len) row: for each framework, a count per flavour."""

    model: str
    strategy: str
    seq_len: int
    counts: Mapping[str, Counts]

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.model, self.strategy, self.seq_len)

    def count(self, framework: str, flavour: str) -> int | None:
        return self.counts[framework][flavour]

    def supports(self, framework: str) -> bool:
        return any(c is not None for c in self.counts[framework].values())


@dataclass(frozen=True, kw_only=True)
class Source:
    """Where the table comes from; the doc calls its figures a reference only."""

    __pydantic_config__ = STRICT_KEYS
    title: str
    # A page may carry no date (the markdown export does not); data/table.csv always has one.
    date: dt.date | None = None
    note: str = ""

    def date_text(self) -> str:
        return self.date.isoformat() if self.date else "undated"


@dataclass(frozen=True)
class Table:
    """The whole table, in the order of the source."""

    source: Source
    frameworks: tuple[FrameworkColumn, ...]
    flavours: tuple[str, ...]
    entries: tuple[Entry, ...] = field(repr=False)

    @cached_property
    def _by_model(self) -> dict[str, tuple[Entry, ...]]:
        out: dict[str, list[Entry]] = {}
        for e in self.entries:
            out.setdefault(e.model, []).append(e)
        return {m: tuple(es) for m, es in out.items()}

    def models(self) -> tuple[str, ...]:
        """Table model names in source order, each once."""
        return tuple(self._by_model)

    def entries_for(self, model: str) -> tuple[Entry, ...]:
        return self._by_model.get(model, ())

    @cached_property
    def framework_ids(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.frameworks)

    def framework(self, framework_id: str) -> FrameworkColumn | None:
        return next((f for f in self.frameworks if f.id == framework_id), None)

    def strategies(self) -> tuple[str, ...]:
        """The strategies the table lists, in order of first appearance."""
        return tuple(dict.fromkeys(e.strategy for e in self.entries))

    def columns(self) -> tuple[tuple[str, str], ...]:
        """Every (framework id, flavour id) count column, framework by framework."""
        return tuple((fw.id, fl) for fw in self.frameworks for fl in self.flavours)


def column_name(framework: str, flavour: str) -> str:
    return f"{framework}{COLUMN_SEP}{flavour}"


def _cell(count: int | None) -> str:
    return NOT_SUPPORTED if count is None else str(count)


def dump_table(table: Table) -> str:
    """The table as the CSV text of data/table.csv (the importer writes exactly this)."""
    out = io.StringIO()
    out.write(f"# title: {table.source.title}\n")
    out.write(f"# date: {table.source.date_text()}\n")
    if table.source.note:
        out.write(f"# note: {table.source.note}\n")
    for fw in table.frameworks:
        out.write(f"# framework: {fw.id} = {fw.name}\n")
    out.write("# Count columns are <framework>.<flavour>, each in its flavour's unit "
              "(data/hardware.toml); '-' means not supported.\n")
    out.write("# Generated by `mincards import-table`; edit by hand only to fix a typo.\n")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*KEY_COLUMNS, *(column_name(fw, fl) for fw, fl in table.columns())])
    for e in table.entries:
        writer.writerow([e.model, e.strategy, e.seq_len]
                        + [_cell(e.count(fw, fl)) for fw, fl in table.columns()])
    return out.getvalue()


def _numbered_rows(lines: Iterable[tuple[int, str]]) -> Iterator[tuple[int, list[str]]]:
    for number, line in lines:
        for row in csv.reader([line]):
            cells = [cell.strip() for cell in row]
            while cells and not cells[-1]:
                cells.pop()  # a spreadsheet pads rows with empty cells to its widest one
            if cells:
                yield number, cells


@dataclass(frozen=True)
class _Layout:
    """What the header row says: the count columns, as (framework, flavour) in file order."""

    columns: tuple[tuple[str, str], ...]
    frameworks: tuple[str, ...]
    flavours: tuple[str, ...]


def _split_column(name: str) -> tuple[str, str] | None:
    if COLUMN_SEP in name:
        framework, _, flavour = name.partition(COLUMN_SEP)
    else:
        # The first format wrote mindspeed_llm_snt9b: flavour ids there hold no '_'.
        framework, _, flavour = name.rpartition("_")
    return (framework, flavour) if is_id(framework) and is_id(flavour) else None


def _layout(path: Path, line: int, header: list[str]) -> _Layout:
    if tuple(header[: len(KEY_COLUMNS)]) != KEY_COLUMNS:
        raise DataError(path, f"header must start with {','.join(KEY_COLUMNS)}", line)
    columns: list[tuple[str, str]] = []
    for name in header[len(KEY_COLUMNS):]:
        split = _split_column(name)
        if split is None:
            raise DataError(path, f"column {name!r} is not <framework>.<flavour>", line)
        if split in columns:
            raise DataError(path, f"column {name!r} appears twice", line)
        columns.append(split)
    if not columns:
        raise DataError(path, "no count columns after seq_len", line)
    frameworks = tuple(dict.fromkeys(fw for fw, _ in columns))
    flavours = tuple(dict.fromkeys(fl for _, fl in columns))
    missing = [column_name(fw, fl) for fw in frameworks for fl in flavours
               if (fw, fl) not in columns]
    if missing:
        raise DataError(path, f"every framework needs a column per flavour; missing {missing}",
                        line)
    return _Layout(tuple(columns), frameworks, flavours)


def _entry_from_row(path: Path, number: int, row: list[str], layout: _Layout,
                    strategies: Collection[str] | None) -> Entry:
    names = [*KEY_COLUMNS, *(column_name(fw, fl) for fw, fl in layout.columns)]
    if len(row) < len(names):
        raise DataError(path, "missing value", number, names[len(row)])
    if len(row) > len(names):
        raise DataError(path, f"{len(row)} values where {len(names)} are expected", number)
    for name, value in zip(names, row, strict=True):
        if value == "":
            raise DataError(path, "empty value (write '-' for not supported)", number, name)
    model, strategy, seq_len = row[: len(KEY_COLUMNS)]
    if problem := model_name_problem(model):
        raise DataError(path, problem, number, "model")
    if not is_id(strategy):
        raise DataError(path, f"{strategy!r} is not a strategy id", number, "strategy")
    if strategies is not None and strategy not in strategies:
        raise DataError(path, f"unknown strategy {strategy!r} (vocabulary.toml knows "
                        f"{sorted(strategies)})", number, "strategy")
    if not _COUNT.match(seq_len) or int(seq_len) <= 0:
        raise DataError(path, f"sequence length must be a whole number (got {seq_len!r})",
                        number, "seq_len")
    counts: dict[str, dict[str, int | None]] = {fw: {} for fw in layout.frameworks}
    for (fw, fl), value in zip(layout.columns, row[len(KEY_COLUMNS):], strict=True):
        if value == NOT_SUPPORTED:
            counts[fw][fl] = None
        elif _COUNT.match(value) and int(value) > 0:
            counts[fw][fl] = int(value)
        else:
            raise DataError(path, f"a count must be a whole number above 0 or '-' (got {value!r})",
                            number, column_name(fw, fl))
    ordered = {fw: {fl: counts[fw][fl] for fl in layout.flavours} for fw in layout.frameworks}
    return Entry(model=model, strategy=strategy, seq_len=int(seq_len), counts=ordered)


def parse_table(text: str, path: Path | str = "<table>", *,
                strategies: Collection[str] | None = None,
                names: Mapping[str, str] | None = None) -> Table:
    """Read the CSV text of the table; any flaw raises DataError naming the line and field.

    `strategies`: the strategy ids the vocabulary knows (None: any id). `names`: framework names
    for a file in the first format, which had no `# framework:` lines.
    """
    path = Path(path)
    meta: dict[str, str] = {}
    declared: dict[str, str] = {}
    data: list[tuple[int, str]] = []
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        if not line.strip():
            continue
        line = _comment(line)
        if line.startswith("#"):
            if m := _META.match(line):
                meta[m.group(1)] = m.group(2).strip()
            elif m := _FRAMEWORK_META.match(line):
                declared[m.group(1)] = m.group(2)
            continue
        if line.strip(", \t"):  # a row of nothing but commas is an empty spreadsheet row
            data.append((number, line))
    if not data:
        raise DataError(path, "no header row and no entries")
    header_line, header = next(_numbered_rows(data[:1]))
    layout = _layout(path, header_line, header)
    if declared and set(declared) != set(layout.frameworks):
        raise DataError(path, f"'# framework:' lines name {sorted(declared)} but the columns "
                        f"are for {sorted(layout.frameworks)}", header_line)
    try:
        source = validate(path, Source, meta)
    except DataError as exc:
        raise DataError(path, f"source record: {exc.message} (write '# {exc.field}: ...')",
                        1, exc.field) from None
    if source.date is None:
        raise DataError(path, "source record: no date (write '# date: YYYY-MM-DD')", 1, "date")
    fallback = names or {}
    frameworks = tuple(FrameworkColumn(fw, declared.get(fw) or fallback.get(fw, fw))
                       for fw in layout.frameworks)
    entries: list[Entry] = []
    seen: dict[tuple[str, str, int], int] = {}
    for number, row in _numbered_rows(data[1:]):
        entry = _entry_from_row(path, number, row, layout, strategies)
        if entry.key in seen:
            raise DataError(path, f"duplicate entry {entry.key}, first on line {seen[entry.key]}",
                            number, "model")
        seen[entry.key] = number
        entries.append(entry)
    if not entries:
        raise DataError(path, "the table has no entries")
    return Table(source=source, frameworks=frameworks, flavours=layout.flavours,
                 entries=tuple(entries))


def read_text_file(path: Path, max_bytes: int = MAX_FILE_BYTES) -> str:
    """A data or page file as text; a UTF-8 byte-order mark (Excel, Notepad) is dropped. At
    most `max_bytes` are read, of a regular file only (facts/data_bytes)."""
    raw = read_bounded(path, max_bytes)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(path, f"is not UTF-8 text (byte {exc.start}); save it as UTF-8 (in "
                        "Excel: 'CSV UTF-8')") from None


def load_table(path: Path, *, strategies: Collection[str] | None = None,
               names: Mapping[str, str] | None = None) -> Table:
    return parse_table(read_text_file(path), path, strategies=strategies, names=names)
