"""Every intent, both languages, the table's caveats, and the numbers themselves."""

from __future__ import annotations

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.replies.render_json import render_json
from mincards.bot.replies.render_text import render_text


def kinds(answer) -> set[str]:  # type: ignore[no-untyped-def]
    return {n.kind for n in answer.notes}


def test_lookup_gives_every_entry_when_nothing_narrows_it(engine: Engine) -> None:
    answer = engine.ask("qwen2.5-72b")
    assert answer.intent == "lookup"
    assert {(e.strategy, e.seq_len) for e in answer.rows} == {
        ("full", 4096), ("lora", 4096), ("full", 8192), ("lora", 8192)}


def test_lookup_numbers_come_from_the_table(engine: Engine) -> None:
    answer = engine.ask("qwen 2.5 72b lora 8k?")
    (row,) = answer.rows
    assert (row.count("mindspeed_llm", "snt9b"), row.count("mindspeed_llm", "snt9b23")) == (16, 16)
    assert (row.count("llama_factory", "snt9b"), row.count("llama_factory", "snt9b23")) == (32, 32)
    text = render_text(engine.knowledge, answer)
    assert ("MindSpeed-LLM\n  LoRA · 8K: Snt9B 16 cards, 2 nodes | Snt9B23 16 DIE (8 cards), "
            "1 node") in text
    assert ("Llama-Factory\n  LoRA · 8K: Snt9B 32 cards, 4 nodes | Snt9B23 32 DIE (16 cards), "
            "2 nodes") in text


def test_nodes_round_up(engine: Engine) -> None:
    text = render_text(engine.knowledge, engine.ask("qwen3-235b-a22b full"))
    assert "Snt9B 512 cards, 64 nodes" in text and "512 DIE (256 cards), 32 nodes" in text


def test_not_supported_is_said_for_both_flavours(engine: Engine) -> None:
    answer = engine.ask("mixtral 8x7b full 4096")
    assert answer.rows[0].count("llama_factory", "snt9b") is None
    assert "Llama-Factory: not supported" in render_text(engine.knowledge, answer)


def test_shorter_sequence_is_answered_as_an_upper_bound(engine: Engine) -> None:
    answer = engine.ask("qwen2.5 7b lora 1k")
    assert [(e.strategy, e.seq_len) for e in answer.rows] == [("lora", 4096)]
    note = answer.note("upper_bound")
    assert note is not None and note.args["asked"] == 1024 and note.args["shown"] == 4096


@pytest.mark.parametrize(("text", "reason"), [
    ("mixtral 8x7b lora", "strategy_not_listed"),
    ("qwen2vl-72b lora 8192", "seq_not_listed"),
    ("llama3.1-8b full 32k", "seq_not_listed"),
    ("qwen2.5-7b dpo", "stage_not_covered"),
    ("qwen2.5-7b grpo", "stage_not_covered"),
])
def test_not_covered_says_what_the_table_has(engine: Engine, text: str, reason: str) -> None:
    answer = engine.ask(text)
    assert answer.intent == "not_covered"
    assert answer.rows == ()
    assert {reason, "table_has"} <= kinds(answer)


@pytest.mark.parametrize(("text", "note"), [
    ("qwen2-7b full", "suspect_strategy_order"),
    ("llama3.2-1b lora", "die_below_unit"),
    ("qwen2vl-2b lora", "die_below_unit"),
    ("qwen2.5-7b lora", "below_node"),
    ("DeepSeek-R1", "one_entry_two_models"),
    ("qwen2.5-72b full", "reference"),
])
def test_caveats_apply_where_the_table_calls_for_them(engine: Engine, text: str,
                                                      note: str) -> None:
    assert note in kinds(engine.ask(text))


@pytest.mark.parametrize("text", ["qwen2.5-72b full", "glm4-9b full", "qwen3-32b lora 4096"])
def test_caveats_do_not_apply_where_they_should_not(engine: Engine, text: str) -> None:
    assert not {"suspect_strategy_order", "die_below_unit", "below_node"} & kinds(engine.ask(text))


@pytest.mark.parametrize(("text", "intent"), [
    ("what models do you know?", "list"), ("模型列表", "list"), ("help", "help"),
    ("", "help"), ("?", "help"), ("帮助", "help"),
])
def test_list_and_help(engine: Engine, text: str, intent: str) -> None:
    answer = engine.ask(text)
    assert answer.intent == intent
    if intent == "list":
        assert len(answer.models) == 33


def test_list_of_one_family(engine: Engine) -> None:
    answer = engine.ask("which internvl models are there")
    assert answer.intent == "list"
    assert set(answer.models) == {"internvl2.5-8b", "internvl2.5-38b", "internvl2.5-78b"}


@pytest.mark.parametrize(("text", "language", "phrase"), [
    ("Qwen2.5-72B 全参 需要几张卡", "zh", "节点"),
    ("qwen2.5-72b full", "en", "nodes"),
    ("千问 7b", "zh", "哪一个"),
    ("qwen 7b", "en", "Which one"),
    ("qwen2.5-3b 需要几张卡", "zh", "表中没有"),
    ("mixtral lora 需要几张卡", "zh", "表中有"),
    ("模型列表", "zh", "表中的模型"),
    ("帮助", "zh", "例如"),
])
def test_reply_language_follows_the_question(engine: Engine, text: str, language: str,
                                             phrase: str) -> None:
    answer = engine.ask(text)
    assert answer.language == language
    assert phrase in render_text(engine.knowledge, answer)


def test_json_shape(engine: Engine) -> None:
    payload = render_json(engine.knowledge, engine.ask("qwen2.5_vl-7b lora 4096"))
    assert payload["intent"] == "lookup"
    assert payload["models"] == ["qwen2.5_vl-7b"]
    assert payload["candidates"] == []
    assert payload["rows"] == [{"model": "qwen2.5_vl-7b", "strategy": "lora", "seq_len": 4096,
                                "mindspeed_llm": {"snt9b": None, "snt9b23": None},
                                "llama_factory": {"snt9b": 1, "snt9b23": 2}}]
    assert payload["table"] == {"date": "2025-06-24", "title": engine.knowledge.table.source.title,
                                "frameworks": ["mindspeed_llm", "llama_factory"],
                                "flavours": ["snt9b", "snt9b23"]}
    assert payload["lead"] == ("Qwen2.5-VL-7B · LoRA · 4K: 1 card (1 node) on Snt9B, 2 DIE "
                               "(1 node) on Snt9B23, with Llama-Factory.")
    assert payload["text"].startswith(payload["lead"])


def test_user_text_is_never_echoed_raw(engine: Engine) -> None:
    for text in ("<!channel> qwen2.5-3b", "@here qwen 7b", "<@U123> phi-3 <!here>"):
        rendered = render_text(engine.knowledge, engine.ask(text))
        assert "<!" not in rendered and "<@" not in rendered and "@here" not in rendered
