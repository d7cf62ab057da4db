"""A word the reader cannot place, right before a size, is that model's name: "frobnicator
9b" is a model the table lacks, never the table's only 9B model (GLM-4-9B) answered as if
asked. Words a question uses around a size it gives ("for", "now", "a", lora, cards) are
never a name (vocabulary.toml's not_names and every word another section gives a meaning)."""

from __future__ import annotations

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.replies.render_text import render_text


@pytest.mark.parametrize(("text", "asked"), [
    ("frobnicator 9b lora", "frobnicator-9b"),
    ("how many cards to lora frobnicator 9b?", "frobnicator-9b"),
    ("quokka 3 24b 做 LoRA 要几张卡？", "quokka-3-24b"),
    ("zorblax 3.1 72b full 8k", "zorblax-3.1-72b"),
])
def test_an_unplaced_word_before_a_size_names_a_model_the_table_lacks(
        engine: Engine, text: str, asked: str) -> None:
    answer = engine.ask(text)
    assert answer.intent == "not_found" and answer.models == (), (answer.intent, answer.models)
    reply = render_text(engine.knowledge, answer)
    # The lead names the model as asked (in the question's language), never "24b".
    assert f"“{asked}”" in reply.splitlines()[0], reply[:160]


@pytest.mark.parametrize(("text", "model"), [
    ("how many cards for 9b lora", "glm4-9b"),
    ("lora 9b", "glm4-9b"),
    ("we ran qwen2.5-7b last week, now 72b lora?", "qwen2.5-72b"),
    ("qwen2.5 for the 72b lora", "qwen2.5-72b"),
    ("can we train qwen2.5 72b than 7b", "qwen2.5-72b"),
])
def test_a_question_s_own_words_around_a_size_stay_prose(engine: Engine, text: str,
                                                         model: str) -> None:
    assert model in engine.ask(text).models
