"""The assistant pane, model-link unfurls and the Workflow Builder step, end to end over HTTP
against the emulator, with payloads in the shapes Slack sends (tests/fixtures/surfaces)."""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path
from typing import Any

import pytest

from mincards.bot.replies.render_unfurl import UNFURL_ASK_ACTION
from mincards.bot.replies.render_views import MODEL_INPUT
from tests.blockkit import assert_valid_message, assert_valid_modal
from tests.slack_emulator import SlackEmulator
from tests.slack_sender import SlackSender, new_trigger

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "surfaces"
_ids = iter(range(10**6))


def fixture(name: str, **event: Any) -> dict[str, Any]:
    """A saved payload with a fresh event id (Slack never sends one twice but in a retry)."""
    body = copy.deepcopy(json.loads((FIXTURES / name).read_text(encoding="utf-8")))
    body["event_id"] = f"Ev{name[:6]}{next(_ids):06d}"
    body["event"].update(event)
    return body


def post(slack: SlackSender, body: dict[str, Any], **headers: str) -> int:
    return slack.post(json.dumps(body), "application/json", headers=headers).status


def quiet(emulator: SlackEmulator, method: str, seconds: float = 0.6) -> list[Any]:
    time.sleep(seconds)
    return emulator.of(method)


# --- unfurls -------------------------------------------------------------------------------

LINK_FORMS = [
    "https://huggingface.co/Qwen/Qwen2.5-72B-Instruct",
    "https://www.huggingface.co/Qwen/Qwen2.5-72B-Instruct",
    "https://huggingface.co/Qwen/Qwen2.5-72B-Instruct/tree/main",
    "https://huggingface.co/Qwen/Qwen2.5-72B-Instruct?library=transformers",
    "https://hf.co/Qwen/Qwen2.5-72B-Instruct",
    "https://modelscope.cn/models/Qwen/Qwen2.5-72B-Instruct",
    "https://www.modelscope.cn/models/Qwen/Qwen2.5-72B-Instruct/summary",
    "https://ollama.com/library/qwen2.5:72b",
    "https://www.ollama.com/library/qwen2.5:72b?x=1",
]


def links(*urls: str) -> list[dict[str, str]]:
    return [{"domain": url.split("/")[2], "url": url} for url in urls]


@pytest.mark.parametrize("url", LINK_FORMS)
def test_a_model_link_is_unfurled_with_the_tables_answer(
        slack: SlackSender, emulator: SlackEmulator, url: str) -> None:
    body = fixture("link_shared.json", links=links(url, "https://huggingface.co/datasets/a/b"))
    assert post(slack, body) == 200
    (call,) = emulator.wait_for("chat.unfurl")
    event = body["event"]
    assert call.params["unfurl_id"] == event["unfurl_id"]
    assert call.params["source"] == event["source"]
    assert set(call.params["unfurls"]) == {url}  # the dataset gets nothing
    card = call.params["unfurls"][url]
    assert_valid_message({"text": "card", **card})
    shown = json.dumps(card, ensure_ascii=False)
    assert "Qwen2.5-72B needs at least" in shown and "2025-06-24" in shown
    assert card["blocks"][-1]["elements"][0]["action_id"] == UNFURL_ASK_ACTION


