"""What is asked, not what is mentioned: a clause about the past or other work is context."""

from __future__ import annotations

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.replies.render_json import render_json

# (question, the one model asked about, its strategy or None)
IN_PASSING = [
    ("last month we ran a 14B on 16 cards. how many for llama3.1-70b lora?", "llama3.1-70b",
     "lora"),
    ("We fine-tuned a 7B before; now Qwen2.5-72B LoRA at 4096?", "qwen2.5-72b", "lora"),
    ("we trained a 32B last week — what does qwen3-8b full need?", "qwen3-8b", "full"),
    ("Previously I used a 70B on 64 cards, but how many for glm-4-9b lora", "glm4-9b", "lora"),
    ("we ran a 14B last week how many cards for llama3.1-70b lora", "llama3.1-70b", "lora"),
    ("之前跑过一个7B，现在 qwen2.5-72b lora 要几张卡", "qwen2.5-72b", "lora"),
    ("上周我们在16张卡上训过一个14B, 这次 llama3.1-70b lora 需要几张卡", "llama3.1-70b", "lora"),
    ("以前微调过一个 32B 的模型。Qwen3-14B 全参需要几张卡?", "qwen3-14b", "full"),
    ("we did a 72b lora yesterday; mixtral 8x7b full 4k?", "mixtral-8x7b", "full"),
]


@pytest.mark.parametrize(("text", "model", "strategy"), IN_PASSING)
def test_a_size_in_a_context_clause_is_not_a_model(engine: Engine, text: str, model: str,
                                                   strategy: str | None) -> None:
    answer = engine.ask(text)
    assert answer.intent == "lookup" and answer.models == (model,), (text, answer.intent,
                                                                     answer.models)
    assert {e.strategy for e in answer.rows} == {strategy}
    # What the context clause said (16 cards, 64 cards) is not this question's budget.
    assert answer.budget is None


def test_the_context_clause_s_hardware_is_not_the_budget_but_the_question_s_is(
        engine: Engine) -> None:
    answer = engine.ask("last month we ran a 14B on 16 cards. can I lora llama3.1-70b on 8 cards?")
    payload = render_json(engine.knowledge, answer)
    assert payload["budget"] == {"count": 8, "unit": "card", "flavour": None}
    # 8 cards are 16 DIE on Snt9B23, where Llama-3.1-70B LoRA fits; Snt9B needs 16 cards.
    assert payload["models"] == ["llama3.1-70b"] and payload["verdict"] == "yes"
    assert "not on Snt9B (8 cards)" in payload["lead"]


@pytest.mark.parametrize(("text", "model", "budget"), [
    # Nothing else names a model: the context clause is what the question is about.
    ("we trained qwen2.5-72b lora last week. does it fit on 16 cards?", "qwen2.5-72b", 16),
    ("上周训过 qwen2.5-32b lora，8张卡够吗", "qwen2.5-32b", 8),
])
def test_a_context_clause_speaks_when_nothing_else_names_a_model(
        engine: Engine, text: str, model: str, budget: int) -> None:
    answer = engine.ask(text)
    assert answer.models == (model,) and answer.budget is not None
    assert answer.budget.count == budget


@pytest.mark.parametrize(("text", "model"), [
    ("we ran qwen2.5-7b last week, now 72b lora?", "qwen2.5-72b"),
    ("之前跑过 qwen2.5 7b，现在 32b lora 要几张卡", "qwen2.5-32b"),
])
def test_a_size_asked_takes_the_family_the_context_named(engine: Engine, text: str,
                                                         model: str) -> None:
    assert engine.ask(text).models == (model,)


@pytest.mark.parametrize(("text", "models"), [
    # A size with a family of its own is that model, in any clause that asks.
    ("a 7B qwen2.5 model lora", ("qwen2.5-7b",)),
    ("qwen2.5-7b or 72b lora?", ("qwen2.5-7b", "qwen2.5-72b")),
    ("qwen 2.5, 72b, lora 8k", ("qwen2.5-72b",)),
    ("before we start: qwen2.5-72b lora 4k?", ("qwen2.5-72b",)),
])
def test_sizes_that_are_asked_about_stay_models(engine: Engine, text: str,
                                                models: tuple[str, ...]) -> None:
    assert engine.ask(text).models == models


def test_a_7b_qwen_model_is_a_qwen_7b_question(engine: Engine) -> None:
    answer = engine.ask("a 7B qwen model lora")
    # Several Qwen 7B models are in the table: it asks which, never another family.
    assert answer.intent == "ambiguous"
    assert set(answer.candidates) >= {"qwen2-7b", "qwen2.5-7b"}
    assert all(c.startswith("qwen") for c in answer.candidates)


@pytest.mark.parametrize(("text", "model", "rows"), [
    ("I trained qwen2.5-7b lora before; how much for full?", "qwen2.5-7b",
     {("full", 4096), ("full", 8192)}),
    ("we ran qwen2.5-72b lora 4k last week. what about 8k?", "qwen2.5-72b", {("lora", 8192)}),
    ("之前训过 qwen2.5-32b lora，全参要几张卡", "qwen2.5-32b", {("full", 4096), ("full", 8192)}),
])
def test_what_the_question_says_wins_over_its_context(engine: Engine, text: str, model: str,
                                                      rows: set[tuple[str, int]]) -> None:
    answer = engine.ask(text)
    assert answer.models == (model,)
    assert {(e.strategy, e.seq_len) for e in answer.rows} == rows
