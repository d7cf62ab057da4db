"""Will it fit? What fits? Which needs fewer? Expected answers come from tests/oracle.py."""

from __future__ import annotations

import json

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.replies.render_blocks import message
from mincards.bot.replies.render_json import render_json
from mincards.bot.replies.render_text import render_text
from tests import oracle
from tests.blockkit import assert_valid_message

# (question, model, strategy, seq, (count, unit, flavour))
LOOKUPS = [
    ("can I LoRA qwen2.5-32b on 8 cards?", "qwen2.5-32b", "lora", None, (8, "card", None)),
    ("qwen2.5-32b 16 DIE 够吗", "qwen2.5-32b", None, None, (16, "die", None)),
    ("two Snt9B23 nodes enough for llama3.1 70b full?", "llama3.1-70b", "full", None,
     (2, "node", "snt9b23")),
    ("will llama3.2-1b lora fit on 1 card", "llama3.2-1b", "lora", None, (1, "card", None)),
    ("llama3.2-1b lora 4k on 1 DIE?", "llama3.2-1b", "lora", 4096, (1, "die", None)),
    ("qwen3-235b-a22b full on 32 nodes of snt9b", "qwen3_moe-235B_A22B", "full", None,
     (32, "node", "snt9b")),
    ("DeepSeek-R1 lora 4096 八台够吗", "DeepSeek-V3/R1", "lora", 4096, (8, "node", None)),
    ("glm4-9b 全参 8192 用四张卡可以吗", "glm4-9b", "full", 8192, (4, "card", None)),
]


@pytest.mark.parametrize(("text", "model", "strategy", "seq", "budget"), LOOKUPS)
def test_a_budget_on_one_model(engine: Engine, text: str, model: str, strategy: str | None,
                               seq: int | None, budget: tuple[int, str, str | None]) -> None:
    payload = render_json(engine.knowledge, engine.ask(text))
    assert payload["intent"] == "lookup" and payload["models"] == [model]
    count, unit, flavour = budget
    assert payload["budget"] == {"count": count, "unit": unit, "flavour": flavour}
    space = oracle.room(count, unit, flavour)
    want = {r.key: oracle.fits(r, space) for r in oracle.select(model, strategy, seq)}
    got = {(r["model"], r["strategy"], r["seq_len"]): r["fits"] for r in payload["rows"]}
    assert got == want


def test_a_one_die_entry_counts_as_the_two_die_unit(engine: Engine) -> None:
    row = render_json(engine.knowledge, engine.ask("llama3.2-1b lora 4k on 1 DIE?"))["rows"][0]
    # Llama-Factory lists 1 DIE, but parallel strategies take 2: 1 DIE is not enough.
    assert row["llama_factory"]["snt9b23"] == 1 and row["fits"]["llama_factory"] == {
        "snt9b23": False}
    two = render_json(engine.knowledge, engine.ask("llama3.2-1b lora 4k on 2 DIE?"))["rows"][0]
    assert two["fits"]["llama_factory"] == {"snt9b23": True}


@pytest.mark.parametrize(("text", "first"), [
    ("qwen2.5-72b lora 4k on 64 cards", "Yes"),
    ("qwen2.5-72b full 8k on 8 cards", "No"),
    ("can I LoRA qwen2.5-32b on 8 cards?", "Yes"),
    ("qwen2.5-72b on 16 cards", "Yes for"),
    ("qwen2.5-72b lora 4k 八台够吗", "可以"),
    ("qwen2.5-72b 全参 8k 一张卡够吗", "不够"),
    ("qwen2.5-32b lora 8卡够吗", "可以"),
])
def test_the_reply_opens_with_the_verdict(engine: Engine, text: str, first: str) -> None:
    answer = engine.ask(text)
    assert render_text(engine.knowledge, answer).startswith(first)
    blocks = message(engine.knowledge, answer)["blocks"]
    assert blocks[0]["type"] == "section" and blocks[0]["text"]["text"].startswith(f"*{first}")
    assert_valid_message(message(engine.knowledge, answer))