def test_a_message_without_an_unfurl_id_is_unfurled_by_channel_and_ts(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    body = fixture("link_shared.json", links=links(LINK_FORMS[0]))
    del body["event"]["unfurl_id"], body["event"]["source"]
    assert post(slack, body) == 200
    (call,) = emulator.wait_for("chat.unfurl")
    assert (call.params["channel"], call.params["ts"]) == ("C0001", body["event"]["message_ts"])


@pytest.mark.parametrize("urls", [
    ["https://huggingface.co/datasets/Qwen/data", "https://huggingface.co/spaces/a/b"],
    ["https://huggingface.co/google/bert-base-uncased"],       # the table cannot place it
    ["https://ollama.com/library/llama3.1"],                    # which size? no card
    ["https://huggingface.co/Qwen/Qwen2.5-7B/blob/main/config.json"],
])
def test_links_the_table_cannot_answer_get_no_unfurl(
        slack: SlackSender, emulator: SlackEmulator, urls: list[str]) -> None:
    assert post(slack, fixture("link_shared.json", links=links(*urls))) == 200
    assert quiet(emulator, "chat.unfurl") == []


def test_a_retried_link_shared_is_unfurled_once_and_each_link_once(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    url = "https://huggingface.co/Qwen/Qwen3-8B"
    body = fixture("link_shared.json", links=links(url, url, "https://hf.co/Qwen/Qwen3-8B"))
    assert post(slack, body) == 200
    assert post(slack, body, **{"X-Slack-Retry-Num": "1",
                                "X-Slack-Retry-Reason": "http_timeout"}) == 200
    (call,) = emulator.wait_for("chat.unfurl")
    assert sorted(call.params["unfurls"]) == ["https://hf.co/Qwen/Qwen3-8B", url]
    assert len(quiet(emulator, "chat.unfurl")) == 1


@pytest.mark.parametrize("event", [
    {"links": "https://huggingface.co/Qwen/Qwen3-8B"},
    {"links": [None, 5, {"url": 7}, {"url": "x" * 5000}]},
    {"channel": None, "message_ts": None, "unfurl_id": None},
    {"links": [{"url": "https://huggingface.co/Qwen/Qwen3-8B <@U0002> <!channel>"}]},
])
def test_a_malformed_link_shared_is_a_quiet_200(
        slack: SlackSender, emulator: SlackEmulator, event: dict[str, Any]) -> None:
    assert post(slack, fixture("link_shared.json", **event)) == 200
    calls = quiet(emulator, "chat.unfurl")
    assert all("<@U0002>" not in json.dumps(c.params) and "<!channel>" not in
               json.dumps(c.params) for c in calls)


def test_ask_about_this_model_opens_the_form_with_it_picked(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    payload = {"type": "block_actions", "user": {"id": "U0001", "team_id": "T0001"},
               "team": {"id": "T0001"}, "api_app_id": "A0001", "token": "legacy",
               "trigger_id": new_trigger(),
               "container": {"type": "message_attachment", "message_ts": "1700000123.9875",
                             "channel_id": "C0001", "is_app_unfurl": True},
               "channel": {"id": "C0001"},
               "actions": [{"type": "button", "action_id": UNFURL_ASK_ACTION, "block_id": "b",
                            "value": "qwen2.5-72b", "action_ts": "1.1"}]}
    assert slack.action(payload).status == 200
    (opened,) = emulator.wait_for("views.open")
    view = opened.params["view"]
    assert_valid_modal(view)
    (model,) = [b for b in view["blocks"] if b.get("block_id") == MODEL_INPUT]
    assert model["element"]["initial_option"]["value"] == "qwen2.5-72b"


# --- the assistant pane --------------------------------------------------------------------

def test_a_new_assistant_thread_gets_a_greeting_and_prompts_from_the_table(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    assert post(slack, fixture("assistant_thread_started.json")) == 200
    (greeting,) = emulator.wait_for("chat.postMessage")
    assert greeting.params["channel"] == "D0001"
    assert greeting.params["thread_ts"] == "1726133698.626339"
    assert_valid_message(greeting.params)
    assert "2025-06-24" in greeting.params["text"]
    (prompts,) = emulator.wait_for("assistant.threads.setSuggestedPrompts")
    assert 1 <= len(prompts.params["prompts"]) <= 4
    assert all(p["title"] and p["message"] for p in prompts.params["prompts"])


def test_the_prompts_are_in_the_persons_language(slack: SlackSender,
                                                 emulator: SlackEmulator) -> None:
    emulator.locales["U0042"] = "zh-CN"
    body = fixture("assistant_thread_started.json")
    body["event"]["assistant_thread"]["user_id"] = "U0042"
    assert post(slack, body) == 200
    (prompts,) = emulator.wait_for("assistant.threads.setSuggestedPrompts")
    assert any("需要几张卡" in p["message"] for p in prompts.params["prompts"])


def test_an_assistant_thread_is_answered_titled_and_followed_up(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    thread = f"1726133{next(_ids):03d}.000100"
    first = fixture("assistant_user_message.json", text="Qwen/Qwen2.5-72B-Instruct 全参 需要几张卡",
                    thread_ts=thread, ts=f"{thread}1")
    assert post(slack, first) == 200
    (answer,) = emulator.wait_for("chat.postMessage")
    assert answer.params["thread_ts"] == thread and answer.params["channel"] == "D0001"
    assert "Qwen2.5-72B" in answer.params["text"] and "全参" in answer.params["text"]
    (title,) = emulator.wait_for("assistant.threads.setTitle")
    assert title.params["title"] == "Qwen2.5-72B" and title.params["thread_ts"] == thread
    emulator.reset()
    follow = fixture("assistant_user_message.json", text="那LoRA呢", thread_ts=thread,
                     ts=f"{thread}2")
    assert post(slack, follow) == 200
    (then,) = emulator.wait_for("chat.postMessage")
    assert "Qwen2.5-72B" in then.params["text"] and "LoRA" in then.params["text"]
    # The same model: the title stands; a fast answer shows no status.
    assert quiet(emulator, "assistant.threads.setTitle") == []
    assert emulator.of("assistant.threads.setStatus") == []


def test_a_slow_answer_shows_a_status_before_it_is_posted(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    """A config.json attached in the pane takes a slow download to read: the status is set,
    and answered, before the reply is posted (Slack clears it then)."""
    from tests.test_slack_estimates import MISTRAL, shared_file

    file = shared_file(emulator, "config.json", MISTRAL.encode())
    emulator.latency = 0.8
    try:
        body = fixture("assistant_user_message.json", text="lora?", subtype="file_share",
                       files=[file], thread_ts="1726133999.000001")
        assert post(slack, body) == 200
        (posted,) = emulator.wait_for("chat.postMessage", timeout=15)
        (status,) = emulator.of("assistant.threads.setStatus")
        assert status.params["status"] and posted.at - status.at >= 0.7  # after its answer
        assert "from its config.json" in json.dumps(posted.params)
    finally:
        emulator.latency = 0.0


def test_a_context_change_is_acknowledged_and_says_nothing(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    assert post(slack, fixture("assistant_thread_context_changed.json")) == 200
    assert quiet(emulator, "chat.postMessage") == []


# --- the Workflow Builder step ------------------------------------------------------------

def run_step(slack: SlackSender, emulator: SlackEmulator, inputs: dict[str, Any]
             ) -> tuple[str, dict[str, Any]]:
    body = fixture("function_executed.json", inputs=inputs,
                   function_execution_id=f"Fx{next(_ids)}")
    assert post(slack, body) == 200
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for method in ("functions.completeSuccess", "functions.completeError"):
            done = emulator.of(method)
            if done:
                assert done[0].params["function_execution_id"] == \
                    body["event"]["function_execution_id"]
                assert done[0].headers["authorization"] == "Bearer xwfp-valid"
                return method, done[0].params
        time.sleep(0.02)
    raise AssertionError("the step was never completed")


def test_the_step_completes_with_the_counts_and_the_verdict(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    method, params = run_step(slack, emulator, {
        "model": "https://huggingface.co/Qwen/Qwen2.5-72B-Instruct", "strategy": "lora",
        "seq_len": 8192, "budget": "16 cards"})
    assert method == "functions.completeSuccess"
    outputs = params["outputs"]
    assert outputs["snt9b_fewest"] == 16 and outputs["snt9b_nodes"] == 2
    assert outputs["snt9b23_fewest"] == 16 and outputs["verdict"] == "yes"
    assert outputs["lead"].startswith("Yes — Qwen2.5-72B fits")


@pytest.mark.parametrize(("inputs", "reason"), [
    ({"model": "google/bert-base-uncased"}, "The table has no entry for"),
    ({"model": "llama3.1"}, "Which one do you mean?"),
    ({"model": "qwen2.5-72b", "strategy": "dpo"}, "not a strategy the table has"),
    ({"model": "qwen2.5-72b", "budget": "16"}, "cards, DIE or nodes?"),
    ({"model": "qwen2.5-72b", "seq_len": "long"}, "whole number of tokens"),
    ({}, "The step needs a model"),
    ({"model": ["not", "text"]}, "The step needs a model"),
])
def test_the_step_fails_with_the_reason_in_one_sentence(
        slack: SlackSender, emulator: SlackEmulator, inputs: dict[str, Any],
        reason: str) -> None:
    method, params = run_step(slack, emulator, inputs)
    assert method == "functions.completeError"
    assert reason in params["error"] and "\n" not in params["error"]


# --- forged and malformed ----------------------------------------------------------------

MALFORMED = [
    ("assistant_thread_started.json", {"assistant_thread": None}),
    ("assistant_thread_started.json", {"assistant_thread": "D0001"}),
    ("assistant_thread_started.json", {"assistant_thread": {"user_id": 5, "channel_id": None,
                                                            "thread_ts": ["x"]}}),
    ("assistant_thread_context_changed.json", {"assistant_thread": {}}),
    ("assistant_user_message.json", {"text": {"rich": "text"}, "thread_ts": 17}),
    ("assistant_user_message.json", {"channel": None}),
    ("assistant_user_message.json", {"text": "<!channel> <@U0002> qwen3-8b <#C0001>"}),
    ("function_executed.json", {"inputs": "qwen2.5-72b"}),
    ("function_executed.json", {"function_execution_id": None}),
    ("function_executed.json", {"function": {"callback_id": "someone_elses_step"}}),
    ("function_executed.json", {"bot_access_token": None}),
    ("link_shared.json", {"links": [{"url": "https://huggingface.co/Qwen/Qwen2.5-7B",
                                     "domain": None}], "user": {"id": "U1"}}),
]


@pytest.mark.parametrize(("name", "event"), MALFORMED)
def test_forged_and_malformed_payloads_are_a_quiet_200_without_pings(
        slack: SlackSender, emulator: SlackEmulator, bot: Any, name: str,
        event: dict[str, Any]) -> None:
    before = bot.log_text().count("Traceback")
    assert post(slack, fixture(name, **event)) == 200
    time.sleep(0.5)
    for call in emulator.replies():
        sent = json.dumps(call.params, ensure_ascii=False)
        assert "<!channel>" not in sent and "<@U0002>" not in sent, sent
    assert bot.log_text().count("Traceback") == before


def test_each_surface_is_acknowledged_at_once_whatever_slacks_latency(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    emulator.latency = 4.0  # slower than Slack's 3 s for every call the answer makes
    try:
        for body in (fixture("link_shared.json", links=links(LINK_FORMS[0])),
                     fixture("assistant_thread_started.json"),
                     fixture("assistant_user_message.json", text="qwen3-8b lora",
                             thread_ts="1726133888.000001"),
                     fixture("function_executed.json", inputs={"model": "qwen3-8b"},
                             function_execution_id="FxSlow1")):
            started = time.monotonic()
            assert post(slack, body) == 200
            assert time.monotonic() - started < 1.0, body["event"]["type"]
    finally:
        emulator.latency = 0.0
    emulator.wait_for("functions.completeSuccess", timeout=15)
