"""`mincards import-table`: the doc's table text, merged cells and all, into data/table.csv."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.engine import Engine
from bot.errors import DataError, ImportTableError
from bot.importer import import_table
from bot.knowledge import DATA_ENV, default_data_dir, load_knowledge
from bot.table import dump_table

MINCARDS = Path(sys.executable).with_name("mincards")

SOURCE = default_data_dir() / "source" / "modelarts-2025-06-24.txt"
HEADER = ("title line\n时间：2025-06-24 10:36:34\n以下配置仅参考，一般小于8卡使用8卡训练\n"
          "支持模型参数量\t训练策略类型\t序列长度SEQ_LEN\tMindSpeed-LLM规格卡数/DIE\t\tLF\n"
          "支持模型参数量\t训练策略类型\t序列长度SEQ_LEN\tSnt9B\tSnt9B23\tSnt9B\tSnt9B23\n")


def counts(table, model, strategy, seq):  # type: ignore[no-untyped-def]
    entry = next(e for e in table.entries if e.key == (model, strategy, seq))
    return ((entry.mindspeed_llm.snt9b, entry.mindspeed_llm.snt9b23),
            (entry.llama_factory.snt9b, entry.llama_factory.snt9b23))


def test_importing_the_page_reproduces_the_checked_in_data_exactly() -> None:
    imported = dump_table(import_table(SOURCE.read_text(encoding="utf-8")))
    assert imported == (default_data_dir() / "table.csv").read_text(encoding="utf-8")


@pytest.mark.parametrize(("row", "expected"), [
    pytest.param("m-7b\tfull\t4096\t4*Ascend\t\t8*Ascend", ((4, 4), (8, 8)), id="both-merged"),
    pytest.param("m-7b\tfull\t4096\t4*Ascend\t\t1*Ascend\t2*Ascend", ((4, 4), (1, 2)),
                 id="merged-then-pair"),
    pytest.param("m-7b\tfull\t4096\t1*Ascend\t2*Ascend\t1*Ascend\t1*Ascend", ((1, 2), (1, 1)),
                 id="two-pairs"),
    pytest.param("m-7b\tfull\t4096\t1*Ascend\t2*Ascend\t-", ((1, 2), (None, None)),
                 id="pair-then-unsupported"),
    pytest.param("m-7b\tfull\t4096\t-\t\t2*Ascend", ((None, None), (2, 2)),
                 id="unsupported-then-merged"),
    pytest.param("m-7b\tfull\t4096\t16*Ascend\t\t-", ((16, 16), (None, None)),
                 id="merged-then-unsupported"),
    pytest.param("m-7b\tfull\t4096\t4*Ascend\t8*Ascend", ((4, 4), (8, 8)),
                 id="two-lone-values-are-two-merged-cells"),
])
def test_merged_cells(row: str, expected: tuple) -> None:  # type: ignore[type-arg]
    table = import_table(HEADER + row + "\n")
    assert counts(table, "m-7b", "full", 4096) == expected


def test_continuation_rows_and_expansion() -> None:
    text = HEADER + ("m-70b\tfull\t4096\t32*Ascend\t\t64*Ascend\n"
                     "\tlora\t4096\t16*Ascend\t\t32*Ascend\n"
                     "\tfull/lora\t8192\t64*Ascend\t\t-\n"
                     "m-1b\tfull/lora\t4096/8192\t1*Ascend\t2*Ascend\t1*Ascend\t1*Ascend\n")
    table = import_table(text)
    assert [e.key for e in table.entries] == [
        ("m-70b", "full", 4096), ("m-70b", "lora", 4096), ("m-70b", "full", 8192),
        ("m-70b", "lora", 8192), ("m-1b", "full", 4096), ("m-1b", "full", 8192),
        ("m-1b", "lora", 4096), ("m-1b", "lora", 8192)]
    assert counts(table, "m-70b", "lora", 4096) == ((16, 16), (32, 32))
    assert counts(table, "m-70b", "lora", 8192) == ((64, 64), (None, None))
    assert counts(table, "m-1b", "lora", 8192) == ((1, 2), (1, 1))
    assert table.source.date.isoformat() == "2025-06-24"
    assert table.source.note.startswith("以下配置仅参考")


@pytest.mark.parametrize(("text", "message"), [
    pytest.param("no table here\n", "no table header", id="no-header"),
    pytest.param(HEADER + "\tfull\t4096\t4*Ascend\t\t8*Ascend\n", "no model above",
                 id="continuation-first"),
    pytest.param(HEADER + "m-7b\tqlora\t4096\t4*Ascend\t\t8*Ascend\n", "unknown strategy",
                 id="bad-strategy"),
    pytest.param(HEADER + "m-7b\tfull\t4k\t4*Ascend\t\t8*Ascend\n", "not a whole number",
                 id="bad-seq"),
    pytest.param(HEADER + "m-7b\tfull\t4096\tmany\t\t8*Ascend\n", "not a card count",
                 id="bad-count"),
    pytest.param(HEADER + "m-7b\tfull\t4096\t4*Ascend\t\t8*Ascend\t1\t2\n", "extra values",
                 id="extra-cells"),
    pytest.param(HEADER + "m-7b\tfull\t4096\t4*Ascend\n", "no value for llama_factory",
                 id="missing-framework"),
    pytest.param(HEADER + "m-7b\tfull\t4096\t4*Ascend\t\t8*Ascend\n"
                 "m-7b\tfull\t4096\t4*Ascend\t\t8*Ascend\n", "duplicate", id="duplicate"),
])
def test_bad_table_text_names_the_problem(text: str, message: str) -> None:
    with pytest.raises(ImportTableError, match=message):
        import_table(text)


def test_error_names_the_line() -> None:
    with pytest.raises(ImportTableError, match="line 7"):
        import_table(HEADER + "m-7b\tfull\t4096\t4*Ascend\t\t8*Ascend\nm-8b\tfull\t4096\tx\n")


NEW_ROWS = ("qwen3-72b\tfull\t4096\t32*Ascend\t\t64*Ascend\n"
            "llama3.3-70b\tfull/lora\t4096/32768\t32*Ascend\t\t64*Ascend\n"
            "qwen2.5_vl-32b\tlora\t4096\t-\t\t16*Ascend\n"
            "qwen2.5-7b\tfull\t32768\t16*Ascend\t\t32*Ascend\n")


def _new_page(tmp_path: Path, rows: str) -> Path:
    text = SOURCE.read_text(encoding="utf-8").rstrip("\n") + "\n" + rows
    page = tmp_path / "page.txt"
    page.write_text(text.replace("时间：2025-06-24", "时间：2025-09-01"), encoding="utf-8")
    return page


def _import(data: Path, page: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(MINCARDS), "import-table", str(page)], capture_output=True,
                          text=True, timeout=60, check=False,
                          env={**os.environ, DATA_ENV: str(data)})


def test_a_new_page_with_new_models_and_32k_is_one_command(data_copy: Path,
                                                           tmp_path: Path) -> None:
    result = _import(data_copy, _new_page(tmp_path, NEW_ROWS))
    assert result.returncode == 0, result.stderr
    assert "added 3 new model(s)" in result.stdout
    engine = Engine(load_knowledge(data_copy))
    assert engine.knowledge.table.source.date.isoformat() == "2025-09-01"
    answer = engine.ask("Qwen3-72B full")
    assert answer.models == ("qwen3-72b",)
    assert (answer.rows[0].mindspeed_llm.snt9b, answer.rows[0].llama_factory.snt9b) == (32, 64)
    assert engine.knowledge.catalogue["llama3.3-70b"].display == "Llama-3.3-70B"
    assert engine.ask("llama 3.3 70b lora 32k").rows[0].seq_len == 32768
    assert engine.ask("qwen2.5-vl-32b lora").models == ("qwen2.5_vl-32b",)
    assert engine.ask("qwen2.5-7b full 32k").intent == "lookup"
    # Still the old answers for the old models, and a second import changes nothing.
    assert engine.ask("qwen 2.5 72b lora 8k").rows[0].llama_factory.snt9b == 32
    catalogue = (data_copy / "models.toml").read_text(encoding="utf-8")
    assert _import(data_copy, _new_page(tmp_path, NEW_ROWS)).returncode == 0
    assert (data_copy / "models.toml").read_text(encoding="utf-8") == catalogue


def test_a_new_family_stops_the_import_with_instructions(data_copy: Path,
                                                         tmp_path: Path) -> None:
    result = _import(data_copy, _new_page(tmp_path, "baichuan2-13b\tfull\t4096\t8*Ascend\t\t-\n"))
    assert result.returncode == 1
    assert "cannot tell the family of ['baichuan2-13b']" in result.stderr
    with pytest.raises(DataError, match="baichuan2-13b"):
        load_knowledge(data_copy)
