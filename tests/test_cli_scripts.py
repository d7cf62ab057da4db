"""The command and the JSON for scripts: --version, --short, --format, the schema, the question
echoed, budgets' verdicts and ways (checked against tests/oracle.py, not the bot's code)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.replies.render_json import render_json
from tests import oracle
from tests.cases import intents
from tests.test_cli import run


def test_version() -> None:
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.startswith("mincards ") and "JSON schema 1" in result.stdout


def test_short_prints_only_the_lead() -> None:
    question = "can I LoRA qwen2.5-32b on 8 cards?"
    short = run("ask", "--short", question)
    full = json.loads(run("ask", "--json", question).stdout)
    assert short.returncode == 0 and short.stdout.rstrip("\n") == full["lead"]


@pytest.mark.parametrize(("question", "model", "strategy"), [
    ("qwen2.5-72b lora", "qwen2.5-72b", "lora"), ("DeepSeek-V3/R1 full", "DeepSeek-V3/R1", "full"),
    ("Qwen2.5-Coder-32B lora", "qwen2.5-32b", "lora")])
def test_format_csv_is_the_rows(question: str, model: str, strategy: str) -> None:
    result = run("ask", "--format", "csv", question)
    assert result.returncode == 0, result.stderr
    table = list(csv.reader(io.StringIO(result.stdout)))
    head, body = table[0], table[1:]
    assert head[:3] == ["model", "strategy", "seq_len"]
    want = oracle.select(model, strategy)
    assert [(r[1], int(r[2])) for r in body] == [(w.strategy, w.seq_len) for w in want]
    columns = [(fw, fl) for fw in oracle.frameworks() for fl in oracle.flavours()]
    for row, expected in zip(body, want, strict=True):
        counts = row[3:3 + len(columns)]
        assert counts == ["-" if (c := expected.counts[k]) is None else str(c) for k in columns]
    if "Coder" in question:
        # Another model's entries (a stand-in): a note column says whose they are not.
        assert head[-1] == "note" and all("Qwen2.5-Coder-32B" in row[-1] for row in body)


def test_format_markdown_pastes_as_a_table() -> None:
    result = run("ask", "--format", "markdown", "qwen2.5-72b lora")
    lines = result.stdout.splitlines()
    assert lines[0].startswith("| model |") and lines[1].startswith("|---|")
    assert len(lines) == 2 + len(oracle.select("qwen2.5-72b", "lora"))


def test_format_without_rows_prints_none_and_says_why_on_stderr() -> None:
    result = run("ask", "--format", "csv", "gpt-4o")
    assert result.returncode == 0 and result.stdout == ""
    assert "no entry" in result.stderr


@pytest.mark.parametrize("flags", [("--json", "--short"), ("--json", "--format", "csv"),
                                   ("--short", "--format", "markdown")])
def test_output_shapes_exclude_each_other(flags: tuple[str, ...]) -> None:
    result = run("ask", *flags, "qwen2.5-7b")
    assert result.returncode == 2 and "not allowed with" in result.stderr


def test_help_has_examples_and_the_exit_status() -> None:
    result = run("ask", "--help")
    assert "examples:" in result.stdout and "exit status" in result.stdout


def test_batch_echoes_each_question_and_goes_on_after_one_with_no_answer() -> None:
    lines = ["qwen2.5-7b lora", "gpt-4o", "", "what fits on 2 nodes?"]
    result = run("ask", "--json", "-", stdin="\n".join(lines) + "\n")
    payloads = [json.loads(x) for x in result.stdout.splitlines()]
    assert result.returncode == 0
    assert [p["question"] for p in payloads] == lines
    assert all(p["schema"] == 1 for p in payloads)
    assert [p["intent"] for p in payloads] == ["lookup", "not_found", "help", "capacity"]


def oracle_verdict(model: str, strategy: str | None, seq: int | None,
                   budget: tuple[int, str, str | None]) -> tuple[str, list[dict[str, Any]]]:
    space = oracle.room(*budget)
    ways = []
    fitting = 0
    for row in oracle.select(model, strategy, seq):
        got = oracle.fits(row, space)
        found = [{"model": row.model, "strategy": row.strategy, "seq_len": row.seq_len,
                  "framework": fw, "flavour": fl, "count": row.counts[(fw, fl)]}
                 for fw in oracle.frameworks() for fl in space if got[fw][fl]]
        ways += found
        fitting += bool(found)
    rows = len(oracle.select(model, strategy, seq))
    return ("no" if not fitting else "yes" if fitting == rows else "mixed"), ways


@pytest.mark.parametrize(("text", "model", "strategy", "seq", "budget"), intents.BUDGET)
def test_verdict_and_ways_from_the_table(engine: Engine, text: str, model: str,
                                         strategy: str | None, seq: int | None,
                                         budget: tuple[int, str, str | None]) -> None:
    payload = render_json(engine.knowledge, engine.ask(text))
    verdict, ways = oracle_verdict(model, strategy, seq, budget)
    assert (payload["verdict"], payload["ways"]) == (verdict, ways)


@pytest.mark.parametrize(("text", "verdict"), [
    ("qwen2.5-7b lora on 8 cards", "yes"), ("DeepSeek-V3 full on 8 cards", "no"),
    ("qwen2.5-72b on 16 cards", "mixed")])
def test_each_verdict(engine: Engine, text: str, verdict: str) -> None:
    assert render_json(engine.knowledge, engine.ask(text))["verdict"] == verdict


def test_best_is_the_fewest_per_flavour_from_the_table(engine: Engine) -> None:
    for model in oracle.table_models():
        payload = render_json(engine.knowledge, engine.ask(
            str(oracle.catalogue()[model]["display"])))
        if payload["intent"] != "lookup":
            continue
        rows = oracle.select(model)
        for flavour, info in oracle.flavours().items():
            # A count that is likely a source error is never `best` (it is in `suspect`).
            counts = [(c, fw) for r in rows for (fw, fl), c in r.counts.items()
                      if fl == flavour and c is not None and not oracle.suspect(r, fw, fl)]
            best = payload["best"][flavour]
            if not counts:
                assert best is None
                continue
            low = min(c for c, _ in counts)
            per_node = int(info["per_node"])  # type: ignore[call-overload]
            assert best["count"] == low and best["nodes"] == -(-low // per_node)
            assert best["frameworks"] == [fw for fw in oracle.frameworks()
                                          if any(c == low and f == fw for c, f in counts)]
            assert best["unit"] == ("die" if info.get("die_per_card") else "card")
