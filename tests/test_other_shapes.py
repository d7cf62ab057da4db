"""Other shapes of question: the largest that fits, two strategies side by side, named
filters that narrow what is shown."""

from __future__ import annotations

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.replies.render_blocks import message
from mincards.bot.replies.render_json import render_json
from mincards.bot.replies.render_rows import render_rows
from mincards.bot.replies.render_text import render_text
from tests import oracle
from tests.blockkit import assert_valid_message


def _largest_fitting(family_prefix: str, strategy: str, count: float, unit: str
                     ) -> dict[str, set[str]]:
    """Per flavour, the largest models of the family whose entry of `strategy` fits."""
    space = oracle.room(count, unit)
    sizes = oracle.sizes()
    out: dict[str, set[str]] = {}
    for flavour in space:
        fitting = {r.model for r in oracle.rows()
                   if r.model.startswith(family_prefix) and r.strategy == strategy
                   and any(by.get(flavour) for by in oracle.fits(r, space).values())}
        if fitting:
            top = max(sizes[m] for m in fitting)
            out[flavour] = {m for m in fitting if sizes[m] == top}
    return out


@pytest.mark.parametrize(("text", "prefix", "strategy", "count", "unit"), [
    ("what's the biggest qwen3 I can full finetune on 8 cards", "qwen3", "full", 8, "card"),
    ("largest qwen3 model for lora on 16 DIE?", "qwen3", "lora", 16, "die"),
    ("8卡最大能全参训练多大的千问3", "qwen3", "full", 8, "card"),
    ("the biggest llama I can lora on 2 nodes", "llama", "lora", 2, "node"),
])
def test_the_largest_that_fits_is_said_first(engine: Engine, text: str, prefix: str,
                                             strategy: str, count: int, unit: str) -> None:
    answer = engine.ask(text)
    assert answer.intent == "capacity" and answer.largest, text
    want = _largest_fitting(prefix, strategy, count, unit)
    lead = render_json(engine.knowledge, answer)["lead"]
    first = lead.split(". ")[0] if answer.language == "en" else lead.split("。")[0]
    for models in want.values():
        for model in models:
            assert engine.knowledge.catalogue[model].display in first, (first, want)
    assert_valid_message(message(engine.knowledge, answer))


@pytest.mark.parametrize("text", [
    "qwen2.5 72b lora 8k vs full 8k", "qwen2.5-72b full or lora at 8k?",
    "qwen2.5-72b 8k 全参和lora分别要几张卡", "Qwen2.5-72B LoRA versus full-parameter, 8192",
])
def test_two_strategies_for_one_model_are_each_answered(engine: Engine, text: str) -> None:
    answer = engine.ask(text)
    assert answer.intent == "lookup" and answer.models == ("qwen2.5-72b",)
    assert {(e.strategy, e.seq_len) for e in answer.rows} == {("full", 8192), ("lora", 8192)}
    lead = render_json(engine.knowledge, answer)["lead"]
    # Each strategy's fewest is in the lead: full's 64 is not hidden behind LoRA's 16.
    full = min(c for r in oracle.select("qwen2.5-72b", "full", 8192)
               for (fw, fl), c in r.counts.items() if fl == "snt9b" and c is not None)
    lora = min(c for r in oracle.select("qwen2.5-72b", "lora", 8192)
               for (fw, fl), c in r.counts.items() if fl == "snt9b" and c is not None)
    assert full != lora and str(full) in lead and str(lora) in lead


@pytest.mark.parametrize(("text", "framework", "flavour"), [
    ("qwen3-32b lora 8k with mindspeed on 9b23", "MindSpeed-LLM", "Snt9B23"),
    ("qwen3-32b lora 8k 用 llama-factory 在 910B 上", "Llama-Factory", "Snt9B"),
    ("qwen3-32b lora 8k on LLaMA-Factory Snt9B23", "Llama-Factory", "Snt9B23"),
])
def test_named_filters_narrow_the_rows_shown(engine: Engine, text: str, framework: str,
                                             flavour: str) -> None:
    answer = engine.ask(text)
    knowledge = engine.knowledge
    other_framework = next(n for n in knowledge.framework_names.values() if n != framework
                           and knowledge.table.framework(
                               next(k for k, v in knowledge.framework_names.items() if v == n)))
    other_flavour = next(fl.display for fl in knowledge.hardware.flavours.values()
                         if fl.display != flavour)
    body = render_text(knowledge, answer).split("\n\n", 1)[1]
    assert framework in body and other_framework not in body
    assert other_flavour not in body.replace(flavour, "")
    table = render_rows(knowledge, answer, "markdown").splitlines()[0]
    assert framework in table and other_framework not in table
    blocks = message(knowledge, answer)
    assert_valid_message(blocks)
    assert other_framework not in str(blocks["blocks"])


def test_the_largest_stays_asked_in_a_follow_up(engine: Engine) -> None:
    from mincards.bot.answering.conversation import Context, context_after

    first = engine.ask("what's the biggest qwen3 I can full finetune on 8 cards")
    kept = context_after(first, None)
    assert kept is not None and kept.largest
    again = Context.from_json(kept.json())  # as Redis or a button keeps it
    assert again is not None and again.largest
    lora = engine.ask("and lora?", again)
    assert lora.intent == "capacity" and lora.largest and lora.strategies == ("lora",)
    assert render_json(engine.knowledge, lora)["lead"].startswith("The largest Qwen3 model")
