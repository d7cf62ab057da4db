"""A mixed verdict's first line says where its yes holds (issue 37): "Yes for full-parameter · 4K
on Snt9B23 (32 DIE) with MindSpeed-LLM; not on Snt9B (16 cards, 32 cards needed); no for ...".
A reader on Snt9B must not take a yes that holds only on Snt9B23 for theirs. Checked over the
bench's generated questions that carry a budget, and budgets said over every table model, on
the text, the short reply and the blocks."""

from __future__ import annotations

import itertools

import pytest

from bench.questions import questions
from mincards.bot.answering.answer import Answer
from mincards.bot.answering.conversation import context_after
from mincards.bot.answering.engine import Engine
from mincards.bot.replies.render_blocks import render_blocks, short_message
from mincards.bot.replies.render_json import render_json
from mincards.bot.replies.render_text import render_text

BUDGETS = ["{m} on 16 cards", "{m} lora on 8 cards?", "can {m} run on 2 nodes", "{m} 全参 16卡够吗",
           "{m} 32 DIE enough?", "two 8-card machines for {m} full?", "{m} lora 一台机器够吗"]


def _asked(engine: Engine) -> list[Answer]:
    out = []
    for question, before in questions(engine, 1500, seed=11):
        previous = context_after(engine.ask(before), None) if before else None
        out.append(engine.ask(question, previous))
    for key, frame in itertools.product(engine.knowledge.table.models(), BUDGETS):
        out.append(engine.ask(frame.format(m=key)))
    return [a for a in out if a.budget is not None and a.rows]


def _first_section(blocks: list[dict]) -> str:
    return next(b["text"]["text"] for b in blocks if b.get("type") == "section")


def test_every_mixed_verdict_names_each_flavour_in_its_first_line(engine: Engine) -> None:
    mixed = [a for a in _asked(engine)
             if render_json(engine.knowledge, a).get("verdict") == "mixed"]
    assert len(mixed) >= 30  # the check means something (45 when written)
    for answer in mixed:
        shown = [engine.knowledge.flavour_display(f) for f in answer.room]
        text = render_text(engine.knowledge, answer).splitlines()[0]
        short = short_message(engine.knowledge, answer)["text"]
        blocks = _first_section(render_blocks(engine.knowledge, answer))
        for first in (text, short, blocks):
            # Snt9B is a prefix of Snt9B23: each flavour as a word of its own.
            named = {f for f in shown if any(
                first[i + len(f):i + len(f) + 1] in ("", " ", "（", "(", "）", ")", "，", ",")
                for i in _at(first, f))}
            assert named == set(shown), (answer.text, first)


def _at(text: str, word: str) -> list[int]:
    return [i for i in range(len(text)) if text.startswith(word, i)]


@pytest.mark.parametrize(("question", "holds", "not_on"), [
    ("two 8-card machines for llama3.1-70b full?", "on Snt9B23 (32 DIE) with MindSpeed-LLM",
     "not on Snt9B (16 cards, 32 cards needed)"),
    ("两台8卡机器能跑llama3.1-70b全参吗", "在 Snt9B23（32 DIE）上，使用 MindSpeed-LLM",
     "在 Snt9B（16 张卡，需要 32 张卡）上不够"),
])
def test_the_yes_says_where_it_holds_and_where_not(engine: Engine, question: str, holds: str,
                                                   not_on: str) -> None:
    first = render_text(engine.knowledge, engine.ask(question)).splitlines()[0]
    assert holds in first and not_on in first
    assert first.index(holds) < first.index(not_on)
