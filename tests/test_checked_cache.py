"""The checked-facts cache saves a start its checking, and never answers from an old copy."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from mincards.bot.errors import DataError
from mincards.bot.facts import checked_cache
from mincards.bot.facts.checked_cache import CACHE_ENV, KEEP_FILES, CheckedCache
from mincards.bot.facts.knowledge import DATA_FILES, FACTS_CODE, load_knowledge
from tests.process_exit import run_to_exit

ASK = ("import sys, json, io, contextlib\n"
       "from mincards.bot.cli import main\n"
       "out = io.StringIO()\n"
       "with contextlib.redirect_stdout(out):\n"
       "    main(sys.argv[1:])\n"
       "print(json.dumps({'answer': out.getvalue(), 'pydantic': 'pydantic' in sys.modules}))\n")


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    return folder


def ask(*args: str, env: dict[str, str]) -> dict[str, object]:
    run = run_to_exit([sys.executable, "-c", ASK, "ask", "--json", *args],
                      capture_output=True, text=True, env={**os.environ, **env}, check=True)
    result: dict[str, object] = json.loads(run.stdout)
    return result


def test_a_second_start_answers_the_same_without_checking_again(cache: Path) -> None:
    first = ask("qwen2.5 72b lora 8k", env={CACHE_ENV: str(cache)})
    second = ask("qwen2.5 72b lora 8k", env={CACHE_ENV: str(cache)})
    assert first["pydantic"] is True  # the files were checked...
    assert second["pydantic"] is False  # ...once
    assert first["answer"] == second["answer"]
    assert len(list(cache.glob("facts-*.pickle"))) == 1


def test_the_cache_can_be_turned_off(cache: Path, tmp_path: Path) -> None:
    for _ in range(2):
        assert ask("qwen2.5 72b", env={CACHE_ENV: "off"})["pydantic"] is True
    assert not cache.exists()


def _rewrite(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_an_edited_data_file_is_checked_afresh(cache: Path, data_copy: Path) -> None:
    row = next(e for e in load_knowledge(data_copy).table.entries_for("qwen2.5-72b")
               if e.strategy == "lora" and e.seq_len == 8192)
    assert row.count("mindspeed_llm", "snt9b") == 16
    _rewrite(data_copy / "table.csv", "qwen2.5-72b,lora,8192,16,", "qwen2.5-72b,lora,8192,24,")
    row = next(e for e in load_knowledge(data_copy).table.entries_for("qwen2.5-72b")
               if e.strategy == "lora" and e.seq_len == 8192)
    assert row.count("mindspeed_llm", "snt9b") == 24

    _rewrite(data_copy / "hardware.toml", 'display = "Snt9B"', 'display = "Snt9B (910B)"')
    assert load_knowledge(data_copy).flavour_display("snt9b") == "Snt9B (910B)"
    _rewrite(data_copy / "models.toml", 'size = "27b"', 'size = "huge"')
    with pytest.raises(DataError, match="huge"):
        load_knowledge(data_copy)  # a broken file is never answered from the copy before it


def test_what_the_cache_checks_is_every_data_file_and_the_code_that_reads_them() -> None:
    facts = Path(checked_cache.__file__).parent
    assert set(facts.glob("*.py")) <= set(FACTS_CODE)
    assert {p.name for p in FACTS_CODE} >= {"errors.py", "language.py", "knowledge.py"}
    assert set(DATA_FILES) == {"table.csv", "models.toml", "vocabulary.toml", "hardware.toml",
                               "stand_ins.toml", "tps.toml", "known_models.toml",
                               "estimator.toml"}


def made(value: object) -> tuple[list[object], Callable[[], object]]:
    """A maker that records each time it is called."""
    calls: list[object] = []

    def make() -> object:
        calls.append(value)
        return value

    return calls, make


def test_a_changed_input_or_a_damaged_file_is_never_taken(cache: Path, tmp_path: Path) -> None:
    source = tmp_path / "source.py"
    source.write_text("A = 1\n", encoding="utf-8")
    calls, make = made("from A = 1")
    assert CheckedCache("key", [source]).value(make) == "from A = 1"
    assert CheckedCache("key", [source]).value(make) == "from A = 1"
    assert len(calls) == 1
    CheckedCache("another key", [source]).value(make)
    assert len(calls) == 2

    source.write_text("A = 2\n", encoding="utf-8")  # the code changed: made again
    calls, make = made("from A = 2")
    assert CheckedCache("key", [source]).value(make) == "from A = 2"
    assert len(calls) == 1
    for kept in cache.glob("facts-*.pickle"):
        kept.write_bytes(b"not a pickle")
    assert CheckedCache("key", [source]).value(make) == "from A = 2"
    assert len(calls) == 2


def test_an_input_changed_while_making_is_not_kept(cache: Path, tmp_path: Path) -> None:
    source = tmp_path / "table.csv"
    source.write_text("old", encoding="utf-8")

    def import_lands_meanwhile() -> str:
        source.write_text("new", encoding="utf-8")
        return "made from old"

    assert CheckedCache("key", [source]).value(import_lands_meanwhile) == "made from old"
    assert CheckedCache("key", [source]).value(lambda: "made from new") == "made from new"


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_file_others_could_write_is_never_read(cache: Path, tmp_path: Path) -> None:
    source = tmp_path / "input"
    source.write_text("x", encoding="utf-8")
    CheckedCache("key", [source]).value(lambda: "kept")
    (kept,) = cache.glob("facts-*.pickle")
    assert kept.stat().st_mode & 0o077 == 0
    kept.chmod(0o666)
    assert CheckedCache("key", [source]).value(lambda: "made") == "made"
    assert kept.stat().st_mode & 0o077 == 0  # replaced by one only this user can write
    assert CheckedCache("key", [source]).value(lambda: "again") == "made"
    cache.chmod(0o777)
    assert CheckedCache("key", [source]).value(lambda: "open") == "open"
    cache.chmod(0o700)
    assert CheckedCache("key", [source]).value(lambda: "again") == "made"


def test_only_the_last_few_data_folders_are_kept(cache: Path, tmp_path: Path) -> None:
    source = tmp_path / "input"
    source.write_text("x", encoding="utf-8")
    for i in range(KEEP_FILES + 3):
        CheckedCache(f"folder {i}", [source]).value(lambda i=i: i)  # type: ignore[misc]
    assert len(list(cache.glob("facts-*"))) == KEEP_FILES


def test_a_cache_that_cannot_be_written_costs_only_time(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       data_copy: Path) -> None:
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv(CACHE_ENV, str(blocked))
    assert load_knowledge(data_copy).table.models()
    assert load_knowledge(data_copy).table.models()


def test_no_home_to_keep_it_in_means_no_cache_not_a_failure(
        monkeypatch: pytest.MonkeyPatch, data_copy: Path) -> None:
    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.delenv(CACHE_ENV, raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(Path, "home", no_home)
    assert checked_cache.cache_dir() is None
    assert load_knowledge(data_copy).table.models()
