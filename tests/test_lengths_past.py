"""Lengths past the table (issue 38, item 4): the reply says the table stops at its longest
length, then gives an estimate for the asked length grown from the model's own longest rows,
labelled as one; beyond 4x the longest it is an extrapolation with no verdict. And a model past
the sizes the estimator was fitted on says so."""

from __future__ import annotations

from typing import Any

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.estimating.calibrate import per_doubling
from mincards.bot.estimating.observations import Observation
from mincards.bot.estimating.shape import Shape
from mincards.bot.replies.render_blocks import render_blocks
from mincards.bot.replies.render_json import render_json
from mincards.bot.replies.render_text import render_text
from tests.blockkit import assert_valid_blocks


def ask(engine: Engine, text: str) -> tuple[Any, dict[str, Any], str]:
    answer = engine.ask(text)
    return answer, render_json(engine.knowledge, answer), render_text(engine.knowledge, answer)


def table_count(engine: Engine, model: str, strategy: str, seq_len: int, framework: str,
                flavour: str) -> int | None:
    entry = next(e for e in engine.knowledge.table.entries_for(model)
                 if e.strategy == strategy and e.seq_len == seq_len)
    return entry.count(framework, flavour)


@pytest.mark.parametrize("text", ["qwen3-8b full 32k", "Qwen/Qwen3-8B 全参 32k 要几张卡",
                                  "how many cards to fully fine-tune qwen3 8b at 16k?"])
def test_a_length_past_the_table_is_said_then_estimated(engine: Engine, text: str) -> None:
    answer, payload, shown = ask(engine, text)
    assert answer.intent == "not_covered" and not payload.get("rows")
    estimate = answer.estimate
    assert estimate is not None and estimate.lengthened_from == 8192
    assert not estimate.too_long
    asked = {c.seq_len for c in estimate.cells}
    assert len(asked) == 1 and asked.pop() in (16384, 32768)
    for cell in estimate.cells:
        listed = table_count(engine, "qwen3-8b", cell.strategy, 8192, cell.framework,
                             cell.flavour)
        assert listed is not None and cell.count >= listed  # never fewer than at 8K
        assert cell.high == cell.count * 2
    assert payload["estimate"]["lengthened_from"] == 8192
    assert payload["estimate"]["extrapolated"] is False
    # The table's limit first, then the estimate labelled as one, and no held-out record.
    limit = "8192"
    assert limit in shown
    label = "Estimate, not the table's" if answer.language == "en" else "估算（不是表中数据）"
    assert shown.index(limit) < shown.index(label)
    assert "held out of the choice" not in shown and "留出验证（" not in shown


def test_far_past_the_table_is_an_extrapolation_with_no_verdict(engine: Engine) -> None:
    answer, payload, shown = ask(engine, "qwen2.5-72b lora 128k")
    estimate = answer.estimate
    assert estimate is not None and estimate.too_long and estimate.extrapolated
    assert payload["estimate"]["extrapolated"] is True
    assert "an extrapolation" in shown
    budget, _, said = ask(engine, "can I LoRA qwen2.5-72b at 128k on 512 cards?")
    assert budget.estimate is not None and budget.estimate.too_long
    assert "By estimate" not in said  # an extrapolation commits to no verdict


def test_a_length_the_table_lists_is_the_table_s_only(engine: Engine) -> None:
    answer, payload, _ = ask(engine, "qwen3-8b full 8k")
    assert answer.intent == "lookup" and answer.estimate is None and payload["rows"]


@pytest.mark.parametrize("text", ["qwen2.5-72b lora 128k", "qwen3 8b 全参 32k",
                                  "qwen3-8b lora 16k on 8 cards?"])
def test_the_length_estimate_fits_slack(engine: Engine, text: str) -> None:
    answer = engine.ask(text)
    blocks = render_blocks(engine.knowledge, answer)
    assert_valid_blocks(blocks, 50)  # no empty context where no record is said
    shown = str(blocks)
    assert "Estimate, not the table" in shown or "估算（不是表中数据）" in shown


def test_growth_per_doubling_is_the_table_s_own_steps() -> None:
    def obs(model: str, seq_len: int, count: int) -> Observation:
        return Observation(model, "f", "full", seq_len, "fw", "fl", count,
                           Shape(name=model, params_b=8.0, source="known-models"))
    # One model doubles from 4K to 8K, one stays: half a doubling of count per doubling.
    kept = [obs("a", 4096, 8), obs("a", 8192, 16), obs("b", 4096, 8), obs("b", 8192, 8)]
    assert per_doubling(kept) == pytest.approx(2 ** 0.5)
    assert per_doubling([obs("a", 4096, 8)]) == 1.0  # one length: no evidence, no growth


def test_a_model_past_the_fitted_sizes_says_it_is_an_extrapolation(engine: Engine) -> None:
    answer, payload, shown = ask(engine, "kimi k2 lora")
    assert answer.estimate is not None and answer.estimate.extrapolated
    assert payload["estimate"]["extrapolated"] is True
    assert "larger than the models these estimates were fitted on" in shown
    assert "Llama-Factory up to 235B" in shown
    within, payload, _ = ask(engine, "phi-4 lora")
    assert within.estimate is not None and not within.estimate.extrapolated
    assert payload["estimate"]["validation"]["nested"] is True


def test_the_estimate_past_the_table_reads_the_same_in_every_process(tmp_path: Any) -> None:
    # The strategies were once gathered in a set: their order (and the reply's lines) changed
    # with each process's string hashing.
    import os
    import subprocess

    from tests.bot_process import MINCARDS

    replies = {subprocess.run(
        [str(MINCARDS), "ask", "Llama 3.1 8B 32k"], capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONHASHSEED": str(seed), "MINCARDS_HUB": "off"}).stdout
        for seed in (1, 2, 3, 4, 5, 6)}
    assert len(replies) == 1
    assert "full-parameter · 32K" in next(iter(replies))
