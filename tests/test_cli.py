"""The `mincards` command as a person or a script runs it: a real process, real stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mincards.bot.facts.knowledge import DATA_ENV, default_data_dir
from tests.conftest import ROOT, SHARED, needs_shared
from tests.process_exit import run_to_exit

MINCARDS = Path(sys.executable).with_name("mincards")


def run(*args: str, stdin: str | None = None, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, **(env or {})}
    return run_to_exit([str(MINCARDS), *args], input=stdin, capture_output=True, text=True,
                       env=full_env, check=False)


def test_ask_prints_plain_text() -> None:
    result = run("ask", "qwen 2.5 72b lora 8k?")
    assert result.returncode == 0, result.stderr
    assert "Qwen2.5-72B" in result.stdout and "16 cards" in result.stdout


def test_ask_json_prints_one_object() -> None:
    result = run("ask", "--json", "Qwen/Qwen2.5-72B-Instruct 全参 需要几张卡")
    payload = json.loads(result.stdout)
    assert payload["intent"] == "lookup" and payload["models"] == ["qwen2.5-72b"]
    assert {r["strategy"] for r in payload["rows"]} == {"full"}
    assert "节点" in payload["text"]


def test_ask_json_stdin_answers_each_line_in_order() -> None:
    questions = ["qwen 7b", "", "qwen2.5-3b", "mixtral lora", "list", "llama3.1-70b full 4k"]
    result = run("ask", "--json", "-", stdin="\n".join(questions) + "\n")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(questions)
    intents = [json.loads(line)["intent"] for line in lines]
    assert intents == ["ambiguous", "help", "not_found", "not_covered", "list", "lookup"]
    last = json.loads(lines[-1])
    assert last["rows"][0]["llama_factory"] == {"snt9b": 64, "snt9b23": 64}


def test_ask_does_not_import_slack() -> None:
    code = ("import sys; from mincards.bot.cli import main; main(['ask', 'qwen2.5-7b']); "
            "bad = [m for m in sys.modules if m.startswith(('slack', 'gunicorn'))]; "
            "sys.exit(1 if bad else 0)")
    result = run_to_exit([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_broken_data_stops_with_a_clear_error(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    for name in ("models.toml", "vocabulary.toml", "hardware.toml"):
        (data / name).write_text((default_data_dir() / name).read_text(encoding="utf-8"),
                                 encoding="utf-8")
    table = (default_data_dir() / "table.csv").read_text(encoding="utf-8")
    (data / "table.csv").write_text(table.replace("glm4-9b,full,4096,8,8,8,8",
                                                  "glm4-9b,full,4096,8,8,eight,8"),
                                    encoding="utf-8")
    result = run("ask", "glm4 9b", env={DATA_ENV: str(data)})
    assert result.returncode == 2
    assert "table.csv, line" in result.stderr and "llama_factory.snt9b" in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_import_table_writes_into_the_data_folder_given(data_copy: Path) -> None:
    source = default_data_dir() / "source" / "modelarts-2025-06-24.txt"
    (data_copy / "table.csv").unlink()
    result = run("import-table", str(source), "--data-dir", str(data_copy))
    assert result.returncode == 0, result.stderr
    assert "33 models, 124 entries" in result.stdout
    assert (data_copy / "table.csv").read_text(encoding="utf-8") == (
        default_data_dir() / "table.csv").read_text(encoding="utf-8")
    assert run("--data-dir", str(data_copy), "import-table", str(source), "--check"
               ).returncode == 0
    assert run("import-table", str(source), "--check").returncode == 0


def test_import_table_reports_bad_text(data_copy: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("not a table\n", encoding="utf-8")
    before = (data_copy / "table.csv").read_bytes()
    result = run("import-table", str(bad), "--data-dir", str(data_copy))
    assert result.returncode == 2 and "no table found" in result.stderr
    assert "Traceback" not in result.stderr
    assert (data_copy / "table.csv").read_bytes() == before


CHECKER = SHARED / "eval" / "check_answers.py"


@needs_shared("eval", "check_answers.py")
@pytest.mark.parametrize("cases", [SHARED / "eval" / "dev_cases.py",
                                   ROOT / "tests" / "cases" / "paraphrases.py"],
                         ids=["dev-cases", "paraphrases"])
def test_eval_cases_score_full_marks(cases: Path) -> None:
    result = run_to_exit([sys.executable, str(CHECKER), str(cases), "--show"],
                         capture_output=True, text=True, check=False,
                         env={**os.environ, "MINCARDS": str(MINCARDS)})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "accuracy: 100.0%" in result.stdout
