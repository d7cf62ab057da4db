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
