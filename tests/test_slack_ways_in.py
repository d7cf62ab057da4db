"""End to end over HTTP, the ways in beyond mentions and DMs: the global shortcut and its modal,
the message shortcut, the App Home menu, and every kind of button an answer offers."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from mincards.bot.answering.followup import FollowUp
from mincards.bot.replies.feedback import Feedback
from mincards.bot.replies.render_blocks import CHOOSE_ACTION, FEEDBACK_ACTION
from mincards.bot.replies.render_views import (
    ASK_VIEW,
    BUDGET_INPUT,
    HOME_CHOOSE_ACTION,
    MODEL_INPUT,
)
from mincards.handlers.shortcuts import ASK_SHORTCUT, THIS_SHORTCUT
from tests.blockkit import assert_valid_home, assert_valid_message, assert_valid_modal, seen
from tests.bot_process import Bot
from tests.conftest import NO_SHARED, SHARED
from tests.slack_emulator import SlackEmulator
from tests.slack_sender import TEAM, SlackSender, block_action, mention, new_trigger
from tests.test_views import state

PAYLOADS = SHARED / "real-payloads"


def real(name: str, **changes: Any) -> dict[str, Any]:
    """A payload as Slack sends it (../shared/real-payloads), with our callback_id and a
    trigger id of its own (the fixtures share theirs; Slack never sends one twice)."""
    path = PAYLOADS / name
    if not path.exists():
        pytest.skip(NO_SHARED)
    return {**json.loads(path.read_text(encoding="utf-8")), "trigger_id": new_trigger(),
            **changes}


def buttons(params: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for b in params["blocks"] if b["type"] == "actions" for e in b["elements"]]


def click(slack: SlackSender, emulator: SlackEmulator, element: dict[str, Any],
          channel: str = "C0001") -> dict[str, Any]:
    """Click a button (or pick the first option of a menu) on a channel message; the update."""
    emulator.reset()
    payload = block_action(element.get("value", ""), element["action_id"],
                           emulator.response_url(), ephemeral=False, channel=channel,
                           message_ts="1700000000.000777")
    if element["type"] == "static_select":
        options = element.get("options") or element["option_groups"][0]["options"]
        payload["actions"][0] |= {"type": "static_select", "selected_option": options[0]}
        del payload["actions"][0]["value"]
    assert slack.action(payload).status == 200
    (update,) = emulator.wait_for("chat.update")
    assert update.params["ts"] == "1700000000.000777"
    assert_valid_message(update.params)
    return update.params


def ask(slack: SlackSender, emulator: SlackEmulator, text: str) -> dict[str, Any]:
    emulator.reset()
    slack.event(mention(text))
    (call,) = emulator.wait_for("chat.postMessage")
    return call.params


def test_global_shortcut_opens_the_form_in_the_persons_language(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    emulator.locales["W111"] = "zh-CN"
    shortcut = real("ia_global_shortcut.payload.json", callback_id=ASK_SHORTCUT)
    reply = slack.action(shortcut)
    assert reply.status == 200
    (opened,) = emulator.wait_for("views.open")
    assert opened.params["trigger_id"] == shortcut["trigger_id"]
    view = opened.params["view"]
    assert_valid_modal(view)
    assert view["callback_id"] == ASK_VIEW and view["title"]["text"] == "最小卡数"


def test_the_form_opens_within_the_triggers_three_seconds_on_a_slow_slack(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    emulator.latency = 0.8  # every Web API call, users.info included
    try:
        sent = time.monotonic()
        slack.action({"type": "shortcut", "callback_id": ASK_SHORTCUT, "trigger_id": new_trigger(),
                      "user": {"id": "USLOW", "team_id": TEAM}, "team": {"id": TEAM},
                      "token": "legacy", "action_ts": "1.2"})
        (opened,) = emulator.wait_for("views.open")
        assert opened.at - sent < 3.0
    finally:
        emulator.latency = 0.0


def test_the_form_answers_in_place_privately(slack: SlackSender) -> None:
    payload = real("ia_view_submission.payload.json")
    payload["view"] = {**payload["view"], **state("qwen2.5-72b", "lora", "8192", "8卡", "zh")}
    reply = slack.action(payload)
    assert reply.status == 200
    body = json.loads(reply.body)
    assert body["response_action"] == "update"
    view = body["view"]
    assert_valid_modal(view)
    shown = json.dumps(view, ensure_ascii=False)
    assert "可以——" in shown and "Qwen2.5-72B" in shown and "只有你能看到" in shown


def test_a_budget_the_form_cannot_read_is_said_at_the_field(slack: SlackSender) -> None:
    payload = real("ia_view_submission.payload.json")
    payload["view"] = {**payload["view"], **state("qwen2.5-72b", budget="lots of GPUs")}
    body = json.loads(slack.action(payload).body)
    assert body["response_action"] == "errors" and BUDGET_INPUT in body["errors"]
    payload["view"] = {**payload["view"], **state(None)}
    payload["trigger_id"] = new_trigger()  # another submission
    body = json.loads(slack.action(payload).body)
    assert body["response_action"] == "errors" and MODEL_INPUT in body["errors"]


def test_message_shortcut_answers_about_that_message_only_to_the_asker(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    payload = real("ia_message_shortcut.payload.json", callback_id=THIS_SHORTCUT,
                   response_url=emulator.response_url("this"))
    payload["message"] = {**payload["message"],
                          "text": "<@W222> can we fit qwen2.5-32b lora 4k on one node?"}
    assert slack.action(payload).status == 200
    (call,) = emulator.wait_for("response")
    assert call.params["_url"] == "/response/this" and call.params["response_type"] == "ephemeral"
    assert_valid_message(call.params)
    assert call.params["text"].startswith("Yes — Qwen2.5-32B fits on Snt9B (8 cards)")
    assert "<@W222>" not in json.dumps(call.params)


def test_message_shortcut_on_a_message_without_text(slack: SlackSender,
                                                    emulator: SlackEmulator) -> None:
    payload = real("ia_message_shortcut.payload.json", callback_id=THIS_SHORTCUT,
                   response_url=emulator.response_url("empty"))
    payload["message"] = {**payload["message"], "text": ""}
    slack.action(payload)
    (call,) = emulator.wait_for("response")
    assert "no text" in call.params["text"]


def test_not_covered_buttons_answer_in_place(slack: SlackSender,
                                             emulator: SlackEmulator) -> None:
    asked = ask(slack, emulator, "mixtral lora")
    (offer,) = buttons(asked)
    assert offer["text"]["text"] == "full-parameter"
    update = click(slack, emulator, offer)
    assert update["text"].startswith("Mixtral-8x7B needs at least")
    assert "MindSpeed-LLM\nfull-parameter · 4K, 8K: Snt9B 16 cards" in seen(update)


def test_not_found_offers_the_model_list_then_a_menu_answers(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    asked = ask(slack, emulator, "gpt-4o")
    (listing,) = buttons(asked)
    update = click(slack, emulator, listing)
    assert update["text"].startswith("Models in the table")
    menu = next(b["accessory"] for b in update["blocks"] if "accessory" in b)
    assert menu["action_id"] == CHOOSE_ACTION
    picked = click(slack, emulator, menu)
    first = menu["option_groups"][0]["options"][0]["text"]["text"]
    assert picked["text"].startswith(first)


def test_show_the_rest_pages_a_long_capacity_list(slack: SlackSender,
                                                  emulator: SlackEmulator) -> None:
    asked = ask(slack, emulator, "what fits on 8 nodes")
    (more,) = [b for b in buttons(asked) if b["text"]["text"].startswith("Show the other")]
    first_page = seen(asked)
    update = click(slack, emulator, more)
    assert update["text"] == asked["text"]  # the same answer, further on
    rows = [line for line in seen(update).splitlines() if line.startswith("• ")]
    assert rows and all(row.split(":")[0] not in first_page for row in rows)


def test_help_examples_answer_in_place(slack: SlackSender, emulator: SlackEmulator) -> None:
    asked = ask(slack, emulator, "help")
    examples = buttons(asked)
    assert len(examples) >= 3
    for example in examples:
        update = click(slack, emulator, example)
        assert not update["text"].startswith("Ask me"), example["text"]["text"]


def test_home_menu_answers_on_the_home_tab(slack: SlackSender, emulator: SlackEmulator) -> None:
    value = FollowUp(language="zh", model="qwen3-8b").encode()
    payload = {"type": "block_actions", "user": {"id": "UHOME", "team_id": TEAM},
               "team": {"id": TEAM}, "api_app_id": "A0001", "token": "legacy",
               "trigger_id": new_trigger(), "container": {"type": "view", "view_id": "V1"},
               "view": {"id": "V1", "type": "home"},
               "actions": [{"type": "static_select", "action_id": HOME_CHOOSE_ACTION,
                            "block_id": "b", "action_ts": "1.1",
                            "selected_option": {"text": {"type": "plain_text",
                                                         "text": "Qwen3-8B"},
                                                "value": value}}]}
    assert slack.action(payload).status == 200
    (published,) = emulator.wait_for("views.publish")
    assert published.params["user_id"] == "UHOME"
    view = published.params["view"]
    assert_valid_home(view)
    assert "Qwen3-8B 最少需要" in json.dumps(view, ensure_ascii=False)


def test_feedback_is_one_structured_line_without_the_question(
        slack: SlackSender, emulator: SlackEmulator, bot: Bot) -> None:
    question = "qwen2.5-14b lora 4k please, secret project aurora"
    asked = ask(slack, emulator, question)
    (block,) = [b for b in asked["blocks"] if b["type"] == "context_actions"]
    element = block["elements"][0]
    assert element["action_id"] == FEEDBACK_ACTION
    value = element["positive_button"]["value"]
    payload = block_action(value, FEEDBACK_ACTION, emulator.response_url(), ephemeral=False)
    payload["actions"][0]["type"] = "feedback_buttons"
    assert slack.action(payload).status == 200
    expected = Feedback("lookup", "qwen2.5-14b", "up").log_line()
    deadline = time.monotonic() + 30
    while expected not in bot.log_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    log = bot.log_text()
    assert expected in log
    assert "aurora" not in log.split(expected)[0].splitlines()[-1]
    assert [line for line in log.splitlines() if "feedback {" in line and "aurora" in line] == []
