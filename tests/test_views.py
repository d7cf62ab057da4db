"""App Home and the ask modal as data; and Chinese replies, buttons and Home in Chinese only."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.answering.followup import FollowUp
from mincards.bot.language import LANGUAGES, Language
from mincards.bot.replies.render_blocks import message
from mincards.bot.replies.render_text import render_text
from mincards.bot.replies.render_views import (
    ASK_VIEW,
    BUDGET_INPUT,
    HOME_CHOOSE_ACTION,
    MODEL_INPUT,
    SEQ_INPUT,
    STRATEGY_INPUT,
    answer_modal,
    ask_modal,
    home_view,
    read_modal,
)
from tests.blockkit import assert_valid_home, assert_valid_modal
from tests.test_blocks import QUESTIONS, elements, shown_text


def options(view: dict[str, Any], action_id: str) -> list[dict[str, Any]]:
    for block in view["blocks"]:
        for e in [*elements([block]), block.get("element") or {}]:
            if e.get("action_id") == action_id:
                return e.get("options") or [o for g in e["option_groups"] for o in g["options"]]
    raise AssertionError(f"no {action_id}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_home_is_short_with_a_model_menu_and_a_legend(engine: Engine, language: Language
                                                      ) -> None:
    view = home_view(engine.knowledge, language)
    assert_valid_home(view)
    assert len(view["blocks"]) <= 10
    menu = options(view, HOME_CHOOSE_ACTION)
    picks = [FollowUp.decode(o["value"]) for o in menu]
    assert {p.model for p in picks if p} == set(engine.knowledge.table.models())
    assert all(p and p.language == language for p in picks)
    text = json.dumps(view, ensure_ascii=False)
    assert "1/2" not in text
    for info in engine.knowledge.hardware.flavours.values():
        assert info.display in text and f"{info.per_node}" in text
    assert "DIE" in text


@pytest.mark.parametrize("question", ["qwen2.5-72b", "千问2.5-72B LoRA 8K", "what fits on 4 nodes",
                                      "qwen2.5-32b vs qwen2.5-72b", "gpt-4o", "qwen 7b"])
def test_home_and_modal_show_any_answer_without_a_table(engine: Engine, question: str) -> None:
    answer = engine.ask(question)
    home = home_view(engine.knowledge, answer.language, answer)
    assert_valid_home(home)
    modal = answer_modal(engine.knowledge, answer)
    assert_valid_modal(modal)
    for view in (home, modal):
        assert all(b["type"] != "table" for b in view["blocks"])
        # The lead, as the message's own first section says it (its notification text also
        # names a "which one?"'s choices, which a view shows as buttons).
        said = message(engine.knowledge, answer)["blocks"][0]["text"]["text"]
        shown = json.dumps(view, ensure_ascii=False).replace("*", "")
        assert all(line.replace("*", "") in shown for line in said.split("\n"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_ask_modal_offers_what_the_table_has(engine: Engine, language: Language) -> None:
    view = ask_modal(engine.knowledge, language)
    assert_valid_modal(view)
    assert view["callback_id"] == ASK_VIEW
    table = engine.knowledge.table
    assert {o["value"] for o in options(view, MODEL_INPUT)} == set(table.models())
    assert {o["value"] for o in options(view, STRATEGY_INPUT)} == set(table.strategies())
    assert {int(o["value"]) for o in options(view, SEQ_INPUT)} == {e.seq_len
                                                                   for e in table.entries}
    inputs = {b["block_id"]: b for b in view["blocks"] if b["type"] == "input"}
    assert not inputs[MODEL_INPUT]["optional"]
    assert inputs[BUDGET_INPUT]["optional"]


def state(model: str | None, strategy: str | None = None, seq: str | None = None,
          budget: str | None = None, language: str = "en") -> dict[str, Any]:
    def picked(value: str | None) -> dict[str, Any]:
        return {"type": "static_select",
                "selected_option": {"text": {"type": "plain_text", "text": value},
                                    "value": value} if value else None}
    return {"type": "modal", "callback_id": ASK_VIEW,
            "private_metadata": json.dumps({"l": language}),
            "state": {"values": {
                MODEL_INPUT: {MODEL_INPUT: picked(model)},
                STRATEGY_INPUT: {STRATEGY_INPUT: picked(strategy)},
                SEQ_INPUT: {SEQ_INPUT: picked(seq)},
                BUDGET_INPUT: {BUDGET_INPUT: {"type": "plain_text_input", "value": budget}}}}}


def test_a_filled_in_modal_is_the_question_it_spells(engine: Engine) -> None:
    form = read_modal(state("qwen2.5-72b", "lora", "8192", "8 cards", "zh"))
    assert (form.language, form.model, form.strategy, form.seq_len, form.budget) == (
        "zh", "qwen2.5-72b", "lora", 8192, "8 cards")
    budget = engine.read_budget(form.budget)
    answer = engine.form(form.language, "qwen2.5-72b", ("lora",), (8192,), budget)
    assert answer.language == "zh" and [e.key for e in answer.rows] == [
        ("qwen2.5-72b", "lora", 8192)]
    assert answer.budget is not None and answer.budget.count == 8
    for broken in (None, "not a view", {"state": "x"}, {"state": {"values": {"model": 5}}}):
        empty = read_modal(broken)
        assert empty.model is None and empty.language == "en"


# Words a Chinese reply may hold in Latin letters: names (models, frameworks, flavours, chips),
# units, and what people type (commands, examples in code spans).
def allowed(engine: Engine) -> set[str]:
    k = engine.knowledge
    names = [*(i.display for i in k.catalogue), *(i.key for i in k.catalogue),
             *k.framework_names.values(),
             *(f.display for f in k.hardware.flavours.values()),
             *(f.chip for f in k.hardware.flavours.values()),
             *(f.unit for f in k.hardware.flavours.values()),
             *(k.strategy_label(s, "zh") for s in k.strategies),
             *(f.display for f in k.vocabulary.families.values()),
             "ModelArts", "Hugging Face", "SFT", "mincards",
             # a plan's and a stand-in's technical words, as Chinese engineers write them
             "TPS", "token", "tokens", "config.json"]
    return {w.lower() for n in names for w in re.findall(r"[A-Za-z][A-Za-z0-9.]*", n)}


def english_words(engine: Engine, texts: list[str], asked: str = "") -> list[str]:
    """Latin-letter words that are not names, units or the asked model's own name."""
    ok = allowed(engine) | {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z0-9.]*", asked)}
    found = []
    for text in texts:
        text = re.sub(r"`[^`]*`|<@[A-Z0-9]+>", "", text)
        found += [w for w in re.findall(r"[A-Za-z][A-Za-z0-9.]*", text)
                  if w.lower().strip(".") not in ok and not re.fullmatch(r"\d*[Kk]|A\d+", w)]
    return found


