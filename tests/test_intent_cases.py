"""The held-out questions of tests/cases/intents.py, checked against answers derived from the
table by tests/oracle.py: budget, fits, rows and their order."""

from __future__ import annotations

from typing import Any

import pytest

from mincards.bot.answering.conversation import Context, context_after
from mincards.bot.answering.engine import Engine
from mincards.bot.replies.render_json import render_json
from tests import oracle
from tests.cases import intents


def keys(payload: dict[str, Any]) -> list[tuple[str, str, int]]:
    return [(r["model"], r["strategy"], r["seq_len"]) for r in payload["rows"]]


def check_budget(payload: dict[str, Any], budget: tuple[int, str, str | None]) -> None:
    count, unit, flavour = budget
    assert payload["budget"] == {"count": count, "unit": unit, "flavour": flavour}
    space = oracle.room(count, unit, flavour)
    for row in payload["rows"]:
        want = next(r for r in oracle.rows() if r.key == (row["model"], row["strategy"],
                                                          row["seq_len"]))
        assert row["fits"] == oracle.fits(want, space)


@pytest.mark.parametrize(("text", "model", "strategy", "seq", "budget"), intents.BUDGET)
def test_budget_cases(engine: Engine, text: str, model: str, strategy: str | None,
                      seq: int | None, budget: tuple[int, str, str | None]) -> None:
    payload = render_json(engine.knowledge, engine.ask(text))
    assert (payload["intent"], payload["models"]) == ("lookup", [model])
    assert keys(payload) == [r.key for r in oracle.select(model, strategy, seq)]
    check_budget(payload, budget)


@pytest.mark.parametrize(("text", "budget", "strategy", "seq", "only"), intents.CAPACITY)
def test_capacity_cases(engine: Engine, text: str, budget: tuple[int, str, str | None],
                        strategy: str | None, seq: int | None, only: list[str] | None) -> None:
    payload = render_json(engine.knowledge, engine.ask(text))
    assert payload["intent"] == "capacity"
    want = oracle.capacity(*budget, strategy=strategy, seq=seq, only=only)
    assert keys(payload) == [r.key for r in want]
    assert payload["models"] == list(dict.fromkeys(r.model for r in want))
    check_budget(payload, budget)


@pytest.mark.parametrize(("text", "models", "strategy", "seq"), intents.COMPARE)
def test_compare_cases(engine: Engine, text: str, models: list[str], strategy: str | None,
                       seq: int | None) -> None:
    payload = render_json(engine.knowledge, engine.ask(text))
    assert (payload["intent"], payload["models"]) == ("compare", models)
    assert keys(payload) == [r.key for m in models for r in oracle.select(m, strategy, seq)]
    assert "budget" not in payload


@pytest.mark.parametrize(("questions", "expected"), intents.FOLLOW_UPS)
def test_follow_up_cases(engine: Engine, questions: list[str], expected: tuple[Any, ...]) -> None:
    context: Context | None = None
    for question in questions:
        answer = engine.ask(question, context)
        context = context_after(answer, context)
    payload = render_json(engine.knowledge, answer)
    intent, models, strategy, seq, budget = expected
    assert payload["intent"] == intent
    if intent == "capacity":
        want = oracle.capacity(*budget, strategy=strategy, seq=seq)
        assert keys(payload) == [r.key for r in want]
    else:
        assert payload["models"] == models
        assert keys(payload) == [r.key for m in models for r in oracle.select(m, strategy, seq)]
    if budget:
        check_budget(payload, budget)
    else:
        assert "budget" not in payload
