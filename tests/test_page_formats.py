"""The page as copied, as its markdown export and as saved HTML all import to the same table."""

from __future__ import annotations

import pytest

from mincards.bot.facts.knowledge import default_data_dir
from mincards.bot.facts.table import Table, dump_table
from mincards.bot.importing.importer import import_table, read_grid
from tests.conftest import SHARED, needs_shared
from tests.pages import FIXTURES, SEED, hardware, text_page, vocabulary

PAGES = FIXTURES / "pages"


def read(text: str) -> Table:
    return import_table(text, vocabulary(), hardware().flavours)


def numbers(table: Table) -> dict[tuple[str, str, int], dict[tuple[str, str], int | None]]:
    """Every count by entry and (framework, flavour): the data, whatever the column order."""
    return {e.key: {(fw, fl): e.count(fw, fl) for fw, fl in table.columns()}
            for e in table.entries}


@pytest.mark.parametrize(("page", "form"), [
    (SEED, "text"), (PAGES / "modelarts-2025-06-24.md", "markdown"),
    (PAGES / "modelarts-2025-06-24.html", "html")])
def test_each_form_of_the_seed_imports_to_the_checked_in_table(page: object, form: str) -> None:
    text = page.read_text(encoding="utf-8")  # type: ignore[attr-defined]
    assert read_grid(text).format == form
    assert dump_table(read(text)) == (default_data_dir() / "table.csv").read_text(
        encoding="utf-8")


def test_rows_written_out_in_full_import_to_the_same_data() -> None:
    """No merged cells: the model on every row, both flavours under every framework."""
    seed = read(SEED.read_text(encoding="utf-8"))
    rows = [f"{e.model}\t{e.strategy}\t{e.seq_len}\t" + "\t".join(
        "-" if (c := e.count(fw, fl)) is None else f"{c}*Ascend" for fw, fl in seed.columns())
        for e in seed.entries]
    full = read(text_page(["MindSpeed-LLM", "Llama-Factory"], rows, date="2025-06-24"))
    assert numbers(full) == numbers(seed)


def test_frameworks_in_another_order_keep_their_own_numbers() -> None:
    seed = read(SEED.read_text(encoding="utf-8"))
    rows = [f"{e.model}\t{e.strategy}\t{e.seq_len}\t" + "\t".join(
        "-" if (c := e.count(fw, fl)) is None else f"{c}*Ascend"
        for fw in ("llama_factory", "mindspeed_llm") for fl in seed.flavours)
        for e in seed.entries]
    swapped = read(text_page(["Llama-Factory", "MindSpeed-LLM"], rows))
    assert swapped.framework_ids == ("llama_factory", "mindspeed_llm")
    assert numbers(swapped) == numbers(seed)


def test_markdown_merged_cells_escapes_and_alignment_row() -> None:
    page = ("# 模型最小卡数配置\n时间：2025-10-22\n\n"
            "| 支持模型参数量 | 训练策略类型 | 序列长度SEQ_LEN | MindSpeed-LLM规格卡数/DIE || "
            "VeRL规格卡数/DIE ||\n"
            "| 支持模型参数量 | 训练策略类型 | 序列长度SEQ_LEN "
            "| Snt9b | Snt9b23 | Snt9b | Snt9b23 |\n"
            "| :--- | --- | --- | --- | --- | --- | ---: |\n"
            "| **qwen2.5-7b** | full/lora | 4096/32k | 8\\*Ascend || - | - |\n"
            "|  | full | 65536 | 16\\*Ascend | 32\\*Ascend | 32\\*Ascend ||\n")
    table = read(page)
    assert table.framework_ids == ("mindspeed_llm", "verl")
    assert [e.key for e in table.entries][:2] == [("qwen2.5-7b", "full", 4096),
                                                  ("qwen2.5-7b", "full", 32768)]
    last = table.entries[-1]
    assert last.key == ("qwen2.5-7b", "full", 65536)
    assert (last.count("mindspeed_llm", "snt9b"), last.count("mindspeed_llm", "snt9b23"),
            last.count("verl", "snt9b23")) == (16, 32, 32)
    assert table.entries[0].count("verl", "snt9b") is None


def test_html_rowspan_colspan_markup_and_entities() -> None:
    page = """<html><head><title>模型最小卡数配置</title></head><body>
    <table><tr><td>layout</td></tr></table>
    <p>更新时间：2025年10月22日</p>
    <table border=1>
      <tr><th rowspan=2>支持模型参数量<th rowspan="2">训练策略类型</th>
          <th rowspan=2>序列长度<br>SEQ_LEN</th>
          <th colspan=2><p><b>MindSpeed-LLM</b>规格卡数/DIE</p></th>
          <th colspan=2>Llama&#8209;Factory规格卡数/DIE</th></tr>
      <tr><th>Snt9B</th><th>Snt9B23</th><th>Snt9B</th><th>Snt9B23</th></tr>
      <tr><td rowspan=3><p>qwen2.5-72b</p></td><td rowspan=2>full</td><td>4096</td>
          <td colspan=2>32&#42;Ascend</td><td>64*Ascend</td><td>64*Ascend</td></tr>
      <tr><td>8192</td><td colspan=2>64*Ascend</td><td colspan=2>-</td></tr>
      <tr><td>lora</td><td>4096/8192</td><td>16*Ascend</td><td>32*Ascend</td>
          <td colspan="2">32*Ascend</td></tr>
    </table></body></html>"""
    table = read(page)
    assert table.source.date is not None and table.source.date.isoformat() == "2025-10-22"
    assert [(f.id, f.name) for f in table.frameworks] == [
        ("mindspeed_llm", "MindSpeed-LLM"), ("llama_factory", "Llama-Factory")]
    keys = [e.key for e in table.entries]
    assert keys == [("qwen2.5-72b", "full", 4096), ("qwen2.5-72b", "full", 8192),
                    ("qwen2.5-72b", "lora", 4096), ("qwen2.5-72b", "lora", 8192)]
    full_8k, lora_8k = table.entries[1], table.entries[3]
    assert full_8k.count("mindspeed_llm", "snt9b23") == 64
    assert full_8k.count("llama_factory", "snt9b") is None
    assert (lora_8k.count("mindspeed_llm", "snt9b"), lora_8k.count("mindspeed_llm", "snt9b23"),
            lora_8k.count("llama_factory", "snt9b23")) == (16, 32, 32)


@needs_shared("pages")
def test_the_other_known_versions_import() -> None:
    may = read((SHARED / "pages" / "modelarts-2025-05-07.txt").read_text(encoding="utf-8"))
    assert may.framework_ids == ("mindspeed_llm",)
    assert (len(may.models()), may.source.date_text()) == (16, "2025-05-07")
    october = read((SHARED / "pages" / "modelarts-2025-10-22-partial.txt").read_text(
        encoding="utf-8"))
    assert october.framework_ids == ("mindspeed_llm", "llama_factory", "verl", "mindspeed_rl",
                                     "mindspeed_mm")
    assert october.flavours == ("snt9b", "snt9b23")
    first = october.entries[0]
    assert first.count("llama_factory", "snt9b") == 8 and not first.supports("verl")
