"""`mincards import-table`: the doc's table text, merged cells and all, into data/table.csv."""

from __future__ import annotations

import pytest

from bot.errors import ImportTableError
from bot.importer import import_table
from bot.knowledge import default_data_dir
from bot.table import dump_table

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
