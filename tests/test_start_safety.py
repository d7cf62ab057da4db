"""Starting safely (issue: start and recover without surprises): the checked-facts cache files a
value only under the bytes it was made from, checks a digest before using what it recalls, and
data files are read only when they are plain files within the bound."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.facts import knowledge as knowledge_module
from mincards.bot.facts.checked_cache import CACHE_ENV, CheckedCache
from mincards.bot.facts.knowledge import load_knowledge
from mincards.bot.replies.render_json import render_json
from tests.process_exit import run_to_exit

MINCARDS = Path(sys.executable).with_name("mincards")
QUESTION = "qwen2.5-72b lora 8k"


def fewest(data: Path) -> int:
    """What a fresh process, starting from the cache, answers for QUESTION on Snt9B."""
    import json

    run = run_to_exit([str(MINCARDS), "--data-dir", str(data), "ask", "--json", QUESTION],
                      capture_output=True, text=True, check=True,
                      env={**os.environ})
    return int(json.loads(run.stdout)["best"]["snt9b"]["count"])


def edited_table(data: Path, count: str) -> bytes:
    """table.csv's bytes with QUESTION's MindSpeed-LLM Snt9B count set to `count`."""
    lines = (data / "table.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    out = []
    for line in lines:
        if line.startswith("qwen2.5-72b,lora,8192,"):
            cells = line.rstrip("\n").split(",")
            cells[3] = count
            line = ",".join(cells) + "\n"
        out.append(line)
    return "".join(out).encode("utf-8")


def test_a_file_swapped_back_and_forth_during_a_start_never_files_the_wrong_facts(
        data_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A -> B -> A while the facts are made: they are made from A's bytes, which they are
    filed under; before, B's facts were filed under A (1 card answered where A says 16)."""
    cache = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(cache))
    table = data_copy / "table.csv"
    a, b = table.read_bytes(), edited_table(data_copy, "1")
    assert a != b
    real = knowledge_module.load_table

    def swapped_meanwhile(path: Path, **kw: object) -> object:
        table.write_bytes(b)  # an import lands...
        try:
            return real(path, **kw)  # type: ignore[arg-type]
        finally:
            table.write_bytes(a)  # ...and is undone before the start ends

    monkeypatch.setattr(knowledge_module, "load_table", swapped_meanwhile)
    made = load_knowledge(data_copy)
    assert {e.key: e for e in made.table.entries}[("qwen2.5-72b", "lora", 8192)].count(
        "mindspeed_llm", "snt9b") == 16
    monkeypatch.undo()
    os.environ[CACHE_ENV] = str(cache)
    try:
        assert fewest(data_copy) == 16  # a later start, from the cache
    finally:
        del os.environ[CACHE_ENV]


def test_flipped_bits_in_the_cache_file_are_made_again_never_used(
        data_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(cache))
    expected = render_json((engine := Engine(load_knowledge(data_copy))).knowledge,
                           engine.ask(QUESTION))["best"]
    (kept,) = cache.glob("facts-*.pickle")
    good = kept.read_bytes()
    size = len(good)
    # Bits across the file: its header, its digest, the inputs and the value.
    positions = sorted({0, 5, 30, 40, 60, *range(100, size, max(1, size // 36))})
    for at in positions:
        flipped = bytearray(good)
        flipped[at] ^= 1 << (at % 8)
        kept.write_bytes(bytes(flipped))
        recalled = load_knowledge(data_copy)
        answer = Engine(recalled).ask(QUESTION)
        assert render_json(recalled, answer)["best"] == expected, at
    assert len(positions) >= 35


def test_a_kept_value_this_code_would_not_make_is_made_again(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    source = tmp_path / "input"
    source.write_text("x", encoding="utf-8")
    CheckedCache("key", [source]).value(lambda: "not what is wanted")
    again = CheckedCache("key", [source]).value(lambda: ("made",),
                                               accept=lambda v: isinstance(v, tuple))
    assert again == ("made",)


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "folder"])
def test_a_data_file_that_is_not_a_plain_file_is_one_line(data_copy: Path, kind: str) -> None:
    target = data_copy / "vocabulary.toml"
    target.unlink()
    if kind == "dev-zero":
        target.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        target.mkdir()
    for cache in ("off", ""):
        env = {**os.environ, CACHE_ENV: cache or str(data_copy.parent / "cache")}
        run = run_to_exit([str(MINCARDS), "--data-dir", str(data_copy), "ask", QUESTION],
                          capture_output=True, text=True, check=False, env=env)
        assert run.returncode == 2
        assert run.stderr.count("\n") == 1 and "vocabulary.toml" in run.stderr, run.stderr
        assert "not a regular file" in run.stderr and "Traceback" not in run.stderr


def test_the_cache_setting_is_read_as_people_write_it(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from mincards.bot.facts.checked_cache import cache_dir

    for off in ("false", "False", "off", "0", "no", " "):
        monkeypatch.setenv(CACHE_ENV, off)
        assert cache_dir() is None
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv(CACHE_ENV, "~/facts-cache")
    assert cache_dir() == tmp_path / "facts-cache"


def test_a_partial_file_left_by_a_killed_start_is_removed(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    monkeypatch.setenv(CACHE_ENV, str(cache))
    child = subprocess.Popen(["true"])  # its pid is one that is gone once it has exited
    child.wait()
    left = cache / f"facts-0000abcd.pickle.{child.pid}.partial"
    left.write_bytes(b"half a file")
    alive = cache / f"facts-0000abce.pickle.{os.getpid()}.partial"
    alive.write_bytes(b"being written")
    source = tmp_path / "input"
    source.write_text("x", encoding="utf-8")
    CheckedCache("key", [source]).value(lambda: "kept")
    assert not left.exists() and alive.exists()
    shutil.rmtree(cache)
