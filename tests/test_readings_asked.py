"""What a question asks beyond model, strategy and length (issue 37): a training stage that
means a strategy, and (as they land) other hardware, prices, QLoRA: each read as data and said in
the reply, in both languages."""

from __future__ import annotations

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.replies.render_text import render_text


@pytest.mark.parametrize("question", [
    "qwen2.5-7b pretrain", "qwen2.5-7b 预训练 要几张卡", "continued pre-training for qwen2.5-7b?",
    "how many cards to pre-train Qwen/Qwen2.5-7B-Instruct at 8k", "qwen2.5-7b 继续预训练",
    "cpt qwen2.5 7b", "Qwen2.5-7B PT stage cards",
])
def test_pre_training_is_answered_as_full_parameter_and_says_so(
        engine: Engine, question: str) -> None:
    answer = engine.ask(question)
    assert answer.intent == "lookup" and answer.models == ("qwen2.5-7b",)
    assert {r.strategy for r in answer.rows} == {"full"}
    text = render_text(engine.knowledge, answer)
    assert ("Pre-training trains every parameter: answered as full-parameter." in text
            or "预训练训练全部参数：按全参回答。" in text), text
    # The lead's count is full-parameter's, not LoRA's 1 card.
    assert "1 card" not in text.splitlines()[0] and "1 张卡" not in text.splitlines()[0]


@pytest.mark.parametrize("question", [
    "continued pre-training of qwen2.5-7b with lora", "qwen2.5-7b sft", "qwen2.5-7b 指令微调",
    "google/gemma-3-27b-pt 8k", "gemma-3-27b-pt lora or full?",
])
def test_a_named_strategy_or_sft_is_not_made_full(engine: Engine, question: str) -> None:
    answer = engine.ask(question)
    assert "lora" in {r.strategy for r in answer.rows}
    assert answer.note("stage_strategy") is None


def test_a_follow_up_keeps_the_stage_as_its_strategy(engine: Engine) -> None:
    from mincards.bot.answering.conversation import context_after

    first = engine.ask("qwen2.5-7b pretrain")
    then = engine.ask("and the 32b?", context_after(first, None))
    assert then.models == ("qwen2.5-32b",)
    assert then.rows and {r.strategy for r in then.rows} == {"full"}


@pytest.mark.parametrize(("question", "said"), [
    ("qlora qwen2.5-72b 4k", "The table has no QLoRA figures."),
    ("QLoRA for Qwen/Qwen2.5-72B-Instruct at 4096?", "The table has no QLoRA figures."),
    ("how many cards to q-lora qwen2.5 72b", "The table has no QLoRA figures."),
    ("qwen2.5-72b QLoRA 微调 要几张卡", "该表没有 QLoRA 的数据。"),
])
def test_qlora_is_bounded_by_lora_and_said_first(engine: Engine, question: str,
                                                 said: str) -> None:
    answer = engine.ask(question)
    assert answer.intent == "lookup" and answer.models == ("qwen2.5-72b",)
    assert answer.rows and {r.strategy for r in answer.rows} == {"lora"}
    assert answer.note("stage_bound") is not None and answer.note("stage_not_covered") is None
    text = render_text(engine.knowledge, answer)
    first = text.splitlines()[0]
    # Said first, as a bound, before the LoRA counts; and not once more among the notes.
    assert first.startswith(said), first
    assert ("upper bound" in first or "上限" in first) and text.count(said) == 1
    assert "QLORA" not in text


def test_qlora_with_a_strategy_named_keeps_that_strategy(engine: Engine) -> None:
    answer = engine.ask("qwen2.5-7b qlora full?")
    assert {r.strategy for r in answer.rows} == {"full"}


