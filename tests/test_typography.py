"""One typesetting convention in every reply kind and both languages: no two parentheses side
by side, no space between two Chinese characters, one space between Chinese and Latin."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from bench.questions import questions
from mincards.bot.answering.conversation import context_after
from mincards.bot.answering.engine import Engine
from mincards.bot.replies.lead import short_text
from mincards.bot.replies.render_blocks import message
from mincards.bot.replies.render_text import render_text
from mincards.bot.replies.typography import typeset
from tests.process_exit import run_to_exit

DOUBLED = re.compile(r"\)\s*\(|）\s*（|\)\s*（|）\s*\(")
HAN_SPACE_HAN = re.compile(r"[\u3400-\u9fff] +[\u3400-\u9fff]")
HAN_LATIN = re.compile(r"[\u3400-\u9fff][A-Za-z0-9]|[A-Za-z0-9][\u3400-\u9fff]")


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in ("value", "action_id", "block_id", "url"):
                yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


@pytest.fixture(scope="module")
def replies(engine: Engine) -> list[tuple[str, str]]:
    """Every reply kind, from the bench's generated questions (lookups, budgets, capacity,
    comparisons, plans, models the table lacks, follow-ups) in both languages."""
    out = []
    asked = questions(engine, 1500)
    for question, before in asked:
        context = context_after(engine.ask(before), None) if before else None
        answer = engine.ask(question, context)
        out.append((question, render_text(engine.knowledge, answer)))
        out.append((question, short_text(engine.knowledge, answer)))
        blocks = message(engine.knowledge, answer, question=question)
        out += [(question, text.replace("*", "")) for text in _texts(blocks["blocks"])]
    return out


def test_the_replies_cover_both_languages_and_many_kinds(engine: Engine,
                                                        replies: list[tuple[str, str]]) -> None:
    assert any(re.search(r"[\u4e00-\u9fff]", t) for _, t in replies)
    kinds = {engine.ask(q).intent for q, _ in replies[::50]}
    assert len(kinds) >= 5


def test_no_two_parentheses_side_by_side(replies: list[tuple[str, str]]) -> None:
    bad = [(q, m.group(0), t[max(0, m.start() - 30):m.end() + 30]) for q, t in replies
           if (m := DOUBLED.search(t))]
    assert not bad, bad[:5]


def test_no_space_between_two_chinese_characters(replies: list[tuple[str, str]]) -> None:
    bad = [(q, t[max(0, m.start() - 20):m.end() + 20]) for q, t in replies
           if (m := HAN_SPACE_HAN.search(t))]
    assert not bad, bad[:5]


def test_chinese_and_latin_are_spaced(replies: list[tuple[str, str]]) -> None:
    # The person's own words are echoed as typed ("千问2.5"), so only the replies' own words
    # are checked: a line that has none of the question's text.
    bad = [(q, t[max(0, m.start() - 20):m.end() + 20]) for q, t in replies
           if (m := HAN_LATIN.search(t)) and m.group(0) not in q]
    assert not bad, bad[:5]


@pytest.mark.parametrize(("language", "raw", "typeset_as"), [
    ("zh", "Snt9B 上 16 张卡 可训练 30 个", "Snt9B 上 16 张卡可训练 30 个"),
    ("zh", "按表中LoRA序列长度", "按表中 LoRA 序列长度"),
    ("zh", "1 张卡（1 个节点）（Llama-Factory）", "1 张卡（1 个节点；Llama-Factory）"),
    ("en", "1 card (1 node) (a likely source error)", "1 card (1 node; a likely source error)"),
    ("en", "Qwen2.5-7B (7B)", "Qwen2.5-7B (7B)"),
])
def test_the_one_function(language: str, raw: str, typeset_as: str) -> None:
    assert typeset(language, raw) == typeset_as


def test_help_examples_paste_as_typed() -> None:
    import sys
    from pathlib import Path

    exe = Path(sys.executable).with_name("mincards")
    out = run_to_exit([str(exe), "ask", "--help"], capture_output=True, text=True,
                      check=True).stdout
    assert "printf 'qwen 7b\\nmixtral lora\\n' | mincards ask --json -" in out


def test_an_empty_line_in_a_thread_is_no_question() -> None:
    import sys
    from pathlib import Path

    exe = Path(sys.executable).with_name("mincards")
    out = run_to_exit([str(exe), "ask", "--short", "--thread", "-"], capture_output=True,
                      text=True, check=True, input="qwen2.5-72b lora\n\n").stdout
    assert out.splitlines() == [out.splitlines()[0]] and "Qwen2.5-72B" in out
    assert "help" not in out.lower() and "didn't find" not in out


@pytest.mark.parametrize("text", ["qwen2.5-72b on 16 cards", "qwen2.5-72b 16卡够吗"])
def test_a_notification_never_ends_with_a_colon(engine: Engine, text: str) -> None:
    payload = message(engine.knowledge, engine.ask(text), question=text)
    assert not payload["text"].rstrip().endswith((":", "："))


@pytest.mark.parametrize(("text", "heading"), [
    ("qwen3-8b", "full-parameter · 4K, 8K; LoRA · 4K, 8K"),
    ("InternVL2.5 8B 16 DIE 够吗", "全参 · 4K、8K；LoRA · 4K、8K"),
])
def test_entries_that_read_the_same_share_one_line(engine: Engine, text: str,
                                                   heading: str) -> None:
    body = render_text(engine.knowledge, engine.ask(text))
    assert [line for line in body.splitlines() if line.strip().startswith(heading)]
    # A framework that supports none of them is said once, not under each entry.
    assert body.count("不支持") <= 1 and body.count("not supported") <= 1
