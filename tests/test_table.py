"""The checked-in table: it matches the eval truth, and a broken file never loads half-read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mincards.bot.errors import DataError
from mincards.bot.facts.knowledge import default_data_dir, load_knowledge
from mincards.bot.facts.table import load_table
from tests.conftest import SHARED, needs_shared

TABLE = default_data_dir() / "table.csv"


def test_table_has_33_models_and_124_entries() -> None:
    table = load_table(TABLE)
    assert len(table.models()) == 33
    assert len(table.entries) == 124
    assert table.source.date.isoformat() == "2025-06-24"
    assert "仅参考" in table.source.note


@needs_shared("eval", "truth.json")
def test_table_agrees_with_truth_entry_by_entry() -> None:
    truth = json.loads((SHARED / "eval" / "truth.json").read_text(encoding="utf-8"))
    column = {("mindspeed_llm", "snt9b"): "mindspeed_snt9b",
              ("mindspeed_llm", "snt9b23"): "mindspeed_snt9b23",
              ("llama_factory", "snt9b"): "llamafactory_snt9b",
              ("llama_factory", "snt9b23"): "llamafactory_snt9b23"}
    want = {(r["model"], r["strategy"], r["seq_len"]):
            {k: r[v] for k, v in column.items()} for r in truth}
    table = load_table(TABLE)
    got = {e.key: {(fw, fl): e.count(fw, fl) for fw, fl in table.columns()}
           for e in table.entries}
    assert got == want


def _break(data: Path, old: str, new: str) -> None:
    path = data / "table.csv"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _line_of(data: Path, needle: str) -> int:
    lines = (data / "table.csv").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


@pytest.mark.parametrize(("old", "new", "needle", "field"), [
    pytest.param("qwen2.5-14b,full,4096,8,8,8,8", "qwen2.5-14b,full,4096,8,8,8",
                 "qwen2.5-14b,full,4096,8,8,8", "llama_factory.snt9b23", id="missing-field"),
    pytest.param("qwen2.5-14b,full,4096,8,8,8,8", "qwen2.5-14b,full,4096,0,8,8,8",
                 "qwen2.5-14b,full,4096,0", "mindspeed_llm.snt9b", id="zero-count"),
    pytest.param("qwen2.5-14b,full,4096,8,8,8,8", "qwen2.5-14b,full,4096,8,8,2.5,8",
                 "qwen2.5-14b,full,4096,8,8,2.5", "llama_factory.snt9b", id="fractional-count"),
    pytest.param("qwen2.5-14b,full,4096,8,8,8,8", "qwen2.5-14b,full,4096,8,-3,8,8",
                 "qwen2.5-14b,full,4096,8,-3", "mindspeed_llm.snt9b23", id="negative-count"),
    pytest.param("qwen2.5-14b,full,4096,8,8,8,8", "qwen2.5-14b,qlora,4096,8,8,8,8",
                 "qwen2.5-14b,qlora", "strategy", id="unknown-strategy"),
    pytest.param("qwen2.5-14b,full,4096,8,8,8,8", "qwen2.5-14b,Full Param,4096,8,8,8,8",
                 "qwen2.5-14b,Full Param", "strategy", id="strategy-not-an-id"),
    pytest.param("qwen2.5-14b,full,4096,8,8,8,8", "qwen2.5-14b,full,4k,8,8,8,8",
                 "qwen2.5-14b,full,4k", "seq_len", id="seq-len-not-a-number"),
    pytest.param("qwen2.5-14b,full,8192,8,8,16,16", "qwen2.5-14b,full,4096,8,8,16,16",
                 "qwen2.5-14b,full,4096,8,8,16,16", "model", id="duplicate-entry"),
    pytest.param("qwen2.5-14b,full,4096,8,8,8,8", "qwen2.5-14b,full,4096,8,,8,8",
                 "qwen2.5-14b,full,4096,8,,8,8", "mindspeed_llm.snt9b23", id="empty-cell"),
])
def test_broken_table_names_file_line_and_field(data_copy: Path, old: str, new: str,
                                                needle: str, field: str) -> None:
    _break(data_copy, old, new)
    line = _line_of(data_copy, needle)
    with pytest.raises(DataError) as caught:
        load_knowledge(data_copy)
    err = caught.value
    assert err.path.endswith("table.csv")
    assert err.line == line
    assert err.field == field
    assert f"line {line}" in str(err) and field in str(err)


def test_missing_source_date_is_an_error(data_copy: Path) -> None:
    _break(data_copy, "# date: 2025-06-24\n", "")
    with pytest.raises(DataError, match="date"):
        load_knowledge(data_copy)


def test_wrong_header_is_an_error(data_copy: Path) -> None:
    _break(data_copy, "model,strategy,seq_len", "model,strat,seq_len")
    with pytest.raises(DataError, match="header"):
        load_knowledge(data_copy)


def test_table_model_without_catalogue_entry_is_an_error(data_copy: Path) -> None:
    path = data_copy / "table.csv"
    path.write_text(path.read_text(encoding="utf-8") + "qwen4-7b,full,4096,8,8,8,8\n",
                    encoding="utf-8")
    with pytest.raises(DataError, match="qwen4-7b"):
        load_knowledge(data_copy)


def test_catalogue_with_bad_size_names_the_model(data_copy: Path) -> None:
    path = data_copy / "models.toml"
    text = path.read_text(encoding="utf-8").replace('size = "27b"', 'size = "huge"')
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match="gemma3-27b"):
        load_knowledge(data_copy)


def test_a_table_saved_from_excel_still_loads(data_copy: Path) -> None:
    """A byte-order mark, CRLF line ends, rows padded with empty cells, an empty row."""
    path = data_copy / "table.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    padded = [line if line.startswith("#") else line + ",,," for line in lines]
    path.write_bytes(("\ufeff" + "\r\n".join([*padded[:9], ",,,,,,,", *padded[9:]]) + "\r\n"
                      ).encode("utf-8"))
    assert load_table(path).entries == load_table(TABLE).entries
    load_knowledge(data_copy)


def test_a_table_that_is_not_utf8_says_so(data_copy: Path) -> None:
    path = data_copy / "table.csv"
    path.write_bytes(path.read_text(encoding="utf-8").replace("title:", "títle:").encode(
        "latin-1", errors="replace"))
    with pytest.raises(DataError, match="is not UTF-8 text"):
        load_knowledge(data_copy)