@pytest.mark.parametrize(("question", "hardware"), [
    ("how many A100s for qwen2.5-72b lora", "A100"),
    ("qwen2.5-72b lora on h-800?", "H800"),
    ("can our GPUs do qwen2.5-72b lora", "GPUs"),
    ("qwen2.5-72b lora, we only have rtx4090", "RTX 4090"),
    ("qwen2.5-72b lora 910A 要几张", "Ascend 910A"),
    ("用A100训练qwen2.5-72b lora需要几张卡", "A100"),
    ("we usually train on H100. anyway, how many for qwen2.5-72b lora?", "H100"),
    # A chip with a generic word beside it is that chip.
    ("qwen2.5-72b lora on nvidia a100 80g", "A100"),
    ("how many A800 GPUs for qwen2.5-72b lora", "A800"),
    ("qwen2.5-72b lora 用英伟达显卡要几张", "NVIDIA GPUs"),
])
def test_other_hardware_is_said_first_and_the_counts_stay_ascend(
        engine: Engine, question: str, hardware: str) -> None:
    answer = engine.ask(question)
    assert answer.intent == "lookup" and answer.models == ("qwen2.5-72b",)
    note = answer.note("other_hardware")
    assert note is not None and note.args["hardware"] == [hardware]
    text = render_text(engine.knowledge, answer)
    first = text.splitlines()[0]
    # First: the table's hardware and that it has no figures for the asked one; then the
    # table's Ascend counts, unchanged (16 cards on Snt9B for Qwen2.5-72B LoRA).
    assert first.index(hardware) < first.index("16")
    assert ("Snt9B" in first and "Ascend" in first) or "昇腾" in first
    assert text.count(hardware) == 1, text
    assert answer.budget is None


@pytest.mark.parametrize(("question", "amount"), [
    ("8x H800 enough for llama3.1-70b full?", "8 H800"),
    ("can 32 GPUs run llama3.1-70b full", "32 GPUs"),
    ("我们有A100 32张卡，llama3.1-70b全参够吗", "32"),
])
def test_a_budget_of_other_hardware_is_not_judged_as_ascend(
        engine: Engine, question: str, amount: str) -> None:
    answer = engine.ask(question)
    # No Ascend verdict for another chip's amount: a lookup that says it did not judge it.
    assert answer.budget is None and answer.intent == "lookup"
    first = render_text(engine.knowledge, answer).splitlines()[0]
    assert amount in first and ("did not judge" in first or "没有用它判断" in first)
    assert not first.split(":")[-1].strip().startswith(("Yes", "No"))


def test_an_ascend_budget_beside_other_hardware_is_still_judged(engine: Engine) -> None:
    answer = engine.ask("16 910B cards, we also have A100s; qwen2.5-32b full?")
    assert answer.budget is not None and answer.budget.count == 16
    assert answer.note("other_hardware") is not None


@pytest.mark.parametrize("question", [
    "qwen2.5-72b lora", "qwen2.5-72b-instruct-gptq-int4 lora", "glm4-9b lora on snt9b",
    "gemma-3-27b-pt lora", "qwen3-30b-a3b lora",
])
def test_no_other_hardware_where_none_is_named(engine: Engine, question: str) -> None:
    assert engine.ask(question).note("other_hardware") is None


def test_a_follow_up_keeps_the_other_hardware(engine: Engine) -> None:
    from mincards.bot.answering.conversation import context_after

    first = engine.ask("how many A100s for qwen2.5-72b lora")
    then = engine.ask("and full?", context_after(first, None))
    assert then.rows and {r.strategy for r in then.rows} == {"full"}
    note = then.note("other_hardware")
    assert note is not None and note.args["hardware"] == ["A100"]


@pytest.mark.parametrize(("question", "said"), [
    ("how much would it cost to lora qwen2.5-72b for 10 hours",
     ["16 cards × 10 h = 160 card-hours on Snt9B",
      "16 DIE × 10 h = 160 DIE-hours (80 card-hours) on Snt9B23"]),
    ("qwen2.5-72b lora: price for a 2 day run?",
     ["16 cards × 48 h = 768 card-hours on Snt9B", "768 DIE-hours (384 card-hours)"]),
    ("qwen2.5-72b lora 跑10小时要多少钱",
     ["Snt9B 上 16 张卡 × 10 小时 = 160 卡时",
      "Snt9B23 上 16 DIE × 10 小时 = 160 DIE 时（80 卡时）"]),
    ("qwen2.5-72b lora 训练三天成本多少", ["16 张卡 × 72 小时 = 1,152 卡时"]),
    ("qwen2.5-72b lora 跑十小时要多少钱", ["16 张卡 × 10 小时 = 160 卡时"]),
    ("qwen2.5-72b lora 跑10个小时要花多少钱", ["16 张卡 × 10 小时 = 160 卡时"]),
])
def test_a_cost_question_says_there_are_no_prices_and_gives_card_hours(
        engine: Engine, question: str, said: list[str]) -> None:
    answer = engine.ask(question)
    # The hours are the cost's, never a deadline: a lookup, with LoRA's table counts.
    assert answer.intent == "lookup" and answer.models == ("qwen2.5-72b",)
    assert answer.workload is None or not answer.workload.asks_plan
    text = render_text(engine.knowledge, answer)
    first = text.splitlines()[0]
    assert ("no prices" in first or "没有价格" in first) and all(s in first for s in said), first
    # Said after the counts, and once.
    assert first.index("16") < first.index(said[0])
    assert text.count("no prices") + text.count("没有价格") == 1