def test_yes_names_the_ways_that_fit(engine: Engine) -> None:
    text = render_text(engine.knowledge, engine.ask("can I LoRA qwen2.5-32b on 8 cards?"))
    # Snt9B23's 16 DIE take both lengths with both frameworks; Snt9B's 8 cards only LoRA 4K,
    # with Llama-Factory (MindSpeed-LLM lists 16).
    assert text.splitlines()[0] == ("Yes — Qwen2.5-32B fits on Snt9B23 (16 DIE) with either "
                                    "framework; on Snt9B (8 cards) only LoRA · 4K, with "
                                    "Llama-Factory.")
    assert "Partly" not in text and "as shown" not in text


def test_no_names_the_least_that_would_do(engine: Engine) -> None:
    lead_line = render_text(engine.knowledge,
                            engine.ask("DeepSeek-V3 full on 8 cards")).splitlines()[0]
    least = {fl: oracle.plan_minimum(oracle.select("DeepSeek-V3/R1", "full"), fl)
             for fl in oracle.flavours()}
    assert lead_line.startswith("No — ")
    assert f"{least['snt9b']} cards" in lead_line and f"{least['snt9b23']} DIE" in lead_line
    zh = render_text(engine.knowledge, engine.ask("qwen2.5-72b 全参 8k 一张卡够吗"))
    assert zh.startswith("不够——") and "最少需要" in zh.splitlines()[0]


def test_mixed_says_which_entries_fit_and_marks_each_cell_in_place(engine: Engine) -> None:
    answer = engine.ask("qwen2.5-72b on 16 cards")
    text = render_text(engine.knowledge, answer)
    lines = text.splitlines()
    payload = render_json(engine.knowledge, answer)
    fitting = {(w["strategy"], w["seq_len"]) for w in payload["ways"]}
    assert payload["verdict"] == "mixed" and 0 < len(fitting) < len(payload["rows"])
    assert lines[0].startswith("Yes for ") and "; no for " in lines[0]
    # The yes says on which flavour (and with which framework) it holds.
    assert "on Snt9B23 (32 DIE) with MindSpeed-LLM" in lines[0]
    # Each row once, marked in place: cells that fit, the others over the budget (entries
    # whose rows read the same share one heading).
    assert "(fits)" in text and "(over budget)" in text
    assert not any(": yes, " in line for line in lines)


def test_no_budget_no_budget_fields(engine: Engine) -> None:
    payload = render_json(engine.knowledge, engine.ask("qwen2.5-32b lora"))
    assert "budget" not in payload and all("fits" not in r for r in payload["rows"])


def test_a_model_the_table_lacks_is_not_found_whatever_the_budget(engine: Engine) -> None:
    payload = render_json(engine.knowledge, engine.ask("can I train qwen2.5-3b on 8 cards?"))
    assert payload["intent"] == "not_found" and payload["rows"] == []


# (question, (count, unit, flavour), strategy, seq)
CAPACITY = [
    ("what can I train on 16 cards?", (16, "card", None), None, None),
    ("what can I fine-tune on one Snt9B node?", (1, "node", "snt9b"), None, None),
    ("16卡能全参训练哪些模型", (16, "card", None), "full", None),
    ("LoRA at 8k on 32 DIE: which models?", (32, "die", None), "lora", 8192),
    ("which models fit on 4 cards, lora 2048", (4, "card", None), "lora", 2048),
    ("两台 Snt9B23 能跑哪些模型 全参 8k", (2, "node", "snt9b23"), "full", 8192),
]


