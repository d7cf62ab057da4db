"""Reading the page's table: merged cells, continuation rows, header-driven columns, errors."""

from __future__ import annotations

import pytest

from mincards.bot.errors import ImportTableError
from mincards.bot.facts.knowledge import default_data_dir
from mincards.bot.facts.table import Table, dump_table
from mincards.bot.importing.importer import framework_name, import_table
from tests.conftest import NO_SHARED, SHARED
from tests.pages import SEED, hardware, text_page, vocabulary

TWO = ["MindSpeed-LLM", "LF"]


def read(text: str) -> Table:
    return import_table(text, vocabulary(), hardware().flavours)


def counts(table: Table, model: str, strategy: str, seq: int) -> tuple[tuple[int | None, ...], ...]:
    entry = next(e for e in table.entries if e.key == (model, strategy, seq))
    return tuple(tuple(entry.count(fw, fl) for fl in table.flavours) for fw in table.framework_ids)


def test_importing_the_page_reproduces_the_checked_in_data_exactly() -> None:
    imported = dump_table(read(SEED.read_text(encoding="utf-8")))
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
    pytest.param("m-7b\tfull\t4096\t-\t-\t-\t-", ((None, None), (None, None)),
                 id="dashes-written-out"),
    pytest.param("m-7b\tfull\t4096\t4\t4\t8 卡\t8*DIE", ((4, 4), (8, 8)),
                 id="bare-and-unit-counts"),
])
def test_merged_cells(row: str, expected: tuple) -> None:  # type: ignore[type-arg]
    table = read(text_page(TWO, [row]))
    assert counts(table, "m-7b", "full", 4096) == expected


def test_continuation_rows_and_expansion() -> None:
    table = read(text_page(TWO, ["m-70b\tfull\t4096\t32*Ascend\t\t64*Ascend",
                                 "\tlora\t4096\t16*Ascend\t\t32*Ascend",
                                 "\tfull/lora\t8192\t64*Ascend\t\t-",
                                 "m-1b\tfull/lora\t4096/8192\t1*Ascend\t2*Ascend\t1*Ascend\t1*Ascend"]))
    assert [e.key for e in table.entries] == [
        ("m-70b", "full", 4096), ("m-70b", "lora", 4096), ("m-70b", "full", 8192),
        ("m-70b", "lora", 8192), ("m-1b", "full", 4096), ("m-1b", "full", 8192),
        ("m-1b", "lora", 4096), ("m-1b", "lora", 8192)]
    assert counts(table, "m-70b", "lora", 4096) == ((16, 16), (32, 32))
    assert counts(table, "m-70b", "lora", 8192) == ((64, 64), (None, None))
    assert counts(table, "m-1b", "lora", 8192) == ((1, 2), (1, 1))
    assert table.source.date is not None and table.source.date.isoformat() == "2025-09-01"
    assert table.source.note.startswith("以下配置仅参考")


def test_the_header_names_the_frameworks_and_their_ids() -> None:
    table = read(text_page(["MindSpeed-LLM", "Llama-Factory", "VeRL", "MindSpeed-RL",
                            "MindSpeed-MM"],
                           ["m-7b\tfull\t4096\t4*Ascend\t\t8*Ascend\t\t-\t-\t-\t-\t-\t-"]))
    assert [(f.id, f.name) for f in table.frameworks] == [
        ("mindspeed_llm", "MindSpeed-LLM"), ("llama_factory", "Llama-Factory"), ("verl", "VeRL"),
        ("mindspeed_rl", "MindSpeed-RL"), ("mindspeed_mm", "MindSpeed-MM")]
    assert counts(table, "m-7b", "full", 4096) == (
        (4, 4), (8, 8), (None, None), (None, None), (None, None))


@pytest.mark.parametrize(("cell", "name"), [
    ("MindSpeed-LLM规格卡数/DIE", "MindSpeed-LLM"), ("Llama-Factory规格卡数/DIE", "Llama-Factory"),
    ("VeRL", "VeRL"), ("MindSpeed-MM cards/DIE", "MindSpeed-MM"), ("Ｆｏｏ－Ｘ规格", "Foo-X"),
])
def test_framework_names_drop_the_pages_suffix(cell: str, name: str) -> None:
    assert framework_name(cell) == name


def test_lower_case_flavours_and_32k_lengths() -> None:
    table = read(text_page(["MindSpeed-LLM"], ["m-7b\tlora\t8k/32K\t4*Ascend\t8*Ascend"],
                           flavours=("Snt9b", "Snt9b23")))
    assert table.flavours == ("snt9b", "snt9b23")
    assert [e.seq_len for e in table.entries] == [8192, 32768]
    assert counts(table, "m-7b", "lora", 32768) == ((4, 8),)


