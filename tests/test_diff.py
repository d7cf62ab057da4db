"""`mincards diff-table OLD NEW`: frameworks and models added and removed, every changed number."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from mincards.bot.facts.knowledge import default_data_dir
from mincards.bot.importing.importer import import_table
from mincards.bot.importing.table_diff import diff_tables
from tests.conftest import SHARED, needs_shared
from tests.pages import FIXTURES, SEED, hardware, text_page, vocabulary
from tests.process_exit import run_to_exit

MINCARDS = Path(sys.executable).with_name("mincards")
MAY = SHARED / "pages" / "modelarts-2025-05-07.txt"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_to_exit([str(MINCARDS), *args], capture_output=True, text=True, check=False,
                       env=dict(os.environ))


@needs_shared("pages", MAY.name)
def test_may_against_our_data_shows_exactly_what_changed() -> None:
    result = run("diff-table", str(MAY), str(default_data_dir()), "--json")
    assert result.returncode == 0, result.stderr
    diff = json.loads(result.stdout)
    assert diff["added_frameworks"] == ["llama_factory"] and diff["removed_frameworks"] == []
    assert len(diff["added_models"]) == 17 and diff["removed_models"] == []
    assert {"qwen2vl-2b", "qwen3_moe-235B_A22B", "gemma3-27b"} <= set(diff["added_models"])
    assert (diff["added_entries"], diff["removed_entries"]) == (64, 0)
    changed = {(c["model"], c["strategy"], c["seq_len"], c["framework"], c["flavour"]):
               (c["old"], c["new"]) for c in diff["changed"]}
    want = {("qwen2-7b", "lora", 4096): (2, 4), ("qwen2-7b", "lora", 8192): (2, 8),
            ("qwen2.5-7b", "full", 4096): (2, 4), ("qwen2.5-7b", "full", 8192): (2, 8)}
    assert changed == {(*key, "mindspeed_llm", flavour): numbers
                       for key, numbers in want.items() for flavour in ("snt9b", "snt9b23")}
    text = run("diff-table", str(MAY), str(default_data_dir())).stdout
    assert "frameworks added (1): Llama-Factory (llama_factory)" in text
    assert "qwen2-7b · lora · 8192 · MindSpeed-LLM · Snt9B23: 2 -> 8" in text
    assert "numbers changed: 8" in text


def test_any_format_or_a_data_folder_on_either_side() -> None:
    pages = [SEED, FIXTURES / "pages" / "modelarts-2025-06-24.md",
             FIXTURES / "pages" / "modelarts-2025-06-24.html", default_data_dir(),
             default_data_dir() / "table.csv", FIXTURES / "data-format-1"]
    for old in pages:
        result = run("diff-table", str(old), str(pages[0]))
        assert result.returncode == 0, (old, result.stderr)
        assert result.stdout.rstrip().endswith("no differences"), old


def test_removed_frameworks_models_entries_and_not_supported_changes() -> None:
    def table(frameworks: list[str], rows: list[str]):  # type: ignore[no-untyped-def]
        return import_table(text_page(frameworks, rows), vocabulary(), hardware().flavours)

    old = table(["MindSpeed-LLM", "MindSpeed-RL"],
                ["a-7b\tfull/lora\t4096\t4*Ascend\t\t8*Ascend", "b-7b\tfull\t4096\t4*Ascend\t\t-"])
    new = table(["MindSpeed-LLM"], ["a-7b\tfull\t4096\t-", "c-7b\tfull\t4096\t2*Ascend"])
    diff = diff_tables(old, new).json()
    assert diff["removed_frameworks"] == ["mindspeed_rl"]
    assert (diff["added_models"], diff["removed_models"]) == (["c-7b"], ["b-7b"])
    assert (diff["added_entries"], diff["removed_entries"]) == (1, 2)
    assert diff["changed"] == [
        {"model": "a-7b", "strategy": "full", "seq_len": 4096, "framework": "mindspeed_llm",
         "flavour": fl, "old": 4, "new": None} for fl in ("snt9b", "snt9b23")]
    assert diff_tables(old, new).removals() == [
        "model b-7b", "entry a-7b · lora · 4096", "framework mindspeed_rl"]


def test_a_missing_side_is_a_clear_error(tmp_path: Path) -> None:
    result = run("diff-table", str(tmp_path / "nope.txt"), str(SEED))
    assert result.returncode == 2 and "no such file" in result.stderr
    assert "Traceback" not in result.stderr
