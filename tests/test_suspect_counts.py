"""A count the table makes suspect (full fine-tuning listed below LoRA) is shown where it
belongs, marked, and never answers: never the lead, `best`, bold, a fit, a capacity headline
or a plan's minimum. Expected counts come from tests/oracle.py."""

from __future__ import annotations

import csv
import io
import json

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.replies.render_blocks import message
from mincards.bot.replies.render_json import render_json
from mincards.bot.replies.render_rows import render_rows
from mincards.bot.replies.render_text import render_text
from tests import oracle
from tests.blockkit import assert_valid_message

SUSPECT_ROWS = [r for r in oracle.rows() if any(oracle.suspect(r, fw, fl)
                                                for fw, fl in r.counts)]


def test_the_table_has_the_known_source_error() -> None:
    assert {r.key for r in SUSPECT_ROWS} == {("qwen2-7b", "full", 4096),
                                             ("qwen2-7b", "full", 8192)}


@pytest.mark.parametrize("text", [
    "qwen2-7b full llama-factory", "qwen2 7b full-parameter minimum npus", "qwen2-7b",
    "Qwen/Qwen2-7B-Instruct 全参 需要几张卡", "qwen2-7b 全参 llama-factory 8k",
])
def test_never_the_lead_nor_best_nor_bold(engine: Engine, text: str) -> None:
    answer = engine.ask(text)
    payload = render_json(engine.knowledge, answer)
    suspect = {(s["framework"], s["flavour"], s["count"]) for s in payload["suspect"]}
    assert suspect, text
    for flavour, best in payload["best"].items():
        if best is None:
            continue
        assert not any(fw in best["frameworks"] and fl == flavour and c == best["count"]
                       and all(oracle.suspect(r, fw, fl) for r in SUSPECT_ROWS)
                       for fw, fl, c in suspect)
        clean = [oracle.fewest(r, flavour) for r in oracle.rows()
                 if r.key in {(x["model"], x["strategy"], x["seq_len"]) for x in payload["rows"]}]
        assert best["count"] == min(c for c in clean if c is not None)
    blocks = message(engine.knowledge, answer)
    assert_valid_message(blocks)
    shown = json.dumps(blocks["blocks"], ensure_ascii=False)
    assert "*1 · 1 node" not in shown and "*2 · 1 card" not in shown
    assert "*1 card" not in payload["lead"] and not payload["lead"].startswith("Qwen2-7B needs "
                                                                              "at least 1 card")


def test_only_a_suspect_count_leaves_nothing_to_plan_on(engine: Engine) -> None:
    payload = render_json(engine.knowledge, engine.ask("qwen2-7b full llama-factory"))
    assert payload["best"] == {"snt9b": None, "snt9b23": None}
    assert "no count to plan on" in payload["lead"] and "likely" in payload["lead"]
    zh = render_json(engine.knowledge, engine.ask("qwen2-7b 全参 llama-factory"))
    assert "没有可以据以规划的卡数" in zh["lead"]
    # Said once: the lead's caveat is not repeated as a note below.
    assert payload["text"].count("error in the source") == 1


@pytest.mark.parametrize("fmt", ["markdown", "csv"])
def test_pasteable_rows_mark_it(engine: Engine, fmt: str) -> None:
    out = render_rows(engine.knowledge, engine.ask("qwen2-7b full"), fmt)
    if fmt == "markdown":
        assert out.count("(likely a source error)") == 4
    else:
        head, *lines = out.splitlines()
        assert head.endswith(",note")
        assert all(line.endswith('"likely a source error: Llama-Factory Snt9B, '
                                 'Llama-Factory Snt9B23"') for line in lines)
        # The counts themselves stay numbers.
        assert all(line.split(",")[5:7] == ["1", "2"] for line in lines)


def test_text_rows_mark_it_in_place(engine: Engine) -> None:
    text = render_text(engine.knowledge, engine.ask("qwen2-7b full 4k"))
    assert ("Llama-Factory\n  full-parameter · 4K: Snt9B 1 card, 1 node (likely a source error)"
            in text)


@pytest.mark.parametrize(("text", "count", "unit"), [
    ("what can I full finetune on 2 cards", 2, "card"),
    ("2卡能全参训练哪些模型", 2, "card"),
    ("what fits in 1 card for full?", 1, "card"),
])
def test_never_a_fit_nor_counted_in_capacity(engine: Engine, text: str, count: int,
                                            unit: str) -> None:
    answer = engine.ask(text)
    payload = render_json(engine.knowledge, answer)
    got = [(r["model"], r["strategy"], r["seq_len"]) for r in payload["rows"]]
    assert got == [r.key for r in oracle.capacity(count, unit, strategy="full")]
    only_suspect = [r.key for r in SUSPECT_ROWS if r.key not in got
                    and any(v for by in oracle.fits(r, oracle.room(count, unit)).values()
                            for v in by.values())]
    note = next((n for n in payload["notes"] if n["kind"] == "suspect_fit"), None)
    assert (note is not None) == bool(only_suspect)
    if note is not None:
        assert [tuple(e) for e in note["entries"]] == only_suspect