def test_a_cost_without_hours_says_how_to_work_it_out(engine: Engine) -> None:
    first = render_text(engine.knowledge, engine.ask("what's the cost of qwen2.5-7b lora?")
                        ).splitlines()[0]
    assert "no prices" in first and "card-hour" in first


@pytest.mark.parametrize("question", [
    "qwen2.5-72b lora for 10 hours", "qwen2.5-72b lora 8k", "how long for qwen2.5-72b lora, 1M "
    "samples of 2k tokens, 3 epochs at TPS 1800 on 32 cards?",
])
def test_no_price_note_where_no_price_is_asked(engine: Engine, question: str) -> None:
    assert engine.ask(question).note("no_prices") is None


def test_the_json_is_narrowed_as_the_text_is(engine: Engine) -> None:
    from mincards.bot.answering.preferences import Preferences
    from mincards.bot.replies.render_json import render_json

    answer = engine.ask("qwen2.5-72b lora", preferences=Preferences(flavours=("snt9b23",)))
    payload = render_json(engine.knowledge, answer)
    # A script asking for one flavour gets that one, and is told it was narrowed.
    assert list(payload["best"]) == ["snt9b23"] and payload["best"]["snt9b23"]["count"] == 16
    assert payload["narrowed_to"] == {"flavours": ["snt9b23"]}
    assert payload["filters_from"] == "settings"
    assert "Snt9B " not in payload["lead"] and "Snt9B23" in payload["lead"]
    named = render_json(engine.knowledge, engine.ask("qwen2.5-72b lora on snt9b, llama-factory"))
    assert list(named["best"]) == ["snt9b"] and named["best"]["snt9b"]["count"] == 32
    assert named["narrowed_to"] == {"flavours": ["snt9b"], "frameworks": ["llama_factory"]}
    whole = render_json(engine.knowledge, engine.ask("qwen2.5-72b lora"))
    assert set(whole["best"]) == {"snt9b", "snt9b23"} and "narrowed_to" not in whole


@pytest.mark.parametrize(("question", "model", "strategy", "lengths"), [
    ("after our 32B experiment I'd like the glm4-9b lora numbers", "glm4-9b", "lora", None),
    ("after the 72b run i need qwen2.5-7b full numbers", "qwen2.5-7b", "full", None),
    ("team of 5, deadline in 2 weeks. what's the minimum for Qwen3-32B lora at 8192 on "
     "LLaMA-Factory?", "qwen3-32b", "lora", {8192}),
    ("deadline is 3 days, minimum cards for qwen2.5-72b lora 8k?", "qwen2.5-72b", "lora", {8192}),
    ("After 1.5 days debugging HCCL, question: llama3.1-70b lora seq 8192 min cards?",
     "llama3.1-70b", "lora", {8192}),
    ("实验之后想看 glm4-9b lora 的卡数", "glm4-9b", "lora", None),
    ("两周后交付，qwen3-32b lora 8k 最少几张卡", "qwen3-32b", "lora", {8192}),
])
def test_context_is_not_taken_for_the_question(engine: Engine, question: str, model: str,
                                               strategy: str, lengths: set[int] | None) -> None:
    answer = engine.ask(question)
    assert answer.intent == "lookup" and answer.models == (model,), answer.intent
    assert {r.strategy for r in answer.rows} == {strategy}
    if lengths is not None:
        assert {r.seq_len for r in answer.rows} == lengths


def test_a_deadline_with_a_plan_s_data_is_still_a_plan(engine: Engine) -> None:
    answer = engine.ask("qwen2.5-72b lora 1M samples of 2k tokens TPS 1800, minimum cards to "
                        "finish within 2 days?")
    assert answer.intent == "plan"
    assert answer.workload is not None and answer.workload.deadline_hours == 48
