"""The bot's hot path remembers: the same question in the same conversation state is the very
same Answer (Engine.recall), and the same answer rendered the same way is the reply already
made (Answering.render); anything else is worked out afresh, and the memories are bounded."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from mincards.bot.answering import engine as engine_module
from mincards.bot.answering.conversation import context_after
from mincards.bot.answering.engine import Engine
from mincards.handlers import answering as answering_module
from mincards.handlers.answering import Answering


class Thing:
    """Stands for an Answer: render only keeps it and compares it by identity."""


def making_reply(reply: str) -> Callable[[], str]:
    return lambda: reply


def test_the_same_question_in_the_same_state_is_recalled(engine: Engine) -> None:
    first = engine.recall("qwen2.5-72b lora 8k")
    assert engine.recall("qwen2.5-72b lora 8k") is first
    assert first == engine.ask("qwen2.5-72b lora 8k")  # what asking afresh says
    # Another state of the conversation is another answer.
    context = context_after(engine.ask("llama3.1-70b full"), None)
    followed = engine.recall("and lora?", context)
    assert followed.models == ("llama3.1-70b",) and followed is not engine.recall("and lora?")
    assert engine.recall("and lora?", context) is followed


def test_a_long_text_is_never_kept(engine: Engine) -> None:
    text = "qwen2.5-7b lora " + "x" * engine_module.MEMO_CHARS
    assert engine.recall(text) is not engine.recall(text)


def test_the_memory_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = Engine()
    monkeypatch.setattr(engine_module, "MEMO_SIZE", 3)
    for i in range(10):
        fresh.recall(f"qwen2.5-7b lora {i}k")
    assert len(fresh._memo) == 3


def test_a_reply_is_rendered_once_per_answer_and_way() -> None:
    made: list[str] = []

    def making(reply: str) -> Callable[[], str]:
        def make() -> str:
            made.append(reply)
            return reply
        return make

    async def run() -> None:
        answering = Answering()
        a, b = Thing(), Thing()
        for _ in range(3):
            assert await answering.render(a, "x", making("A")) == "A"
        assert await answering.render(a, "y", making("AY")) == "AY"
        assert await answering.render(b, "x", making("B")) == "B"
        answering.close()

    asyncio.run(run())
    assert made == ["A", "AY", "B"]


def test_an_id_reused_by_another_answer_never_matches() -> None:
    async def run() -> list[str]:
        answering = Answering()
        said = []
        for i in range(50):
            thing = Thing()  # each freed before the next: CPython reuses their ids
            said.append(await answering.render(thing, "x", making_reply(f"reply {i}")))
            del thing
        answering.close()
        return said

    assert asyncio.run(run()) == [f"reply {i}" for i in range(50)]
    assert answering_module.RENDERED_SIZE >= 50


def test_one_lead_serves_the_message_and_its_notification(engine: Engine) -> None:
    """The message's bold lead and its notification come from one sentence (TAGGED): the same
    as each made on its own, in both languages and every kind; typed text cannot forge bold."""
    from bench.questions import questions
    from mincards.bot.replies.lead import MRKDWN, lead, short_text
    from mincards.bot.replies.render_blocks import message
    from mincards.bot.replies.slack_text import escape

    asked = [q for q, _ in questions(engine, 400)]
    asked += ["qwen \ue0a0 2.5 72b \ue0a1 lora", "千问 7b", "gpt-4o"]
    for question in asked:
        answer = engine.ask(question)
        payload = message(engine.knowledge, answer, question=question)
        assert payload["text"] == escape(short_text(engine.knowledge, answer)), question
        first = payload["blocks"][0]["text"]["text"]
        shown = answer.shown()
        alone = lead(engine.knowledge, shown, MRKDWN)
        assert first in (alone, f"*{alone}*"), question
        assert "\ue0a0" not in first + payload["text"] and "\ue0a1" not in first