def test_flavours_in_another_order_are_read_by_name() -> None:
    table = read(text_page(["A"], ["m-7b\tfull\t4096\t8*Ascend\t4*Ascend"],
                           flavours=("Snt9B23", "Snt9B")))
    assert counts(table, "m-7b", "full", 4096) == ((4, 8),)  # snt9b first, as hardware lists


def test_framework_names_without_spacer_cells_are_split_evenly() -> None:
    text = text_page(TWO, ["m-7b\tfull\t4096\t1*Ascend\t2*Ascend\t3*Ascend\t4*Ascend"])
    squeezed = text.replace("MindSpeed-LLM规格卡数/DIE\t\tLF", "MindSpeed-LLM规格卡数/DIE\tLF")
    assert counts(read(squeezed), "m-7b", "full", 4096) == ((1, 2), (3, 4))


@pytest.mark.parametrize(("rows", "message"), [
    pytest.param(["\tfull\t4096\t4*Ascend\t\t8*Ascend"], "no model above", id="continuation-first"),
    pytest.param(["m-7b\tfull\t4x\t4*Ascend\t\t8*Ascend"], "not a whole number", id="bad-seq"),
    pytest.param(["m-7b\tfull\t4096\tmany\t\t8*Ascend"], "not a card count", id="bad-count"),
    pytest.param(["m-7b\tfull\t4096\t0*Ascend\t\t8*Ascend"], "not a card count", id="zero"),
    pytest.param(["m-7b\tfull\t4096\t4*Ascend\t\t8*Ascend\t1\t2"], "extra values",
                 id="extra-cells"),
    pytest.param(["m-7b\tfull\t4096\t4*Ascend"], "no value for LF", id="missing-framework"),
    pytest.param(["m-7b\tfull\t4096\t4*Ascend\t\t8*Ascend"] * 2, "duplicate", id="duplicate"),
    pytest.param(["m-7b\tfull\t4096\t4*Ascend\t\t8*Ascend", "note: the rest below",
                  "m-8b\tfull\t4096\t4*Ascend\t\t8*Ascend"], "not a table row",
                 id="a-row-that-lost-its-tabs"),
])
def test_bad_table_text_names_the_problem(rows: list[str], message: str) -> None:
    with pytest.raises(ImportTableError, match=message):
        read(text_page(TWO, rows))


def test_no_table_at_all() -> None:
    with pytest.raises(ImportTableError, match="no table found"):
        read("just some prose\n")
    with pytest.raises(ImportTableError, match="no table header"):
        read("a\tb\tc\n1\t2\t3\n")


def test_error_names_the_line() -> None:
    text = text_page(TWO, ["m-7b\tfull\t4096\t4*Ascend\t\t8*Ascend", "m-8b\tfull\t4096\tx"])
    line = text.splitlines().index("m-8b\tfull\t4096\tx") + 1
    with pytest.raises(ImportTableError, match=f"line {line}"):
        read(text)


def test_an_unknown_flavour_stops_the_import_saying_what_to_add() -> None:
    with pytest.raises(ImportTableError, match=r"'Snt9C'.*hardware\.toml.*\[flavours\.snt9c\]"):
        read(text_page(["A"], ["m-7b\tfull\t4096\t8*Ascend\t4*Ascend"],
                       flavours=("Snt9B", "Snt9C")))


def test_a_header_cut_short_is_refused_not_half_read() -> None:
    excerpt = SHARED / "pages" / "modelarts-later-md-header-excerpt.md"
    if not excerpt.exists():
        pytest.skip(NO_SHARED)
    with pytest.raises(ImportTableError, match=r"\['VeRL', 'MindSpeed-MM'\].*no flavour columns"):
        read(excerpt.read_text(encoding="utf-8"))


def test_an_unknown_strategy_word_names_the_word_the_line_and_what_to_add() -> None:
    text = text_page(TWO, ["m-7b\tfull\t4096\t4*Ascend\t\t8*Ascend",
                           "m-7b\tGRPO\t4096\t8*Ascend\t\t-"])
    line = text.splitlines().index("m-7b\tGRPO\t4096\t8*Ascend\t\t-") + 1
    with pytest.raises(ImportTableError) as caught:
        read(text)
    message = str(caught.value)
    assert f"line {line}" in message and "'GRPO'" in message
    assert "[strategies.grpo]" in message and "label" in message and "vocabulary.toml" in message
