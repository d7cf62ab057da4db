"""Reading chatty text: which numbers are lengths, budgets or neither; sizes, typos, counts."""

from __future__ import annotations

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.reading.asked import Budget


@pytest.mark.parametrize(("text", "lengths"), [
    ("PM asks: 1000 samples, 3 epochs, Qwen2-VL-7B-Instruct lora with 8k seq. min NPUs?", [8192]),
    ("qwen2.5-7b lora, 5000 samples, save every 500 steps, max_steps=3000", []),
    ("qwen2.5-72b full, bs 64, lr 2e-5, lora rank 16, 80GB per card, seed 1234", []),
    ("llama3.1-8b lora cutoff_len: 8192", [8192]),
    ("qwen2.5-14b lora max_seq_length=4096 per_device_train_batch_size=2", [4096]),
    ("glm4-9b full 4096 tokens", [4096]),
    ("gemma 3 27b, 8k context, 20k examples", [8192]),
    ("llama3.1-8b seq_len:8192", [8192]),
    ("deadline 2025-06-24: qwen2.5-7b lora", []),
    ("qwen2.5-7b lora at 2048", [2048]),  # a length standing right after the strategy
    ("qwen2.5-7b 2048", []),  # a bare number that is not a length the table uses
    ("qwen2.5-7b 8192", [8192]),  # a length the table uses
    ("千问2.5-7B LoRA 序列长度8192 训练数据1万条 3轮", [8192]),
    ("qwen2.5-7b 上下文 4k, 1000条数据, 批大小 32", [4096]),
])
def test_only_numbers_that_say_so_are_lengths(engine: Engine, text: str,
                                              lengths: list[int]) -> None:
    assert engine.questions.read(text).seq_lens == lengths


@pytest.mark.parametrize(("text", "budget"), [
    ("can I LoRA qwen2.5-32b on 8 cards?", Budget(8, "card")),
    ("qwen2.5-32b 16 DIE 够吗", Budget(16, "die")),
    ("two Snt9B23 nodes enough for llama 70b full?", Budget(2, "node", "snt9b23")),
    ("what can I fine-tune on one Snt9B node?", Budget(1, "node", "snt9b")),
    ("a single node, qwen3-8b full", Budget(1, "node")),
    ("qwen2.5-72b 两台够吗", Budget(2, "node")),
    ("qwen2.5-7b 四张卡能训吗", Budget(4, "card")),
    ("qwen2.5-7b 八卡", Budget(8, "card")),
    ("十六卡能全参训练哪些模型", Budget(16, "card")),
    ("qwen2.5-72b 三十二张 910B 卡 够不够", Budget(32, "card", "snt9b")),
    ("llama3.1-70b on 4 machines", Budget(4, "node")),
])
def test_budgets_in_every_unit_and_language(engine: Engine, text: str, budget: Budget) -> None:
    assert engine.questions.read(text).budget == budget


@pytest.mark.parametrize(("text", "model"), [
    ("Qwen 2.5 - 32 B full", "qwen2.5-32b"),
    ("Qwen 2.5-72 B lora", "qwen2.5-72b"),
    ("ＱＷＥＮ２．５－７Ｂ　ｌｏｒａ", "qwen2.5-7b"),  # full-width
    ("intervl2.5 38b", "internvl2.5-38b"),  # a dropped letter
    ("internvll2.5-38b", "internvl2.5-38b"),  # an added letter
    ("gemam 3 27b", "gemma3-27b"),  # two letters swapped
    ("qwne2.5-14b lora", "qwen2.5-14b"),
    ("mixtrall 8x7b full", "mixtral-8x7b"),
    ("qwen2-7b", "qwen2-7b"),  # one plain model is still that model, VL ones aside
    ("PM asks: batch 16, 3 epochs, Qwen2-VL-7B-Instruct lora with 8k seq", "qwen2vl-7b"),
])
def test_names_are_read_whatever_the_spacing_width_or_typo(engine: Engine, text: str,
                                                           model: str) -> None:
    answer = engine.ask(text)
    assert (answer.intent, answer.models) == ("lookup", (model,))


def test_counts_are_never_sizes(engine: Engine) -> None:
    answer = engine.ask("qwen 2.5 for 7 epochs on 8 cards")
    assert answer.intent == "ambiguous"  # 7 epochs is no size: which Qwen2.5?
    assert "qwen2.5-7b" in answer.candidates and "qwen2.5-72b" in answer.candidates


def test_the_pm_question_answers_lora_at_8k_only(engine: Engine) -> None:
    answer = engine.ask("PM asks: 1000 samples, 3 epochs, Qwen2-VL-7B-Instruct lora with 8k "
                        "seq. min NPUs?")
    assert [e.key for e in answer.rows] == [("qwen2vl-7b", "lora", 8192)]
    assert answer.note("upper_bound") is None and answer.note("seq_not_listed") is None
    # Samples and epochs beside "min NPUs?" are context: a lookup that offers the estimate.
    assert answer.intent == "lookup" and answer.plan is None
    assert answer.note("plan_offer") is not None


@pytest.mark.parametrize(("text", "first", "all_of"), [
    ("qwen 7b", "qwen2.5-7b", {"qwen2-7b", "qwen2.5-7b", "qwen2vl-7b", "qwen2.5_vl-7b"}),
    ("qwen 72b", "qwen2.5-72b", {"qwen2-72b", "qwen2.5-72b", "qwen2vl-72b", "qwen2.5_vl-72b"}),
    ("千问 7B 需要几张卡", "qwen2.5-7b",
     {"qwen2-7b", "qwen2.5-7b", "qwen2vl-7b", "qwen2.5_vl-7b"}),
])
def test_several_fits_offer_the_variants_too_likeliest_first(engine: Engine, text: str,
                                                             first: str, all_of: set[str]) -> None:
    answer = engine.ask(text)
    assert answer.intent == "ambiguous" and set(answer.candidates) == all_of
    assert answer.candidates[0] == first
    # The plain models come before the VL ones the name did not ask for.
    is_vl = ["vl" in c for c in answer.candidates]
    assert is_vl == sorted(is_vl)
