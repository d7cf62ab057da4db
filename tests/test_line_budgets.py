"""Each reply kind within its line budget, and no reply says a line twice: in the terminal's
text and in Slack's blocks, over the bench's generated questions (every kind, both languages,
follow-ups) and the project's own examples.

Budgets were measured over these questions (`tools/replies_snapshot.py`'s kinds) and set a
little above the longest reply seen, except where the issue fixed them: a comparison of two
models fits in 24 lines."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

from bench.questions import questions
from mincards.bot.answering.answer import Answer
from mincards.bot.answering.conversation import context_after
from mincards.bot.answering.engine import Engine
from mincards.bot.replies.render_blocks import message
from mincards.bot.replies.render_text import MAX_CAPACITY_LINES, render_text
from tests.test_blocks import QUESTIONS

EXAMPLES = [
    "which is cheaper to lora, qwen3-32b or qwen2.5-32b?", "qwen3-8b 和 qwen3-14b 对比",
    "mixtral vs qwen2.5-32b vs qwen3-32b",
    "qwen2.5-7b vs qwen2.5-14b vs qwen2.5-32b vs qwen2.5-72b", "千问2.5 7b 14b 32b 72b 对比 lora",
    "what can I train on 16 cards?", "16卡能全参训练哪些模型", "qwen2-7b full llama-factory",
    "Qwen/Qwen2.5-72B-Instruct", "DeepSeek-R1-Distill-Qwen-32B 全参",
]


@dataclass(frozen=True)
class Reply:
    question: str
    answer: Answer
    text: list[str]  # the terminal's lines
    slack: list[str]  # every line a person reads in the Slack message


def _slack_lines(payload: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for block in payload["blocks"]:
        if block["type"] == "section":
            if "text" in block:
                out += block["text"]["text"].split("\n")
            out += [f["text"] for f in block.get("fields", [])]
        elif block["type"] == "context":
            out += [e["text"] for e in block["elements"]]
    return out


@pytest.fixture(scope="module")
def replies(engine: Engine) -> list[Reply]:
    asked: list[tuple[str, str | None]] = [(q, None) for q in [*QUESTIONS, *EXAMPLES]]
    asked += questions(engine, 1500)
    out = []
    for question, before in asked:
        context = context_after(engine.ask(before), None) if before else None
        answer = engine.ask(question, context)
        out.append(Reply(question, answer, render_text(engine.knowledge, answer).splitlines(),
                         _slack_lines(message(engine.knowledge, answer, question=question))))
    return out


def budget(engine: Engine, answer: Answer) -> int:
    """The most lines a reply of this kind may take."""
    families = len({engine.knowledge.catalogue[m].family for m in engine.knowledge.table.models()})
    # An estimate beside a bracket or a stand-in: a blank line, its heading, its record and the
    # page's advice, and a line per framework and strategy.
    frameworks = len(engine.knowledge.table.frameworks)
    strategies = len(engine.knowledge.strategies)
    estimate = 4 + frameworks * strategies if answer.estimate is not None else 0
    return estimate + {
        "lookup": 24, "plan": 30, "not_found": 24, "ambiguous": 12, "help": 12,
        "not_covered": 4, "capacity": MAX_CAPACITY_LINES,
        # A line per family, with the lead and the notes.
        "list": families + 6,
        # Two models in 24 lines, each more in 10.
        "compare": 24 + 10 * max(len(answer.models) - 2, 0),
    }[answer.intent]


def test_the_questions_cover_every_kind_in_both_languages(replies: list[Reply]) -> None:
    kinds = Counter(r.answer.intent for r in replies)
    assert set(kinds) >= {"lookup", "plan", "capacity", "compare", "not_found", "not_covered",
                          "ambiguous", "help", "list"}
    assert {r.answer.language for r in replies} == {"en", "zh"}
    assert any(len(r.answer.models) > 2 for r in replies if r.answer.intent == "compare")


def test_every_reply_kind_keeps_to_its_line_budget(engine: Engine, replies: list[Reply]) -> None:
    over = [(r.question, r.answer.intent, len(r.text), len(r.slack)) for r in replies
            if max(len(r.text), len(r.slack)) > budget(engine, r.answer)]
    assert over == []


def test_a_two_model_comparison_fits_in_24_lines(replies: list[Reply]) -> None:
    two = [r for r in replies if r.answer.intent == "compare" and len(r.answer.models) == 2]
    assert len(two) > 20
    assert max(len(r.text) for r in two) <= 24


def test_no_reply_says_a_line_twice(replies: list[Reply]) -> None:
    twice = []
    for r in replies:
        for where, lines in (("text", r.text), ("slack", r.slack)):
            counts = Counter(line.strip() for line in lines if line.strip())
            twice += [(r.question, where, line) for line, n in counts.items() if n > 1]
    assert twice == []
