"""Budgets as people say them: parts of a node, and hardware (machines of so many cards, a
product of cards, chips). Each is a budget with a verdict, checked against tests/oracle.py."""

from __future__ import annotations

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.reading.asked import Budget
from mincards.bot.replies.render_json import render_json
from mincards.bot.replies.render_text import render_text
from tests import oracle

# (question, model, (count, unit, flavour))
PARTS = [
    ("qwen2.5-32b lora 4k on half a node", "qwen2.5-32b", (0.5, "node", None)),
    ("qwen2.5-32b lora 4k on 0.5 nodes", "qwen2.5-32b", (0.5, "node", None)),
    ("can I lora qwen2.5-32b at 4k with half of a node?", "qwen2.5-32b", (0.5, "node", None)),
    ("qwen2.5-72b lora 4k on a quarter node", "qwen2.5-72b", (0.25, "node", None)),
    ("qwen2.5-72b lora 4k, quarter of a Snt9B23 node enough?", "qwen2.5-72b",
     (0.25, "node", "snt9b23")),
    ("qwen2.5-72b lora 4k on 1.5 nodes", "qwen2.5-72b", (1.5, "node", None)),
    ("llama3.1-70b lora on one and a half nodes?", "llama3.1-70b", (1.5, "node", None)),
    ("qwen2.5-32b lora 4k 半台机器够吗", "qwen2.5-32b", (0.5, "node", None)),
    ("qwen2.5-32b lora 半个节点能跑吗", "qwen2.5-32b", (0.5, "node", None)),
    ("qwen2.5-72b lora 4k 一台半够不够", "qwen2.5-72b", (1.5, "node", None)),
    ("qwen2.5-72b lora 一个半节点", "qwen2.5-72b", (1.5, "node", None)),
    ("qwen2.5-72b lora 用1.5台 9b23", "qwen2.5-72b", (1.5, "node", "snt9b23")),
    ("qwen2.5-32b lora on 3/4 of a node?", "qwen2.5-32b", (0.75, "node", None)),
    ("qwen2.5-32b lora 4k on three quarters of a node", "qwen2.5-32b", (0.75, "node", None)),
    ("qwen2.5-32b lora 4k on two thirds of a node", "qwen2.5-32b", (0.6667, "node", None)),
    ("Is half an Atlas A3 node enough for qwen3-14b lora 4k?", "qwen3-14b",
     (0.5, "node", "snt9b23")),
]

HARDWARE = [
    ("Can I train qwen2.5 72b on a single 8-card 910B machine?", "qwen2.5-72b",
     (8, "card", "snt9b")),
    ("I have 4 x 910C, can I lora qwen3-32b?", "qwen3-32b", (4, "card", "snt9b23")),
    ("llama3.1-70b full 4k on 2x8 NPUs", "llama3.1-70b", (16, "card", None)),
    ("qwen2.5-72b lora on one 8-NPU server?", "qwen2.5-72b", (8, "card", None)),
    ("两台8卡机器 qwen2.5-72b lora 够吗", "qwen2.5-72b", (16, "card", None)),
    ("两台机器每台8卡, llama3.1-70b lora 行吗", "llama3.1-70b", (16, "card", None)),
    ("2 machines of 8 cards, qwen2.5-72b lora?", "qwen2.5-72b", (16, "card", None)),
    ("two servers with 4 NPUs each - llama3.1-70b lora?", "llama3.1-70b", (8, "card", None)),
    ("we have 3 boxes of 8 cards: qwen2.5-72b full 8k?", "qwen2.5-72b", (24, "card", None)),
    ("mixtral 8x7b full on 2 x 8-card servers", "mixtral-8x7b", (16, "card", None)),
    ("qwen2.5-7b full on an 8-card machine", "qwen2.5-7b", (8, "card", None)),
    ("qwen2.5-7b 全参 一台4卡的910B服务器", "qwen2.5-7b", (4, "card", "snt9b")),
    ("glm4-9b lora on 8 x 910B", "glm4-9b", (8, "card", "snt9b")),
    ("qwen2.5 72b 2×8卡 够吗", "qwen2.5-72b", (16, "card", None)),
    ("we have 2 servers × 4 NPUs, qwen3-32b full 8k?", "qwen3-32b", (8, "card", None)),
    ("3台8卡服务器能全参 qwen2.5-72b 4k 吗", "qwen2.5-72b", (24, "card", None)),
    ("can i fit qwen2.5-72b full on 16x 910B?", "qwen2.5-72b", (16, "card", "snt9b")),
    ("我们只有半台910B，qwen2.5-7b 全参能跑吗", "qwen2.5-7b", (0.5, "node", "snt9b")),
    # A machine with no card count is a node.
    ("qwen2.5-72b lora 4k on a single 910B machine", "qwen2.5-72b", (1, "node", "snt9b")),
    ("qwen2.5-72b lora on two boxes", "qwen2.5-72b", (2, "node", None)),
]