@pytest.mark.parametrize(("text", "budget", "strategy", "seq"), CAPACITY)
def test_what_fits_a_budget(engine: Engine, text: str, budget: tuple[int, str, str | None],
                            strategy: str | None, seq: int | None) -> None:
    payload = render_json(engine.knowledge, engine.ask(text))
    assert payload["intent"] == "capacity"
    count, unit, flavour = budget
    assert payload["budget"] == {"count": count, "unit": unit, "flavour": flavour}
    want = oracle.capacity(count, unit, flavour, strategy, seq)
    assert [(r["model"], r["strategy"], r["seq_len"]) for r in payload["rows"]] == [
        r.key for r in want]
    assert payload["models"] == list(dict.fromkeys(r.model for r in want))
    space = oracle.room(count, unit, flavour)
    for row, expected in zip(payload["rows"], want, strict=True):
        assert row["fits"] == oracle.fits(expected, space)


def test_capacity_with_a_framework_filter(engine: Engine) -> None:
    payload = render_json(engine.knowledge, engine.ask("what fits on 2 cards with mindspeed-llm"))
    want = oracle.capacity(2, "card", only=["mindspeed_llm"])
    assert [(r["model"], r["strategy"], r["seq_len"]) for r in payload["rows"]] == [
        r.key for r in want]


def test_a_long_capacity_list_stays_within_blocks_and_offers_the_rest(engine: Engine) -> None:
    answer = engine.ask("what can I train on 64 nodes?")
    assert len(answer.models) == len({r.model for r in oracle.rows()}) > 12
    msg = message(engine.knowledge, answer)
    assert_valid_message(msg)
    blocks = json.dumps(msg["blocks"], ensure_ascii=False)
    assert f"Show the other {len(answer.models) - 12}" in blocks
    last = engine.knowledge.catalogue[answer.models[-1]].display
    assert last not in blocks and last in json.dumps(message(
        engine.knowledge, answer, page=len(answer.models) - 1)["blocks"], ensure_ascii=False)


def test_nothing_fits_is_said(engine: Engine) -> None:
    answer = engine.ask("qwen3 235b: what fits on one card, full 4k?")
    assert answer.intent in ("capacity", "lookup")
    if answer.intent == "capacity":
        assert answer.rows == () and "Nothing" in render_text(engine.knowledge, answer)


# (question, models in order named, strategy, seq)
COMPARISONS = [
    ("qwen2.5-32b vs qwen2.5-72b lora 8k", ["qwen2.5-32b", "qwen2.5-72b"], "lora", 8192),
    ("qwen3-8b 和 qwen3-14b 对比", ["qwen3-8b", "qwen3-14b"], None, None),
    ("llama3.1-70b or qwen2.5-72b full, which needs fewer cards?",
     ["llama3.1-70b", "qwen2.5-72b"], "full", None),
    ("glm4-9b versus llama3.1-8b versus qwen3-8b, lora 4k",
     ["glm4-9b", "llama3.1-8b", "qwen3-8b"], "lora", 4096),
    ("qwen2.5-7b or 72b, lora", ["qwen2.5-7b", "qwen2.5-72b"], "lora", None),
]


@pytest.mark.parametrize(("text", "models", "strategy", "seq"), COMPARISONS)
def test_comparisons(engine: Engine, text: str, models: list[str], strategy: str | None,
                     seq: int | None) -> None:
    payload = render_json(engine.knowledge, engine.ask(text))
    assert payload["intent"] == "compare" and payload["models"] == models
    want = [r.key for m in models for r in oracle.select(m, strategy, seq)]
    assert [(r["model"], r["strategy"], r["seq_len"]) for r in payload["rows"]] == want
    for side in payload["comparison"]:
        entries = {m: next(r for r in oracle.rows() if r.key == (m, side["strategy"],
                                                                 side["seq_len"]))
                   for m in models}
        fewest = {m: oracle.fewest(e, side["flavour"]) for m, e in entries.items()}
        assert side["fewest"] == fewest
        best = min(c for c in fewest.values() if c is not None)
        assert side["fewer"] == [m for m in models if fewest[m] == best]
    assert len(payload["comparison"]) == len({(r["strategy"], r["seq_len"])
                                              for r in payload["rows"]}) * 2
    assert_valid_message(message(engine.knowledge, engine.ask(text)))


