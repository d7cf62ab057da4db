"""Follow-ups: a question that changes part of the one before continues it; others start afresh."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

from mincards.bot.answering.answer import Answer
from mincards.bot.answering.conversation import Context, MemoryContexts, context_after
from mincards.bot.answering.engine import Engine
from mincards.bot.replies.render_json import render_json
from tests import oracle
from tests.process_exit import run_to_exit

MINCARDS = Path(sys.executable).with_name("mincards")


def chain(engine: Engine, questions: list[str]) -> list[Answer]:
    answers: list[Answer] = []
    context: Context | None = None
    for q in questions:
        answer = engine.ask(q, context)
        context = context_after(answer, context)
        answers.append(answer)
    return answers


def keys(answer: Answer) -> list[tuple[str, str, int]]:
    return [e.key for e in answer.rows]


def test_each_change_keeps_the_rest(engine: Engine) -> None:
    first, lora, eight_k, die, budget, full = chain(engine, [
        "qwen2.5-72b", "and lora?", "what about 8k", "on Snt9B23?", "8卡够吗", "那全参呢"])
    assert keys(first) == [r.key for r in oracle.select("qwen2.5-72b")]
    assert keys(lora) == [r.key for r in oracle.select("qwen2.5-72b", "lora")]
    assert keys(eight_k) == [("qwen2.5-72b", "lora", 8192)]
    assert die.flavours == ("snt9b23",) and keys(die) == [("qwen2.5-72b", "lora", 8192)]
    assert budget.budget is not None and (budget.budget.count, budget.budget.unit) == (8, "card")
    assert budget.budget.flavour is None  # the flavour was a filter, not part of "8 cards"
    assert budget.language == "zh" and budget.flavours == ("snt9b23",)
    assert keys(full) == [("qwen2.5-72b", "full", 8192)] and full.budget == budget.budget


def test_the_other_size_and_which_one(engine: Engine) -> None:
    _, other = chain(engine, ["qwen2.5-32b lora 8k", "the 72b?"])
    assert other.models == ("qwen2.5-72b",) and keys(other) == [("qwen2.5-72b", "lora", 8192)]
    which, picked = chain(engine, ["qwen 72b full", "2.5"])
    assert which.intent == "ambiguous"
    assert picked.models == ("qwen2.5-72b",) and {e.strategy for e in picked.rows} == {"full"}
    _, vl = chain(engine, ["qwen 7b lora", "the vl one"])[0:2]
    assert vl.intent == "ambiguous" and set(vl.candidates) == {"qwen2vl-7b", "qwen2.5_vl-7b"}


def test_which_one_inside_a_comparison(engine: Engine) -> None:
    which, compared, lora = chain(engine, [
        "llama 70b or qwen 72b, which needs fewer cards?", "2.5", "and lora 8k"])
    assert which.intent == "ambiguous"
    assert (compared.intent, compared.models) == ("compare", ("llama3.1-70b", "qwen2.5-72b"))
    assert (lora.intent, keys(lora)) == ("compare", [("llama3.1-70b", "lora", 8192),
                                                     ("qwen2.5-72b", "lora", 8192)])


def test_capacity_follow_ups(engine: Engine) -> None:
    first, lora, more = chain(engine, ["what can I train on 16 cards?", "and lora?",
                                       "what about 32 DIE"])
    assert first.intent == lora.intent == more.intent == "capacity"
    assert keys(lora) == [r.key for r in oracle.capacity(16, "card", strategy="lora")]
    assert keys(more) == [r.key for r in oracle.capacity(32, "die", strategy="lora")]


@pytest.mark.parametrize("fresh", [
    "what can I train on 8 cards?",  # a new capacity question
    "help",
])
def test_a_question_of_its_own_starts_afresh(engine: Engine, fresh: str) -> None:
    _, answer = chain(engine, ["qwen2.5-72b lora 8k on snt9b23", fresh])
    assert answer.flavours == () and answer.seq_lens == () and answer.strategies == ()


@pytest.mark.parametrize(("next_one", "models"), [
    ("qwen3-8b", ("qwen3-8b",)),  # names one table model
    ("glm4-9b vs llama3.1-8b", ("glm4-9b", "llama3.1-8b")),  # a new comparison
])
def test_a_model_named_anew_keeps_the_thread_s_narrowing(
        engine: Engine, next_one: str, models: tuple[str, ...]) -> None:
    _, answer = chain(engine, ["qwen2.5-72b lora 8k on snt9b23", next_one])
    assert answer.models == models
    assert answer.flavours == ("snt9b23",) and answer.seq_lens == (8192,)
    assert answer.strategies == ("lora",)


def test_nothing_to_continue(engine: Engine) -> None:
    _, thanks = chain(engine, ["qwen2.5-72b lora", "thanks!"])
    assert thanks.intent == "help"
    alone = engine.ask("and lora?")
    assert alone.intent == "help"
    # After a model the table lacks, there is nothing to continue.
    _, after = chain(engine, ["gpt-4o", "and lora?"])
    assert after.intent == "help"
    # Help and lists leave the conversation where it was.
    *_, kept = chain(engine, ["qwen2.5-72b", "help", "and lora?"])
    assert keys(kept) == [r.key for r in oracle.select("qwen2.5-72b", "lora")]


def test_a_context_holds_no_text_and_survives_json(engine: Engine) -> None:
    answer = engine.ask("please tell me: can we LoRA qwen2.5-32b at 8k on two snt9b nodes")
    context = context_after(answer, None)
    assert context is not None
    dumped = json.dumps(context.json())
    for word in ("please", "tell", "we", "two"):
        assert f'"{word}' not in dumped and f" {word} " not in dumped
    assert Context.from_json(json.loads(dumped)) == context
    assert Context.from_json({"kind": "lookup", "language": "xx"}) is None
    assert Context.from_json("nonsense") is None


def test_the_in_process_store_is_bounded_in_count_and_age() -> None:
    store = MemoryContexts(keep_seconds=0.2, max_contexts=3)
    context = Context(kind="lookup", language="en", models=("qwen2.5-7b",))
    for i in range(5):
        store.put(f"k{i}", context)
    assert [store.get(f"k{i}") for i in range(5)] == [None, None, context, context, context]
    time.sleep(0.25)
    assert store.get("k4") is None
    store.put("k5", context)
    store.put("k5", None)
    assert store.get("k5") is None


def test_cli_thread_answers_each_line_after_the_ones_before() -> None:
    lines = ["qwen2.5-72b", "and lora?", "8卡够吗", "", "and lora?", "千问2.5-7B", "那全参呢"]
    result = run_to_exit([str(MINCARDS), "ask", "--json", "--thread", "-"],
                         input="\n".join(lines) + "\n", capture_output=True, text=True,
                         check=False, env=dict(os.environ))
    assert result.returncode == 0, result.stderr
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == len(lines)
    assert [o["intent"] for o in out] == ["lookup", "lookup", "lookup", "help", "help",
                                          "lookup", "lookup"]
    assert {r["strategy"] for r in out[1]["rows"]} == {"lora"}
    assert out[2]["budget"] == {"count": 8, "unit": "card", "flavour": None}
    assert out[6]["models"] == ["qwen2.5-7b"] and {r["strategy"] for r in out[6]["rows"]} == {
        "full"}
    # Without --thread every line stands alone, as before.
    alone = run_to_exit([str(MINCARDS), "ask", "--json", "-"], input="qwen2.5-72b\nand lora?\n",
                        capture_output=True, text=True, check=False)
    assert [json.loads(line)["intent"] for line in alone.stdout.splitlines()] == ["lookup",
                                                                                  "help"]


def test_follow_up_json_is_the_same_contract(engine: Engine) -> None:
    answers = chain(engine, ["qwen2.5-32b", "can I do lora on 8 cards?"])
    payload = render_json(engine.knowledge, answers[1])
    assert payload["intent"] == "lookup" and payload["models"] == ["qwen2.5-32b"]
    assert all(set(r["fits"]) == {"mindspeed_llm", "llama_factory"} for r in payload["rows"])


@pytest.mark.parametrize("next_one", [
    "and qwen2.5-72b?", "the 72b?", "what about Qwen/Qwen2.5-72B-Instruct",
    "那 qwen2.5-72b 呢", "same for qwen2.5-72b?", "Qwen2.5-72B 呢？", "how about qwen 2.5 72b then",
    "换成 Qwen/Qwen2.5-72B-Instruct 呢",
])
def test_naming_the_next_model_replaces_only_the_model(engine: Engine, next_one: str) -> None:
    _, answer = chain(engine, ["qwen2.5-32b full 8k on 2 nodes?", next_one])
    payload = render_json(engine.knowledge, answer)
    assert payload["models"] == ["qwen2.5-72b"], next_one
    assert [(r["strategy"], r["seq_len"]) for r in payload["rows"]] == [("full", 8192)]
    assert payload["budget"] == {"count": 2, "unit": "node", "flavour": None}
    # The verdict is the table's: Qwen2.5-72B full 8K needs more than two nodes anywhere.
    space = oracle.room(2, "node")
    row = next(r for r in oracle.rows() if r.key == ("qwen2.5-72b", "full", 8192))
    fits = oracle.fits(row, space)
    want = "yes" if any(v for by in fits.values() for v in by.values()) else "no"
    assert payload["verdict"] == want == "no"


@pytest.mark.parametrize(("next_one", "model"), [
    ("and llama3.1-8b?", "llama3.1-8b"), ("那 glm4-9b 呢", "glm4-9b"),
    ("same for qwen3-14b?", "qwen3-14b"),
    ("what about meta-llama/Llama-3.1-70B-Instruct", "llama3.1-70b"),
])
def test_flavour_and_framework_stay_with_the_next_model(engine: Engine, next_one: str,
                                                        model: str) -> None:
    _, answer = chain(engine, ["qwen3-32b lora 8k with llama-factory on snt9b23", next_one])
    assert answer.models == (model,)
    assert answer.frameworks == ("llama_factory",) and answer.flavours == ("snt9b23",)
    assert answer.strategies == ("lora",) and answer.seq_lens == (8192,)


def test_what_the_next_question_says_replaces_what_the_thread_set(engine: Engine) -> None:
    _, lora, nodes = chain(engine, ["qwen2.5-32b full 8k on 2 nodes?",
                                    "and qwen2.5-72b lora?", "llama3.1-70b on 4 nodes"])
    assert lora.models == ("qwen2.5-72b",) and lora.strategies == ("lora",)
    assert lora.seq_lens == (8192,) and lora.budget is not None and lora.budget.count == 2
    assert nodes.models == ("llama3.1-70b",) and nodes.strategies == ("lora",)
    assert nodes.budget is not None and nodes.budget.count == 4


def test_a_model_without_the_thread_s_strategy_says_so(engine: Engine) -> None:
    _, mixtral = chain(engine, ["qwen2.5-32b lora 8k on 2 nodes?", "same for mixtral?"])
    # Mixtral has no LoRA row: the table has no entry for that, never a LoRA-less lookup.
    assert mixtral.models == ("mixtral-8x7b",) and mixtral.intent == "not_covered"