def _check(engine: Engine, text: str, model: str, budget: tuple[float, str, str | None]
           ) -> dict[str, object]:
    answer = engine.ask(text)
    payload = render_json(engine.knowledge, answer)
    count, unit, flavour = budget
    assert payload["intent"] == "lookup" and payload["models"] == [model], text
    assert payload["budget"] == {"count": count, "unit": unit, "flavour": flavour}, text
    space = oracle.room(count, unit, flavour)
    assert answer.room == space
    got = {(r["model"], r["strategy"], r["seq_len"]): r["fits"] for r in payload["rows"]}
    assert got == {r.key: oracle.fits(r, space)
                   for r in oracle.rows() if r.key in got}
    assert payload["verdict"] in ("yes", "no", "mixed")
    return payload


@pytest.mark.parametrize(("text", "model", "budget"), PARTS)
def test_a_part_of_a_node_is_that_share_of_its_cards(
        engine: Engine, text: str, model: str, budget: tuple[float, str, str | None]) -> None:
    payload = _check(engine, text, model, budget)
    # The verdict (its first lines) says what the part is in cards or DIE.
    verdict = "\n".join(str(payload["text"]).splitlines()[:4])
    said = f"{budget[0]:.2f}".rstrip("0")
    assert f"{said} " in verdict, verdict
    # "a node" inside "3/4 of a node" is never read as one whole node.
    assert payload["budget"]["count"] < 2


def test_half_a_node_is_four_cards_or_eight_die(engine: Engine) -> None:
    answer = engine.ask("qwen2.5-32b lora 4k on half a node")
    assert answer.room == {"snt9b": 4, "snt9b23": 8}
    lead = render_json(engine.knowledge, answer)["lead"]
    # Qwen2.5-32B LoRA 4K needs 8 cards on Snt9B: half a node is not enough there.
    assert lead.startswith("Yes") and "not on Snt9B (0.5 nodes = 4 cards)" in lead
    assert "Snt9B23 (0.5 nodes = 4 cards = 8 DIE)" in lead
    no = render_json(engine.knowledge, engine.ask("qwen2.5-72b lora 4k on a quarter node"))
    assert no["verdict"] == "no" and "0.25 nodes = 2 cards" in no["lead"]
    zh = render_json(engine.knowledge, engine.ask("qwen2.5-32b lora 4k 半台机器"))["lead"]
    assert "0.5 台 = 4 张卡" in zh


@pytest.mark.parametrize(("text", "model", "budget"), HARDWARE)
def test_hardware_said_as_hardware_is_a_budget(
        engine: Engine, text: str, model: str, budget: tuple[float, str, str | None]) -> None:
    _check(engine, text, model, budget)


def test_hardware_budgets_commit_to_a_verdict_not_a_plain_lookup(engine: Engine) -> None:
    answer = engine.ask("Can I train qwen2.5 72b on a single 8-card 910B machine?")
    text = render_text(engine.knowledge, answer)
    # Qwen2.5-72B needs 16 Snt9B cards at the least: one 8-card machine is a No.
    assert text.startswith("No — Qwen2.5-72B does not fit"), text


@pytest.mark.parametrize("text", [
    "mixtral 8x7b lora",  # a size, not 8 x 7 cards
    "qwen2.5-72b lora 8k, batch size 8",
    "qwen3-30b-a3b full",
])
def test_sizes_and_other_numbers_are_no_hardware(engine: Engine, text: str) -> None:
    assert engine.questions.read(text).budget is None


def test_a_part_of_a_node_survives_a_thread(engine: Engine) -> None:
    from mincards.bot.answering.conversation import Context, context_after

    first = engine.ask("qwen2.5-32b lora 4k on half a node")
    context = context_after(first, None)
    assert context is not None
    again = Context.from_json(context.json())
    assert again is not None and again.budget == Budget(0.5, "node", None)
    follow = engine.ask("and 8k?", again)
    assert follow.budget == Budget(0.5, "node", None) and follow.seq_lens == (8192,)