@pytest.mark.parametrize("question", [q for q in QUESTIONS if re.search(r"[\u4e00-\u9fff]", q)]
                         + ["千问 7b", "千问2.5-3b", "mixtral 全参 16k", "千问2.5-72b lora 6000",
                            "gpt-4o 需要几张卡", "千问2.5-72b lora 在 verl 上"])
def test_a_chinese_reply_is_chinese_all_the_way(engine: Engine, question: str) -> None:
    answer = engine.ask(question)
    assert answer.language == "zh"
    payload = message(engine.knowledge, answer, question=question, shareable=True)
    assert english_words(engine, shown_text(payload), question) == []


def test_chinese_home_and_modal_are_chinese(engine: Engine) -> None:
    answer = engine.ask("千问2.5-72B LoRA 8K")
    for view in (home_view(engine.knowledge, "zh"), home_view(engine.knowledge, "zh", answer),
                 ask_modal(engine.knowledge, "zh"), answer_modal(engine.knowledge, answer)):
        texts = shown_text({"blocks": view["blocks"]})
        texts += [view[k]["text"] for k in ("title", "submit", "close") if k in view]
        assert english_words(engine, texts) == []


@pytest.mark.parametrize("question", ["千问2.5-72B 全参", "两台能训练哪些模型", "千问 7b",
                                      "qwen3-8b 和 qwen3-14b 对比", "千问2.5-3b", "帮助"])
def test_the_chinese_command_line_reply_is_chinese_too(engine: Engine, question: str) -> None:
    text = render_text(engine.knowledge, engine.ask(question))
    assert english_words(engine, text.splitlines(), question) == []