def test_never_a_verdict_s_yes(engine: Engine) -> None:
    # Only Llama-Factory's 1 card (likely wrong) is within 1 card on Snt9B.
    payload = render_json(engine.knowledge, engine.ask("qwen2-7b full 4k llama-factory on 1 card"))
    assert payload["verdict"] == "no" and payload["ways"] == []


def test_never_a_plan_s_minimum(engine: Engine) -> None:
    answer = engine.ask("how long: qwen2-7b full 4k, 1B tokens, TPS 2000, 8 cards")
    assert answer.plan is not None
    minimum = {side.flavour: side.minimum for side in answer.plan.flavours}
    assert minimum["snt9b"] is not None and minimum["snt9b"].count == oracle.fewest(
        next(r for r in oracle.rows() if r.key == ("qwen2-7b", "full", 4096)), "snt9b")


@pytest.mark.parametrize(("text", "choices"), [
    ("qwen 7b", ["Qwen2.5-7B", "Qwen2-7B", "Qwen2.5-VL-7B", "Qwen2-VL-7B"]),
    ("千问 7B 需要几张卡", ["Qwen2.5-7B", "Qwen2-7B"]),
])
def test_the_short_form_names_the_choices(engine: Engine, text: str,
                                          choices: list[str]) -> None:
    from mincards.bot.replies.lead import short_text

    short = short_text(engine.knowledge, engine.ask(text))
    assert "\n" not in short and all(c in short for c in choices)
    blocks = message(engine.knowledge, engine.ask(text))
    assert all(c in blocks["text"] for c in choices)  # the notification stands alone


@pytest.mark.parametrize(("text", "says"), [
    ("Qwen2.5-Coder-32B lora", "the table has none for Qwen2.5-Coder-32B"),
    ("mistral 7b lora 4k", "not a table entry for it"),
    ("qwen2.5-7b-instruct-awq lora", "quantized copy"),
])
def test_pasted_markdown_keeps_whose_entries_they_are(engine: Engine, text: str,
                                                      says: str) -> None:
    out = render_rows(engine.knowledge, engine.ask(text), "markdown")
    first = out.splitlines()[0]
    assert first.startswith("> ") and says in first
    csv_out = render_rows(engine.knowledge, engine.ask(text), "csv")
    if "quantized" not in says:
        assert csv_out.splitlines()[0].endswith(",note")


def test_pasted_rows_of_a_budget_say_where_they_fit(engine: Engine) -> None:
    out = render_rows(engine.knowledge, engine.ask("what can I train on 16 cards"), "csv")
    rows = list(csv.reader(io.StringIO(out)))
    head, body = rows[0], rows[1:]
    assert "fits" in head and body
    # Every row fits somewhere (a capacity answer lists only those).
    assert all(row[head.index("fits")] for row in body)


@pytest.mark.parametrize("text", ["what can I train on 16 cards?", "16卡能训练哪些模型"])
def test_capacity_says_when_only_some_strategies_fit(engine: Engine, text: str) -> None:
    answer = engine.ask(text)
    body = render_text(engine.knowledge, answer)
    line = next(x for x in body.splitlines() if x.startswith("- Qwen2.5-72B"))
    # On 16 Snt9B cards only LoRA of Qwen2.5-72B fits (full needs 32): said beside the count.
    full = [r for r in oracle.rows() if r.key[:2] == ("qwen2.5-72b", "full")]
    assert all(not any(v for by in oracle.fits(r, oracle.room(16, "card", "snt9b")).values()
                       for v in by.values()) for r in full)
    assert "LoRA only" in line or "仅 LoRA" in line
    blocks = message(engine.knowledge, answer)
    # The Slack reply says it too, on the model's own line.
    said = [line for b in blocks["blocks"] if b["type"] == "section" and "text" in b
            for line in b["text"]["text"].split("\n") if line.startswith("• Qwen2.5-72B")]
    assert len(said) == 1 and ("LoRA only" in said[0] or "仅 LoRA" in said[0])
    # Over the budget is said in words, never the source's "-" (not supported).
    assert " -" not in json.dumps(blocks["blocks"], ensure_ascii=False)
    assert_valid_message(blocks)
