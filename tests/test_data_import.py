"""`mincards import-table` into a data folder: all or nothing, removals guarded, summarised."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.facts.knowledge import (
    DATA_ENV,
    default_data_dir,
    is_installed_copy,
    load_knowledge,
)
from tests.conftest import NO_SHARED, SHARED
from tests.pages import SEED, text_page
from tests.process_exit import run_to_exit

MINCARDS = Path(sys.executable).with_name("mincards")


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_to_exit([str(MINCARDS), *args], capture_output=True, text=True, check=False,
                       env={**os.environ, **(env or {})})


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file under the folder, byte for byte."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def seed_plus(tmp_path: Path, rows: str, date: str = "2025-09-01") -> Path:
    """The seed page with rows added at the end of its table, dated anew."""
    text = SEED.read_text(encoding="utf-8").rstrip("\n") + "\n" + rows
    page = tmp_path / "page.txt"
    page.write_text(text.replace("时间：2025-06-24", f"时间：{date}"), encoding="utf-8")
    return page


def test_a_new_page_with_new_models_and_32k_is_one_command(data_copy: Path,
                                                           tmp_path: Path) -> None:
    page = seed_plus(tmp_path, "qwen3-72b\tfull\t4096\t32*Ascend\t\t64*Ascend\n"
                               "llama3.3-70b\tfull/lora\t4096/32k\t32*Ascend\t\t64*Ascend\n"
                               "qwen2.5_vl-32b\tlora\t4096\t-\t\t16*Ascend\n"
                               "qwen2.5-7b\tfull\t32768\t16*Ascend\t\t32*Ascend\n")
    result = run("import-table", str(page), "--data-dir", str(data_copy))
    assert result.returncode == 0, result.stderr
    # The summary: what was imported and what changed.
    assert "36 models, 131 entries" in result.stdout
    assert "models added (3): qwen3-72b, llama3.3-70b, qwen2.5_vl-32b" in result.stdout
    assert "entries: 7 added, 0 removed" in result.stdout
    assert "added 3 new model(s)" in result.stdout
    engine = Engine(load_knowledge(data_copy))
    assert engine.knowledge.table.source.date_text() == "2025-09-01"
    answer = engine.ask("Qwen3-72B full")
    assert answer.models == ("qwen3-72b",)
    row = answer.rows[0]
    assert (row.count("mindspeed_llm", "snt9b"), row.count("llama_factory", "snt9b")) == (32, 64)
    assert engine.knowledge.catalogue["llama3.3-70b"].display == "Llama-3.3-70B"
    assert engine.ask("llama 3.3 70b lora 32k").rows[0].seq_len == 32768
    # A model the page now lists is its own entry, no longer a stand-in's.
    assert engine.ask("Llama-3.3-70B-Instruct lora").stand_in is None
    # A new catalogue entry says what kind of model it is, for brackets.
    assert engine.knowledge.catalogue["qwen2.5_vl-32b"].kind == "vl"
    assert engine.knowledge.catalogue["qwen3-72b"].kind == "text"
    assert engine.ask("qwen2.5-vl-32b lora").models == ("qwen2.5_vl-32b",)
    assert engine.ask("qwen2.5-7b full 32k").intent == "lookup"
    assert engine.ask("qwen 2.5 72b lora 8k").rows[0].count("llama_factory", "snt9b") == 32
    # A second import of the same page changes nothing.
    before = fingerprint(data_copy)
    again = run("import-table", str(page), "--data-dir", str(data_copy))
    assert again.returncode == 0 and "no differences" in again.stdout
    assert fingerprint(data_copy) == before


@pytest.mark.parametrize(("rows", "message"), [
    pytest.param("baichuan2-13b\tfull\t4096\t8*Ascend\t\t-\n", "cannot tell the family of",
                 id="unknown-family"),
    pytest.param("qwen3-72b\tgrpo\t4096\t8*Ascend\t\t-\n", "unknown strategy 'grpo'",
                 id="unknown-strategy"),
    pytest.param("qwen3-72b\tfull\t4096\tsome\t\t-\n", "not a card count", id="bad-count"),
])
def test_a_failing_import_leaves_the_folder_byte_identical(data_copy: Path, tmp_path: Path,
                                                           rows: str, message: str) -> None:
    (data_copy / "source" / "notes.txt").write_text("kept\n", encoding="utf-8")
    before = fingerprint(data_copy)
    # New models before the bad row: a half-done import would have written their entries.
    page = seed_plus(tmp_path, "qwen3-72b\tfull\t8192\t32*Ascend\t\t64*Ascend\n" + rows)
    result = run("import-table", str(page), "--data-dir", str(data_copy))
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr
    assert fingerprint(data_copy) == before
    assert not [p for p in data_copy.iterdir() if p.name.startswith(".")]


def test_an_unknown_flavour_leaves_the_folder_as_it_was(data_copy: Path, tmp_path: Path) -> None:
    before = fingerprint(data_copy)
    page = tmp_path / "page.txt"
    page.write_text(text_page(["MindSpeed-LLM"], ["qwen2-7b\tfull\t4096\t4*Ascend\t\t8*Ascend"],
                              flavours=("Snt9B", "Snt9C")), encoding="utf-8")
    result = run("import-table", str(page), "--data-dir", str(data_copy), "--allow-removals")
    assert result.returncode == 2 and "[flavours.snt9c]" in result.stderr
    assert fingerprint(data_copy) == before


@pytest.fixture()
def may_page() -> Path:
    page = SHARED / "pages" / "modelarts-2025-05-07.txt"
    if not page.exists():
        pytest.skip(NO_SHARED)
    return page


def test_an_older_page_is_refused_unless_allowed(data_copy: Path, may_page: Path) -> None:
    before = fingerprint(data_copy)
    result = run("import-table", str(may_page), "--data-dir", str(data_copy),
                 "--allow-removals")
    assert result.returncode == 2
    assert "2025-05-07" in result.stderr and "--allow-older" in result.stderr
    assert fingerprint(data_copy) == before


def test_removals_stop_the_import_and_are_listed(data_copy: Path, may_page: Path) -> None:
    before = fingerprint(data_copy)
    result = run("import-table", str(may_page), "--data-dir", str(data_copy), "--allow-older")
    assert result.returncode == 2
    for removed in ("model qwen3-32b", "model gemma3-27b", "framework llama_factory"):
        assert removed in result.stderr
    assert "--allow-removals" in result.stderr
    assert fingerprint(data_copy) == before


def test_allowed_removals_keep_catalogue_entries_for_other_versions(data_copy: Path,
                                                                    may_page: Path) -> None:
    catalogue = (data_copy / "models.toml").read_text(encoding="utf-8")
    result = run("import-table", str(may_page), "--data-dir", str(data_copy), "--allow-removals",
                 "--allow-older")
    assert result.returncode == 0, result.stderr
    assert "frameworks removed (1): Llama-Factory (llama_factory)" in result.stdout
    assert "numbers changed: 8" in result.stdout
    # Aliases are hand work: the models this version lacks keep their entries.
    assert (data_copy / "models.toml").read_text(encoding="utf-8") == catalogue
    engine = Engine(load_knowledge(data_copy))
    answer = engine.ask("Qwen/Qwen2-VL-7B-Instruct lora")
    assert answer.intent == "not_found" and answer.rows == ()
    note = answer.note("not_in_version")
    assert note is not None and note.args == {"models": ["qwen2vl-7b"], "date": "2025-05-07"}
    assert answer.candidates and "qwen2vl-7b" not in answer.candidates
    assert engine.ask("qwen2.5-7b full 4096").rows[0].count("mindspeed_llm", "snt9b") == 2


def test_check_reports_whether_the_folder_holds_the_page(data_copy: Path, tmp_path: Path) -> None:
    assert run("import-table", str(SEED), "--check", "--data-dir", str(data_copy)
               ).returncode == 0
    page = seed_plus(tmp_path, "qwen3-72b\tfull\t4096\t32*Ascend\t\t64*Ascend\n")
    before = fingerprint(data_copy)
    result = run("import-table", str(page), "--check", "--data-dir", str(data_copy))
    assert result.returncode == 1 and "models added (1): qwen3-72b" in result.stderr
    assert fingerprint(data_copy) == before


def test_a_page_without_a_date_asks_for_one(data_copy: Path, tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(SEED.read_text(encoding="utf-8").replace("时间：2025-06-24 10:36:34", ""),
                    encoding="utf-8")
    result = run("import-table", str(page), "--data-dir", str(data_copy))
    assert result.returncode == 2 and "--date" in result.stderr
    dated = run("import-table", str(page), "--data-dir", str(data_copy), "--date", "2025-07-01")
    assert dated.returncode == 0, dated.stderr
    assert load_knowledge(data_copy).table.source.date_text() == "2025-07-01"


def test_data_dir_before_or_after_the_command_and_over_the_variable(data_copy: Path,
                                                                    tmp_path: Path) -> None:
    page = seed_plus(tmp_path, "qwen3-72b\tfull\t4096\t32*Ascend\t\t64*Ascend\n")
    assert run("import-table", str(page), "--data-dir", str(data_copy)).returncode == 0
    elsewhere = {DATA_ENV: str(default_data_dir())}
    for args in (["--data-dir", str(data_copy), "ask", "qwen3-72b full"],
                 ["ask", "qwen3-72b full", "--data-dir", str(data_copy)]):
        result = run(*args, env=elsewhere)
        assert result.returncode == 0 and "Qwen3-72B" in result.stdout, args
    assert "no entry" in run("ask", "qwen3-72b full", env=elsewhere).stdout
    assert "Qwen3-72B" in run("ask", "qwen3-72b full", env={DATA_ENV: str(data_copy)}).stdout
    missing = run("--data-dir", str(tmp_path / "nowhere"), "ask", "qwen 7b")
    assert missing.returncode == 2 and "no such data folder" in missing.stderr


@pytest.fixture()
def installed_data() -> Iterator[Path]:
    """A data folder inside this environment's site-packages, as an installed package has."""
    target = Path(sysconfig.get_paths()["purelib"]) / "mincards-test-data"
    shutil.copytree(default_data_dir(), target)
    try:
        yield target
    finally:
        shutil.rmtree(target, ignore_errors=True)


def test_the_installed_packages_own_data_is_never_written(installed_data: Path) -> None:
    assert is_installed_copy(installed_data) and not is_installed_copy(default_data_dir())
    before = fingerprint(installed_data)
    result = run("import-table", str(SEED), env={DATA_ENV: str(installed_data)})
    assert result.returncode == 2 and "--data-dir" in result.stderr
    assert fingerprint(installed_data) == before
