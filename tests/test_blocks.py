"""Block Kit as data: every answer, the longest included, keeps to Slack's limits."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.engine import Engine
from bot.followup import FollowUp
from bot.render_blocks import PICK_ACTION, SHARE_ACTION, home_view, message
from bot.slack_limits import limits
from tests.blockkit import assert_valid_home, assert_valid_message


def shown_text(payload: dict[str, Any]) -> list[str]:
    """Every string Slack displays from a payload (button values are never shown)."""
    out = [payload["text"]]

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") in ("mrkdwn", "plain_text"):
                out.append(node["text"])
            for key, value in node.items():
                if key != "value":
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)
    walk(payload["blocks"])
    return out


def test_every_model_with_every_entry_fits(engine: Engine) -> None:
    for key in engine.knowledge.table.models():
        answer = engine.ask(key)
        assert answer.intent == "lookup" and answer.models == (key,)
        payload = message(engine.knowledge, answer, question=key, shareable=True)
        assert_valid_message(payload)
        # Each entry's numbers are in the blocks, not only in the fallback text.
        sections = [b for b in payload["blocks"] if b["type"] == "section" and "fields" in b]
        assert len(sections) == len(answer.rows)


@pytest.mark.parametrize("text", [
    "list", "模型列表", "help", "", "qwen 7b", "千问3", "qwen", "qwen2.5-3b", "gpt-4o",
    "mixtral lora", "qwen2.5-7b dpo", "llama3.1-70b full 4k on llama-factory snt9b23",
    "x" * 40000, "<!channel> " * 500,
])
def test_every_intent_fits(engine: Engine, text: str) -> None:
    payload = message(engine.knowledge, engine.ask(text), question=text, shareable=True)
    assert_valid_message(payload)
    assert "<!channel>" not in " ".join(shown_text(payload))


def test_home_tab_holds_the_whole_table(engine: Engine) -> None:
    view = home_view(engine.knowledge)
    assert_valid_home(view)
    text = json.dumps(view, ensure_ascii=False)
    for entry in engine.knowledge.table.entries:
        label = engine.knowledge.strategy_label(entry.strategy, "en")
        assert f"{label} {entry.seq_len}:" in text
    for key in engine.knowledge.table.models():
        assert json.dumps(key)[1:-1] in text


def test_choice_buttons_are_capped_and_the_rest_named(engine: Engine) -> None:
    answer = engine.ask("千问3")
    assert len(answer.candidates) > limits().max_choice_buttons
    blocks = message(engine.knowledge, answer)["blocks"]
    buttons = [e for b in blocks if b["type"] == "actions" for e in b["elements"]]
    assert len(buttons) == limits().max_choice_buttons
    assert all(b["action_id"].startswith(PICK_ACTION) for b in buttons)
    rest = json.dumps(blocks, ensure_ascii=False)
    assert "Qwen3-235B-A22B" in rest


def test_choice_buttons_keep_the_question_narrowing(engine: Engine) -> None:
    answer = engine.ask("qwen 7b lora 8k on llama-factory")
    blocks = message(engine.knowledge, answer)["blocks"]
    values = [FollowUp.decode(e["value"]) for b in blocks if b["type"] == "actions"
              for e in b["elements"]]
    assert {v.model for v in values if v} == {"qwen2-7b", "qwen2.5-7b", "qwen2vl-7b",
                                              "qwen2.5_vl-7b"}
    for v in values:
        assert v is not None
        assert (v.strategies, v.seq_lens, v.frameworks) == (("lora",), (8192,),
                                                            ("llama_factory",))


def test_share_button_only_when_asked_for(engine: Engine) -> None:
    answer = engine.ask("qwen2.5-7b")
    assert SHARE_ACTION not in json.dumps(message(engine.knowledge, answer))
    assert SHARE_ACTION in json.dumps(message(engine.knowledge, answer, question="q",
                                              shareable=True))


def test_fallback_text_holds_the_whole_answer(engine: Engine) -> None:
    answer = engine.ask("llama3.1-70b")
    text = message(engine.knowledge, answer)["text"]
    assert len(answer.rows) == 4
    assert text.count("MindSpeed-LLM:") == text.count("Llama-Factory:") == len(answer.rows)


def test_chinese_question_gets_chinese_blocks(engine: Engine) -> None:
    blocks = json.dumps(message(engine.knowledge, engine.ask("千问2.5-72B 全参"))["blocks"],
                        ensure_ascii=False)
    assert "全参 · 序列长度 4096" in blocks and "卡" in blocks


@pytest.mark.parametrize("question", [
    "what is " + '"\\\u0001' * 900 + " qwen", "list " + "千问" * 1500, "help " + "x" * 5000])
def test_button_values_stay_whole_json_within_slacks_limit(engine: Engine, question: str) -> None:
    answer = engine.ask(question)
    blocks = message(engine.knowledge, answer, question=question, shareable=True)["blocks"]
    values = [e["value"] for b in blocks if b["type"] == "actions" for e in b["elements"]]
    assert values
    for value in values:
        assert len(value) <= 2000
        follow = FollowUp.decode(value)
        assert follow is not None and follow.language == answer.language
        if follow.text is not None:
            assert question.startswith(follow.text)


def test_buttons_written_by_the_first_release_still_work(engine: Engine) -> None:
    old = FollowUp.decode('{"l":"en","m":"qwen2.5-72b","s":["lora"],"q":[8192]}')
    assert old is not None
    answer = engine.follow(old)
    assert [e.key for e in answer.rows] == [("qwen2.5-72b", "lora", 8192)]