def test_a_comparison_never_sets_snt9b_against_snt9b23(engine: Engine) -> None:
    text = render_text(engine.knowledge, engine.ask("qwen2.5-32b vs qwen2.5-72b lora 8k"))
    for line in text.splitlines():
        if line.startswith("- ") and "Snt9B23" in line:
            assert "cards" not in line.split(":", 1)[1].split(":")[0]  # DIE only


def test_an_ambiguous_name_in_a_comparison_asks_keeping_the_other(engine: Engine) -> None:
    answer = engine.ask("llama 70b or qwen 72b, which needs fewer cards?")
    assert answer.intent == "ambiguous" and "qwen2.5-72b" in answer.candidates
    assert answer.compare_with == ("llama3.1-70b", "")


@pytest.mark.parametrize(("text", "budget", "strategy"), [
    ("what can I train on 2 nodes?", (2, "node", None), None),
    ("16卡能全参训练哪些模型", (16, "card", None), "full"),
    ("what fits on 4 cards?", (4, "card", None), None),
    ("lora on 64 DIE: which models?", (64, "die", None), "lora"),
])
def test_capacity_lead_counts_per_flavour_and_names_the_few_that_do_not_fit(
        engine: Engine, text: str, budget: tuple[int, str, str | None],
        strategy: str | None) -> None:
    answer = engine.ask(text)
    lead_line = render_text(engine.knowledge, answer).splitlines()[0]
    space = oracle.room(*budget)
    fitting = oracle.capacity(*budget, strategy=strategy)
    for flavour in space:
        models = {r.model for r in fitting if any(
            oracle.fits(r, {flavour: space[flavour]})[fw][flavour]
            for fw in oracle.frameworks())}
        assert f" {len(models)}" in lead_line, (flavour, lead_line)
    if strategy:
        label = {"full": ("full-parameter", "全参"), "lora": ("LoRA", "LoRA")}[strategy]
        assert label[0] in lead_line or label[1] in lead_line
    missing = [m for m in oracle.table_models() if m not in {r.model for r in fitting}]
    names = [str(oracle.catalogue()[m]["display"]) for m in missing]
    if 0 < len(missing) <= 3:
        assert all(n in lead_line for n in names)


@pytest.mark.parametrize("budget", ["1 card", "8 cards", "16 DIE", "2 nodes", "64 nodes",
                                    "512 cards"])
def test_a_capacity_reply_in_the_terminal_fits_40_lines(engine: Engine, budget: str) -> None:
    answer = engine.ask(f"what can I train on {budget}?")
    text = render_text(engine.knowledge, answer)
    assert len(text.splitlines()) <= 40
    every = render_text(engine.knowledge, answer, every=True)
    for entry in answer.rows:
        assert engine.knowledge.catalogue[entry.model].display in every


@pytest.mark.parametrize(("text", "reason"), [
    ("mixtral lora", "no LoRA entry"), ("qwen2.5-72b lora 32k context", "only up to seq 8192"),
    ("qwen2.5-7b DPO", "says nothing about DPO"), ("qwen2.5-32b on VeRL", "no column for VeRL"),
    ("mixtral 全参 16k", "最长只列到序列长度 8192"),
])
def test_not_covered_says_its_reason_first(engine: Engine, text: str, reason: str) -> None:
    answer = engine.ask(text)
    assert answer.intent == "not_covered"
    payload = message(engine.knowledge, answer)
    assert reason in payload["text"]  # the notification, and the first block
    assert reason in payload["blocks"][0]["text"]["text"]
    lines = render_text(engine.knowledge, answer).splitlines()
    assert reason in lines[0] and ("The table has" in lines[1] or "表中有" in lines[1])


def test_a_mixed_verdict_in_chinese(engine: Engine) -> None:
    text = render_text(engine.knowledge, engine.ask("qwen2.5-72b 16卡够吗"))
    first, *rest = text.splitlines()
    assert "可以" in first and "不够" in first and "Qwen2.5-72B" in first
    # The rows below mark each cell in place.
    assert any("（够）" in line for line in rest) and any("（超出预算）" in line for line in rest)
