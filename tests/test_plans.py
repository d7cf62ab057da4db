"""Plans: time and cluster size by the page's formula, checked against tests/oracle.py, which
computes them from table.csv and hardware.toml with none of the bot's code."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from mincards.bot.answering.conversation import Context, context_after
from mincards.bot.answering.engine import Engine
from mincards.bot.facts.knowledge import PACKAGE_DATA, load_knowledge
from mincards.bot.replies.render_json import render_json
from mincards.bot.replies.render_text import render_text
from tests import oracle

FLAVOURS = list(oracle.flavours())


def ask(engine: Engine, text: str, previous: Context | None = None) -> dict[str, Any]:
    return render_json(engine.knowledge, engine.ask(text, previous))


def selected(payload: dict[str, Any]) -> list[oracle.Row]:
    keys = {(r["model"], r["strategy"], r["seq_len"]) for r in payload["rows"]}
    return [r for r in oracle.rows() if r.key in keys]


# --- the worked examples ---------------------------------------------------------------

def test_worked_example_time_on_a_budget(engine: Engine) -> None:
    payload = ask(engine, "how long will qwen2.5-72b lora take on 32 cards, 1M samples of 2k "
                          "tokens, 3 epochs at TPS 1800?")
    assert payload["intent"] == "plan" and payload["models"] == ["qwen2.5-72b"]
    plan = payload["plan"]
    assert plan["tokens"] == 1_000_000 * 2_000 * 3
    assert (plan["tps"], plan["tps_source"], plan["efficiency"]) == (1800, "question", 0.9)
    assert plan["missing"] == []
    snt9b, snt9b23 = plan["flavours"]["snt9b"], plan["flavours"]["snt9b23"]
    assert (snt9b["count"], snt9b["unit"], snt9b["hours"]) == (32, "card", 32.15)
    assert (snt9b23["count"], snt9b23["unit"], snt9b23["hours"]) == (64, "die", 16.08)
    assert "32.15" in payload["lead"] and "16.08" in payload["lead"]


def test_worked_example_count_from_a_deadline(engine: Engine) -> None:
    payload = ask(engine, "qwen2.5-72b lora, 2B tokens at TPS 1500, done within 24 h?")
    flavours = payload["plan"]["flavours"]
    assert [(f["count"], f["hours"]) for f in flavours.values()] == [(24, 17.15), (24, 17.15)]
    assert flavours["snt9b"]["nodes"] == 3 and flavours["snt9b23"]["nodes"] == 2


# --- the formula over the table ----------------------------------------------------------------

MODELS = ["qwen2.5-7b", "qwen2.5-72b", "llama3.1-70b", "qwen3_moe-30B_A3B", "DeepSeek-V3/R1",
          "llama3.2-1b", "qwen2vl-2b"]


def _name(model: str) -> str:
    return str(oracle.catalogue()[model]["display"])


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(("budget", "unit"), [(8, "card"), (48, "card"), (64, "die"),
                                              (3, "node")])
@pytest.mark.parametrize(("tokens", "said", "tps"), [(5 * 10**8, "500M tokens", 2000),
                                                     (3 * 10**9, "3B tokens", 1234.5)])
def test_time_at_a_budget(engine: Engine, model: str, budget: int, unit: str, tokens: int,
                          said: str, tps: float) -> None:
    words = {"card": "cards", "die": "DIE", "node": "nodes"}[unit]
    payload = ask(engine, f"how long for {_name(model)} lora on {budget} {words}, {said}, "
                          f"TPS {tps}")
    assert payload["intent"] == "plan"
    want_rows = oracle.select(model, "lora")
    assert [tuple(r.key) for r in selected(payload)] == [r.key for r in want_rows]
    room = oracle.room(budget, unit)
    plan = payload["plan"]
    assert set(plan["flavours"]) == set(room)
    for flavour, count in room.items():
        got = plan["flavours"][flavour]
        minimum = oracle.plan_minimum(want_rows, flavour)
        assert got["count"] == count and got["nodes"] == oracle.nodes(flavour, count)
        assert (got["minimum"] or {}).get("count") == minimum
        if minimum is not None and count < minimum:
            assert got["hours"] is None
            assert any(n["kind"] == "plan_below_minimum" and n["flavour"] == flavour
                       for n in payload["notes"])
        else:
            assert got["hours"] == oracle.plan_hours(tokens, tps, count)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(("deadline", "said"), [(24, "within 24 h"), (72, "in 3 days"),
                                                (1, "in under 1 hour"), (168, "一周内")])
@pytest.mark.parametrize(("tokens", "data", "tps"), [
    (2 * 10**9, "2B tokens", 1500), (10**6 * 2_000 * 2, "1M samples of 2k tokens, 2 epochs", 900),
    (50_000 * 512, "50000 samples, 512 tokens each", 3000)])
def test_count_from_a_deadline(engine: Engine, model: str, deadline: int, said: str,
                               tokens: int, data: str, tps: int) -> None:
    payload = ask(engine, f"{_name(model)} full, {data}, TPS {tps}, {said}: how many cards?")
    assert payload["intent"] == "plan"
    assert payload["plan"]["tokens"] == tokens
    rows = selected(payload)
    for flavour in FLAVOURS:
        got = payload["plan"]["flavours"][flavour]
        minimum = oracle.plan_minimum(rows, flavour)
        if minimum is None:
            continue
        count = oracle.plan_count(tokens, deadline, tps, flavour, minimum)
        assert got["count"] == count, flavour
        assert got["hours"] == oracle.plan_hours(tokens, tps, count)
        assert got["hours"] <= deadline or count == minimum


def test_the_minimum_follows_the_named_framework_and_a_1_die_entry_counts_as_2(
        engine: Engine) -> None:
    payload = ask(engine, "llama3.2-1b full with llama-factory, 1B tokens, TPS 5000, how long "
                          "on 1 node?")
    rows = selected(payload)
    for flavour in FLAVOURS:
        got = payload["plan"]["flavours"][flavour]["minimum"]
        assert got["count"] == oracle.plan_minimum(rows, flavour, ["llama_factory"])
        assert got["framework"] == "llama_factory"
    assert payload["plan"]["flavours"]["snt9b23"]["minimum"]["count"] >= 2


@pytest.mark.parametrize(("text", "seq"), [
    ("qwen2.5-7b lora, 1M samples of 2k tokens, TPS 3000, on 8 cards, how long?", 4096),
    ("qwen2.5-7b lora, 100k samples of 6000 tokens each, TPS 3000, on 8 cards: how long?",
         8192),
    ("how long: qwen2.5-7b lora 4k, 100k samples of 6000 tokens each, TPS 3000, 8 cards",
         4096),
])
def test_the_entry_is_the_asked_length_else_each_samples_tokens(
        engine: Engine, text: str, seq: int) -> None:
    payload = ask(engine, text)
    assert {r["seq_len"] for r in payload["rows"]} == {seq}


def test_without_a_length_or_samples_every_listed_length_counts(engine: Engine) -> None:
    payload = ask(engine, "qwen2.5-72b full, 5B tokens, TPS 1000, within 2 days")
    assert {r["seq_len"] for r in payload["rows"]} == {r.seq_len for r in
                                                       oracle.select("qwen2.5-72b", "full")}


# --- what is missing, what is stated ------------------------------------------------------------

def test_without_tps_the_reply_asks_for_it_and_fills_the_formula(engine: Engine) -> None:
    answer = engine.ask("how long to train qwen2.5-72b lora on 32 cards, 2B tokens?")
    payload = render_json(engine.knowledge, answer)
    plan = payload["plan"]
    assert plan["missing"] == ["tps"] and plan["tps"] is None and plan["tps_source"] is None
    assert all(f["hours"] is None for f in plan["flavours"].values())
    text = render_text(engine.knowledge, answer)
    assert "2,000,000,000 / (TPS × 32 × 0.9)" in text
    assert "benchmark" in payload["lead"]  # where a TPS comes from


def test_how_long_alone_asks_for_everything_after_the_tables_numbers(engine: Engine) -> None:
    payload = ask(engine, "qwen2.5-7b lora 要多久")
    assert payload["intent"] == "plan"
    assert payload["plan"]["missing"] == ["tokens", "tps", "count_or_deadline"]
    assert payload["lead"].startswith("Qwen2.5-7B")


def test_samples_without_tokens_each_are_never_tokens(engine: Engine) -> None:
    payload = ask(engine, "qwen2.5-7b lora, 200k samples, TPS 3000, 8 cards, how long?")
    assert payload["plan"]["tokens"] is None and "tokens" in payload["plan"]["missing"]


@pytest.mark.parametrize(("said", "efficiency"), [
    ("95% scaling efficiency", 0.95), ("线性加速比 0.92", 0.92), ("efficiency 0.8", 0.8),
    ("", 0.9)])
def test_stated_efficiency_divides(engine: Engine, said: str, efficiency: float) -> None:
    payload = ask(engine, f"how long: qwen2.5-72b lora on 16 cards, 1B tokens, TPS 2000, {said}")
    assert payload["plan"]["efficiency"] == efficiency
    got = payload["plan"]["flavours"]["snt9b"]["hours"]
    assert got == oracle.plan_hours(10**9, 2000, 16, efficiency)


def test_an_efficiency_above_1_is_refused_with_a_note(engine: Engine) -> None:
    payload = ask(engine, "qwen2.5-72b lora on 16 cards, 1B tokens, TPS 2000, 120% efficiency: "
                          "how long?")
    assert payload["plan"]["efficiency"] == 0.9
    assert any(n["kind"] == "plan_efficiency_out_of_range" for n in payload["notes"])


def test_tps_recorded_in_data_is_used_and_named(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(PACKAGE_DATA, data, ignore=shutil.ignore_patterns("__pycache__"))
    (data / "tps.toml").write_text('[tps."qwen2.5-72b"]\nsnt9b = 1800.0\nsnt9b23 = 1700.0\n'
                                   'source = "our run, 2026-11"\n', encoding="utf-8")
    engine = Engine(load_knowledge(data, cached=False))
    answer = engine.ask("how long for qwen2.5-72b lora on 32 cards, 1M samples of 2k tokens?")
    plan = render_json(engine.knowledge, answer)["plan"]
    assert plan["tps_source"] == "data" and plan["tps"] is None  # two figures
    assert plan["flavours"]["snt9b"]["hours"] == oracle.plan_hours(2 * 10**9, 1800, 32)
    assert plan["flavours"]["snt9b23"]["hours"] == oracle.plan_hours(2 * 10**9, 1700, 64)
    assert "our run, 2026-11" in render_text(engine.knowledge, answer)
    # A TPS in the question wins over the recorded one.
    asked = render_json(engine.knowledge, engine.ask(
        "how long for qwen2.5-72b lora on 32 cards, 2B tokens, TPS 1000?"))["plan"]
    assert asked["tps_source"] == "question" and asked["tps"] == 1000


def test_shipped_tps_file_is_empty() -> None:
    assert load_knowledge(PACKAGE_DATA).throughputs.models == {}


# --- when it is a plan, and when not ---------------------------------------------------------

@pytest.mark.parametrize("text", [
    "qwen2.5-7b lora on 8 cards, 3 epochs",  # epochs alone
    "qwen2.5-7b lora, batch size 32, 8 cards",
    "qwen2.5-7b lora 8k tokens",  # a length
    "qwen2.5-7b lora 80% efficiency",  # an efficiency alone
])
def test_budgets_and_lengths_stay_lookups(engine: Engine, text: str) -> None:
    assert engine.ask(text).intent == "lookup"


@pytest.mark.parametrize("text", [
    "qwen2.5-7b lora how long", "qwen2.5-7b lora 多久", "qwen2.5-7b lora 需要多长时间",
    "qwen2.5-7b lora within 2 days", "qwen2.5-7b lora 2B tokens, how many days?",
    "qwen2.5-7b lora 2B tokens TPS 3000 to finish in 3 days",
    "qwen2.5-7b lora 2B tokens 几天能训完",
    "qwen2.5-7b lora, 100万条数据, 两天内训完需要多少卡", "qwen2.5-7b lora 2B tokens 训多久",
    "1M samples of 2k tokens: how many hours will qwen2.5-7b lora take on 8 cards?",
    "qwen2.5-7b lora on 2B tokens with 16 cards, to finish by friday?",
    "qwen2.5-7b lora 2B tokens 32卡 训完要多少小时",
])
def test_a_question_about_time_or_a_deadline_makes_a_plan(engine: Engine, text: str) -> None:
    assert engine.ask(text).intent == "plan"


@pytest.mark.parametrize("text", [
    "qwen2.5-7b lora 2B tokens", "qwen2.5-7b lora 100万条数据", "qwen2.5-7b lora TPS 3000",
    "our dataset is 80k samples, 2 epochs — minimum cards for qwen2.5-32b lora 4k?",
    "数据集 8万条, 训 2 轮, qwen2.5-32b lora 4k 最少几张卡?",
    "qwen2.5-72b lora 4k, 1M samples of 2k tokens, TPS 1800, two Snt9B23 nodes enough?",
    "we have 2B tokens of data and 每卡每秒 2000 tokens; qwen3-32b lora needs how many cards?",
])
def test_a_workload_beside_a_lookup_is_context_offered_in_one_line(engine: Engine,
                                                                   text: str) -> None:
    payload = ask(engine, text)
    assert payload["intent"] == "lookup" and "plan" not in payload
    offers = [n for n in payload["notes"] if n["kind"] == "plan_offer"]
    assert len(offers) == 1
    text_lines = payload["text"].splitlines()
    # One line offers the estimate; nothing asks for tokens, TPS and a deadline line by line.
    assert sum("TPS" in line for line in text_lines) == 1, payload["text"]


@pytest.mark.parametrize(("text", "tps"), [
    ("how long: qwen2.5-72b lora 4k, 2B tokens, 每张卡每秒 2000 tokens, 32卡", 2000),
    ("qwen2.5-72b lora 4k, 2B tokens, 每卡每秒 1800 token, 32卡, 要多久", 1800),
    ("qwen2.5-72b lora 4k 2B tokens 单卡吞吐 2000 tokens/s 两天内训完需要多少卡", 2000),
    ("qwen2.5-72b lora 4k 2B tokens 吞吐 2000 tok/s/卡 32卡 多久", 2000),
    ("qwen2.5-72b lora 4k 2B tokens at 1900 tokens/s per card on 32 cards, how long", 1900),
])
def test_tps_as_written_in_chinese_and_english(engine: Engine, text: str, tps: int) -> None:
    payload = ask(engine, text)
    assert payload["intent"] == "plan" and payload["plan"]["tps"] == tps
    assert "tps" not in payload["plan"]["missing"]


def test_a_plan_follow_up_that_swaps_a_deadline_for_cards_stays_a_plan(engine: Engine) -> None:
    first = engine.ask("qwen2.5-72b lora 4k, 2B tokens, TPS 1800, within 2 days")
    assert first.intent == "plan"
    follow = engine.ask("what about 32 cards?", context_after(first, None))
    assert follow.intent == "plan" and follow.plan is not None
    assert follow.plan.flavours[0].count == 32


def test_a_plan_for_a_stand_in_stays_honest(engine: Engine) -> None:
    payload = ask(engine, "how long to train QwQ-32B lora on 16 cards, 1B tokens, TPS 2000?")
    assert payload["intent"] == "plan" and payload["models"] == ["qwen2.5-32b"]
    assert payload["stand_in"]["relation"] == "same_architecture"
    assert payload["lead"].startswith("QwQ-32B is not in the table")
    assert payload["plan"]["flavours"]["snt9b"]["hours"] == oracle.plan_hours(10**9, 2000, 16)


# --- follow-ups ---------------------------------------------------------------------------------

def _thread(engine: Engine, *questions: str) -> list[dict[str, Any]]:
    previous: Context | None = None
    out = []
    for text in questions:
        answer = engine.ask(text, previous)
        after = context_after(answer, previous)
        previous = Context.from_json(after.json()) if after else None  # as a store keeps it
        out.append(render_json(engine.knowledge, answer))
    return out


def test_follow_ups_change_one_input_at_a_time(engine: Engine) -> None:
    first, more, faster, deadline = _thread(
        engine, "how long will qwen2.5-72b lora take on 32 cards, 1M samples of 2k tokens, "
                "3 epochs at TPS 1800?",
        "and with 64 cards?", "what if TPS is 2500?", "那两天内呢")
    tokens = 6 * 10**9
    assert first["plan"]["flavours"]["snt9b"]["hours"] == oracle.plan_hours(tokens, 1800, 32)
    assert more["plan"]["flavours"]["snt9b"]["hours"] == oracle.plan_hours(tokens, 1800, 64)
    assert faster["plan"]["flavours"]["snt9b"]["hours"] == oracle.plan_hours(tokens, 2500, 64)
    assert deadline["language"] == "zh" and deadline["intent"] == "plan"
    rows = selected(deadline)
    for flavour in FLAVOURS:
        minimum = oracle.plan_minimum(rows, flavour)
        assert minimum is not None
        count = oracle.plan_count(tokens, 48, 2500, flavour, minimum)
        assert deadline["plan"]["flavours"][flavour]["count"] == count
    assert all(p["models"] == ["qwen2.5-72b"] for p in (first, more, faster, deadline))


def test_a_missing_tps_can_follow(engine: Engine) -> None:
    first, then = _thread(engine, "qwen2.5-72b lora 2B tokens within 24h", "TPS 1500")
    assert "tps" in first["plan"]["missing"]
    assert then["plan"]["flavours"]["snt9b"]["count"] == 24


def test_a_plan_waits_through_which_one(engine: Engine) -> None:
    from mincards.bot.answering.followup import FollowUp

    answer = engine.ask("qwen 72b lora, 2B tokens, TPS 1500, within 24 h")
    assert answer.intent == "ambiguous"
    picked = engine.follow(FollowUp.decode(FollowUp.pick(answer, "qwen2.5-72b").encode())
                           or FollowUp(language="en"))
    assert picked.intent == "plan" and picked.models == ("qwen2.5-72b",)
    assert picked.plan is not None and picked.plan.flavours[0].count == 24
    typed = engine.ask("2.5", context_after(answer, None))
    assert typed.intent == "plan" and typed.models == ("qwen2.5-72b",)


@pytest.mark.parametrize(("said", "efficiency", "refused"), [
    ("efficiency 95", 0.95, False), ("线性加速比 5", 0.9, True), ("efficiency 0", 0.9, True),
    ("150% efficiency", 0.9, True)])
def test_an_efficiency_is_a_percentage_only_when_it_reads_as_one(
        engine: Engine, said: str, efficiency: float, refused: bool) -> None:
    payload = ask(engine, f"qwen2.5-72b lora on 16 cards, 1B tokens, TPS 2000, {said}, 多久")
    assert payload["plan"]["efficiency"] == efficiency
    assert any(n["kind"] == "plan_efficiency_out_of_range" for n in payload["notes"]) == refused
