"""Turn the doc's tab-separated table text (merged cells, continuation rows) into a Table."""

from __future__ import annotations

import re
from datetime import date

from pydantic import ValidationError

from bot.errors import ImportTableError
from bot.table import FRAMEWORKS, NOT_SUPPORTED, STRATEGIES, Counts, Entry, Source, Table

_HEADER_MARK = "SEQ_LEN"
_DATE = re.compile(r"(\d{4}-\d{2}-\d{2})")
_COUNT = re.compile(r"^(\d+)\s*(?:\*\s*(?:ascend|die|卡))?$", re.IGNORECASE)
# The doc's own caveat that its numbers are a reference (以下配置仅参考...).
_REFERENCE = re.compile(r"(以下配置仅参考[^。\n]*)")


def _count(cell: str, line: int) -> int:
    m = _COUNT.match(cell.strip())
    if not m or int(m.group(1)) <= 0:
        raise ImportTableError(f"line {line}: {cell!r} is not a card count like '8*Ascend' or '-'")
    return int(m.group(1))


def _split_frameworks(cells: list[str], line: int) -> list[Counts]:
    """Read each framework's (Snt9B, Snt9B23) pair; a value standing alone was a merged cell."""
    out: list[Counts] = []
    i = 0
    for n, _ in enumerate(FRAMEWORKS):
        if i >= len(cells) or not cells[i].strip():
            raise ImportTableError(f"line {line}: no value for {FRAMEWORKS[n]}")
        first = cells[i].strip()
        frameworks_left = len(FRAMEWORKS) - n - 1
        nxt = cells[i + 1].strip() if i + 1 < len(cells) else None
        # Two values are a pair only when enough cells remain for the frameworks after this one.
        pair = (nxt not in (None, "") and first != NOT_SUPPORTED
                and len(cells) - (i + 2) >= frameworks_left)
        if first == NOT_SUPPORTED:
            out.append(Counts(snt9b=None, snt9b23=None))
        elif pair:
            out.append(Counts(snt9b=_count(first, line), snt9b23=_count(nxt or "", line)))
        else:
            value = _count(first, line)
            out.append(Counts(snt9b=value, snt9b23=value))
        i += 2 if pair or nxt == "" else 1
    if any(c.strip() for c in cells[i:]):
        raise ImportTableError(f"line {line}: unexpected extra values {cells[i:]!r}")
    return out


def _expand(cell: str, allowed: tuple[str, ...] | None, what: str, line: int) -> list[str]:
    parts = [p.strip() for p in cell.split("/") if p.strip()]
    if not parts:
        raise ImportTableError(f"line {line}: empty {what}")
    for p in parts:
        if allowed is not None and p.lower() not in allowed:
            raise ImportTableError(f"line {line}: unknown {what} {p!r} (expected {allowed})")
        if allowed is None and not p.isdigit():
            raise ImportTableError(f"line {line}: {what} {p!r} is not a whole number")
    return [p.lower() for p in parts]


def _source(lines: list[str]) -> Source:
    title = next((ln.strip() for ln in lines if ln.strip()), "")
    found = next((m.group(1) for ln in lines if (m := _DATE.search(ln))), None)
    if not found:
        raise ImportTableError("no page date (YYYY-MM-DD) found above the table")
    note = next((m.group(1) for ln in lines if (m := _REFERENCE.search(ln))), "")
    return Source(title=title, date=date.fromisoformat(found), note=note)


def import_table(text: str) -> Table:
    """Parse the doc's table text into a Table; raises ImportTableError naming the bad line."""
    lines = text.splitlines()
    header_lines = [i for i, ln in enumerate(lines) if _HEADER_MARK in ln and "\t" in ln]
    if not header_lines:
        raise ImportTableError(f"no table header (a tab-separated line with {_HEADER_MARK})")
    # The doc's header is two rows (framework names, then flavours); rows start after the last.
    start = header_lines[-1] + 1
    entries: list[Entry] = []
    model = ""
    for index in range(start, len(lines)):
        raw = lines[index]
        number = index + 1
        if not raw.strip():
            continue
        cells = raw.split("\t")
        if len(cells) < 4:
            raise ImportTableError(f"line {number}: too few tab-separated cells in {raw!r}")
        # An empty model cell continues the model of the row above (a merged cell in the page).
        model = cells[0].strip() or model
        if not model:
            raise ImportTableError(f"line {number}: a continuation row with no model above it")
        strategies = _expand(cells[1], STRATEGIES, "strategy", number)
        seq_lens = _expand(cells[2], None, "sequence length", number)
        counts = _split_frameworks(cells[3:], number)
        for strategy in strategies:
            for seq_len in seq_lens:
                try:
                    entries.append(Entry.model_validate({
                        "model": model, "strategy": strategy, "seq_len": int(seq_len),
                        **dict(zip(FRAMEWORKS, counts, strict=True)),
                    }))
                except ValidationError as exc:
                    raise ImportTableError(f"line {number}: {exc.errors()[0]['msg']}") from None
    keys = [e.key for e in entries]
    dupes = sorted({k for k in keys if keys.count(k) > 1})
    if dupes:
        raise ImportTableError(f"duplicate entries in the table text: {dupes}")
    if not entries:
        raise ImportTableError("the table has no rows")
    return Table(source=_source(lines[:start]), entries=tuple(entries))

