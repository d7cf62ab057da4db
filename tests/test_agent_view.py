"""Slack's agent messaging experience (issue 39, item 3; docs.slack.dev/ai/migrating-to-agent-
messaging): the shipped manifests declare agent_view, so a DM written in the Messages tab is a
session of its own. Over HTTP and Socket Mode, with Slack's own payloads
(../shared/real-payloads: docs_message_im.json from docs.slack.dev's message.im example,
ev_app_home_opened_messages_tab_org.json from bolt-python's tests): a DM is answered in its
thread, a follow-up in that thread continues it, a slow answer shows a status on it first, the
session is titled after the model, and opening the Messages tab sets the table's prompts
without posting anything. With AGENT_VIEW=false (an app still on the legacy assistant_view) a
DM is answered where it was written; the legacy pane's threads are still answered
(tests/test_slack_surfaces.py)."""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.blockkit import assert_valid_message
from tests.bot_process import SIGNING_SECRET, Bot, running_bot
from tests.conftest import SHARED, assert_no_secrets, needs_shared
from tests.slack_emulator import SlackEmulator
from tests.slack_sender import SlackSender

PAYLOADS = SHARED / "real-payloads"
pytestmark = needs_shared("real-payloads")
_ids = iter(range(10**6))


def payload(name: str, **event: Any) -> dict[str, Any]:
    """Slack's body with a fresh event id (Slack sends an id twice only in a retry)."""
    body = copy.deepcopy(json.loads((PAYLOADS / name).read_text(encoding="utf-8")))
    body["event_id"] = f"EvAGENT{next(_ids):06d}"
    body["event"].update(event)
    return body


def new_ts() -> str:
    return f"{int(time.time())}.{next(_ids):06d}"


@dataclass(frozen=True)
class Target:
    bot: Bot
    socket: bool


@pytest.fixture(scope="module", params=["http", "socket"])
def target(request: pytest.FixtureRequest, emulator: SlackEmulator,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    socket = request.param == "socket"
    with running_bot(emulator, tmp_path_factory.mktemp(request.param),
                     socket_mode=socket) as running:
        yield Target(running, socket)
    assert_no_secrets(running, emulator)


def deliver(target: Target, emulator: SlackEmulator, body: dict[str, Any]) -> None:
    """As Slack delivers it: over the socket, or signed over HTTP."""
    emulator.reset()
    if target.socket:
        emulator.send_socket_event(body)
        return
    reply = SlackSender(target.bot.base_url, SIGNING_SECRET).post(json.dumps(body),
                                                                  "application/json")
    assert reply.status == 200


def test_a_dm_opens_a_session_answered_in_its_thread_and_continued_there(
        target: Target, emulator: SlackEmulator) -> None:
    ts = new_ts()
    question = "Qwen/Qwen2.5-72B-Instruct 全参 需要几张卡"
    deliver(target, emulator, payload("docs_message_im.json", text=question, ts=ts,
                                      event_ts=ts))
    (answer,) = emulator.wait_for("chat.postMessage")
    assert answer.params["channel"] == "D024BE91L" and answer.params["thread_ts"] == ts
    assert_valid_message(answer.params)
    assert "Qwen2.5-72B" in answer.params["text"] and "全参" in answer.params["text"]
    (title,) = emulator.wait_for("agents.sessions.rename")
    assert {k: title.params[k] for k in ("channel_id", "thread_ts", "title")} == {
        "channel_id": "D024BE91L", "thread_ts": ts, "title": "Qwen2.5-72B"}
    # The follow-up, written in the session's thread.
    later = new_ts()
    deliver(target, emulator, payload("docs_message_im.json", text="那LoRA呢", ts=later,
                                   event_ts=later, thread_ts=ts))
    (then,) = emulator.wait_for("chat.postMessage")
    assert then.params["thread_ts"] == ts
    assert "Qwen2.5-72B" in then.params["text"] and "LoRA" in then.params["text"]


def test_a_slow_answer_shows_a_status_on_its_session_first(
        target: Target, emulator: SlackEmulator) -> None:
    from tests.test_slack_estimates import MISTRAL, shared_file

    file = shared_file(emulator, "config.json", MISTRAL.encode())
    ts = new_ts()
    emulator.latency = 0.8  # the attached config's download takes that long
    try:
        deliver(target, emulator, payload("docs_message_im.json", text="lora?", ts=ts,
                                       event_ts=ts, subtype="file_share", files=[file]))
        (posted,) = emulator.wait_for("chat.postMessage", timeout=15)
        (status,) = emulator.of("assistant.threads.setStatus")
    finally:
        emulator.latency = 0.0
    assert status.params["channel_id"] == "D024BE91L" and status.params["thread_ts"] == ts
    assert status.params["status"] and status.at < posted.at
    assert posted.params["thread_ts"] == ts


def test_opening_the_messages_tab_sets_the_tables_prompts_and_posts_nothing(
        target: Target, emulator: SlackEmulator) -> None:
    deliver(target, emulator, payload("ev_app_home_opened_messages_tab_org.json"))
    (prompts,) = emulator.wait_for("assistant.threads.setSuggestedPrompts")
    assert prompts.params["channel_id"] == "D111" and not prompts.params.get("thread_ts")
    assert 1 <= len(prompts.params["prompts"]) <= 4
    assert all(p["title"] and p["message"] for p in prompts.params["prompts"])
    time.sleep(0.5)
    assert emulator.of("chat.postMessage") == [] and emulator.of("views.publish") == []


def test_without_the_agent_view_a_dm_is_answered_where_it_was_written(
        emulator: SlackEmulator, tmp_path: Path) -> None:
    with running_bot(emulator, tmp_path, extra_env={"AGENT_VIEW": "false"}) as bot:
        legacy = Target(bot, socket=False)
        ts = new_ts()
        deliver(legacy, emulator, payload("docs_message_im.json", ts=ts, event_ts=ts))
        (answer,) = emulator.wait_for("chat.postMessage")
        assert "thread_ts" not in answer.params
        deliver(legacy, emulator, payload("ev_app_home_opened_messages_tab_org.json"))
        time.sleep(0.8)
        assert emulator.of("assistant.threads.setSuggestedPrompts") == []
        assert emulator.of("agents.sessions.rename") == []
