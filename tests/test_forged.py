"""Forged payloads, signed as Slack signs them, against `mincards serve`: each gets a 200 or a
4xx within a second, no traceback, no decoding past a depth bound; true/false, '²' and '①' never
reach a count. And Slack's ordinary failures are one log line naming the method."""

from __future__ import annotations

import asyncio
import http.server
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from mincards.bot.replies.render_views import ASK_VIEW, BUDGET_INPUT, MODEL_INPUT, SEQ_INPUT
from tests.bot_process import Bot, running_bot
from tests.slack_emulator import Fault, SlackEmulator
from tests.slack_sender import SlackSender, block_action, mention, new_trigger

FORM = "application/x-www-form-urlencoded"


def _view_submission(values: dict[str, Any], private_metadata: Any = '{"l":"en"}'
                     ) -> dict[str, Any]:
    return {"type": "view_submission", "team": {"id": "T0001"}, "user": {"id": "U0001"},
            "api_app_id": "A0001", "token": "legacy", "trigger_id": new_trigger(),
            "view": {"id": "V1", "type": "modal", "callback_id": ASK_VIEW,
                     "private_metadata": private_metadata,
                     "state": {"values": values}}}


def _picked(block: str, value: str) -> dict[str, Any]:
    return {block: {block: {"type": "static_select", "selected_option": {"value": value}}}}


def _typed(block: str, value: str) -> dict[str, Any]:
    return {block: {block: {"type": "plain_text_input", "value": value}}}


def _post(slack: SlackSender, payload: dict[str, Any]) -> tuple[int, str, float]:
    started = time.monotonic()
    reply = slack.post(urlencode({"payload": json.dumps(payload)}), FORM)
    return reply.status, reply.body, time.monotonic() - started


@pytest.mark.parametrize("meta", [5, {"l": "zh"}, ["x"], True, "[" * 2000])
def test_a_view_submission_with_odd_private_metadata_is_answered(slack: SlackSender, bot: Bot,
                                                                 meta: Any) -> None:
    before = len(bot.log_text())
    status, body, took = _post(slack, _view_submission(
        _picked(MODEL_INPUT, "Qwen2.5-7B"), private_metadata=meta))
    assert status == 200 and took < 1
    assert json.loads(body)["response_action"] == "update"
    assert "Traceback" not in bot.log_text()[before:]


@pytest.mark.parametrize("length", ["²", "①", "4096²"])
def test_a_length_option_that_only_looks_like_digits_is_no_length(slack: SlackSender, bot: Bot,
                                                                 length: str) -> None:
    before = len(bot.log_text())
    status, body, took = _post(slack, _view_submission(
        _picked(MODEL_INPUT, "Qwen2.5-7B") | _picked(SEQ_INPUT, length)))
    assert status == 200 and took < 1
    assert json.loads(body)["response_action"] == "update"
    assert "Traceback" not in bot.log_text()[before:]


@pytest.mark.parametrize(("typed", "says"), [("8", "cards, DIE or nodes?"),
                                             ("-5 cards", "positive number"),
                                             ("lots", "Say it like")])
def test_the_forms_budget_field_says_what_is_wrong_with_it(slack: SlackSender, typed: str,
                                                           says: str) -> None:
    status, body, _ = _post(slack, _view_submission(
        _picked(MODEL_INPUT, "Qwen2.5-7B") | _typed(BUDGET_INPUT, typed)))
    answer = json.loads(body)
    assert status == 200 and answer["response_action"] == "errors"
    assert says in answer["errors"][BUDGET_INPUT]


def test_a_nested_button_value_is_refused_within_a_second(slack: SlackSender, bot: Bot,
                                                          emulator: SlackEmulator) -> None:
    before = len(bot.log_text())
    value = "[" * 1000 + "]" * 1000  # 2,000 characters: within Slack's limit for a value
    status, _, took = _post(slack, block_action(value, "pick_model_0",
                                                emulator.response_url("CNEST"), ephemeral=True))
    assert status == 200 and took < 1
    time.sleep(0.3)
    assert not emulator.to_channel("CNEST")
    log = bot.log_text()[before:]
    assert "Traceback" not in log and "RecursionError" not in log


@pytest.mark.parametrize("count", [True, False])
def test_a_forged_true_count_never_shows(slack: SlackSender, emulator: SlackEmulator,
                                         count: bool) -> None:
    value = json.dumps({"l": "en", "m": "Qwen2.5-72B", "c": {
        "kind": "lookup", "models": ["Qwen2.5-72B"], "budget": {"count": count, "unit": "card"}}})
    status, _, _ = _post(slack, block_action(value, "pick_model_0",
                                             emulator.response_url("CTRUE"), ephemeral=True))
    assert status == 200
    shown = json.dumps(emulator.wait_for_channel("CTRUE")[0].params)
    assert "True" not in shown and "False" not in shown and "Qwen2.5-72B" in shown


def test_a_dead_response_url_is_one_log_line_naming_it(caplog: pytest.LogCaptureFixture) -> None:
    from mincards.handlers.replies import post_to_response_url

    with caplog.at_level("ERROR"):
        landed = asyncio.run(post_to_response_url("http://127.0.0.1:9/dead", {"text": "t"}))
    assert landed is False
    (line,) = [r.getMessage() for r in caplog.records if "response URL post failed" in
               r.getMessage()]
    assert "ClientConnectorError" in line or "Connect" in line


def test_a_response_url_outside_slack_is_refused_and_the_answer_still_arrives(
        slack: SlackSender, bot: Bot, emulator: SlackEmulator) -> None:
    """A signed command may name any URL as its response_url: the bot posts only to Slack's
    (and here the emulator's, which SLACK_API_URL names), never into its own network."""
    hits: list[str] = []

    class Internal(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            return

    internal = http.server.HTTPServer(("127.0.0.1", 0), Internal)
    threading.Thread(target=internal.serve_forever, daemon=True).start()
    try:
        before = len(bot.log_text())
        port = internal.server_address[1]
        for url in (f"http://127.0.0.1:{port}/internal/admin",
                    f"https://user:pw@127.0.0.1:{port}/x", "ftp://hooks.slack.com/x",
                    "http://hooks.slack.com/commands/x", "https://[::1"):
            emulator.reset()
            assert slack.command("qwen2.5-7b lora", url).status == 200
            # Answered anyway, privately, through the Web API.
            emulator.wait_for("chat.postEphemeral")
        time.sleep(0.3)
    finally:
        internal.shutdown()
        internal.server_close()
    assert hits == []
    log = bot.log_text()[before:]
    assert log.count("refused a response_url outside Slack's hosts") == 5
    assert "pw" not in log and "Traceback" not in log


def test_a_replayed_share_click_or_command_acts_once(slack: SlackSender, bot: Bot,
                                                     emulator: SlackEmulator) -> None:
    """Slack never sends an interaction twice: a copy within the signature's five minutes
    (the same bytes with the same signature) is a replay, acknowledged and not acted on
    again."""
    from mincards.bot.answering.followup import FollowUp
    from mincards.bot.replies.render_blocks import SHARE_ACTION

    emulator.reset()
    signed_at = int(time.time())
    share = block_action(FollowUp(language="en", text="qwen2.5-7b lora").encode(), SHARE_ACTION,
                         emulator.response_url("CSHARE"), ephemeral=True, channel="CSHARE")
    for _ in range(3):
        assert slack.post(urlencode({"payload": json.dumps(share)}), FORM,
                          timestamp=signed_at).status == 200
    form = {"token": "legacy", "team_id": "T0001", "channel_id": "CREPLAY", "user_id": "U0001",
            "command": "/mincards", "text": "qwen2.5-7b lora", "trigger_id": new_trigger(),
            "response_url": emulator.response_url("CREPLAY"), "api_app_id": "A0001"}
    for _ in range(3):
        assert slack.post(urlencode(form), FORM, timestamp=signed_at).status == 200
    time.sleep(1.0)
    assert len([c for c in emulator.of("chat.postMessage")
                if emulator.channel_of(c) == "CSHARE"]) == 1
    assert len(emulator.to_channel("CREPLAY")) == 1


def test_a_refused_web_api_call_is_one_line_naming_the_method(slack: SlackSender, bot: Bot,
                                                              emulator: SlackEmulator) -> None:
    emulator.fail("chat.postMessage", Fault(body={"ok": False, "error": "channel_not_found"}))
    before = len(bot.log_text())
    assert slack.event(mention("qwen2.5-7b lora", channel="CGONE")).status == 200
    time.sleep(1.0)
    log = bot.log_text()[before:]
    assert "Traceback" not in log
    assert any("chat.postMessage" in x and "channel_not_found" in x for x in log.splitlines())


def test_slack_slower_than_the_timeout_is_one_error_naming_the_method(
        emulator: SlackEmulator) -> None:
    """The client the bot uses, against a Slack that answers after the client gave up."""
    from mincards.handlers.replies import CountingWebClient, SlackUnreachable

    emulator.fail("chat.postMessage", Fault(delay=2.0, times=5))

    async def call() -> str:
        client = CountingWebClient(token="xoxb-0-fake", base_url=emulator.api_url,
                                   timeout=0.3)
        try:
            await client.chat_postMessage(channel="C1", text="hi")
        except SlackUnreachable as exc:
            return str(exc)
        return "answered"

    said = asyncio.run(call())
    emulator.reset()
    assert said == "chat.postMessage failed: no answer within 10 s" or (
        said.startswith("chat.postMessage failed: ") and "\n" not in said), said


# --- Socket Mode ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def socket_bot(emulator: SlackEmulator, tmp_path_factory: pytest.TempPathFactory
               ) -> Iterator[Bot]:
    with running_bot(emulator, tmp_path_factory.mktemp("socket"), socket_mode=True) as running:
        yield running


ENVELOPES = [
    pytest.param({"type": "events_api", "payload": "not an object"}, id="payload-a-string"),
    pytest.param({"type": "events_api", "payload": [1, 2]}, id="payload-a-list"),
    pytest.param({"type": "events_api"}, id="no-payload"),
    pytest.param({"type": "mystery", "payload": {}}, id="unknown-type"),
    pytest.param({"type": "interactive", "payload": {"type": 5}}, id="payload-type-a-number"),
    pytest.param({"type": "slash_commands", "payload": {"command": ["x"]}},
                 id="command-a-list"),
]


@pytest.mark.parametrize("envelope", ENVELOPES)
def test_malformed_socket_envelopes_are_acknowledged_without_a_traceback(
        socket_bot: Bot, emulator: SlackEmulator, envelope: dict[str, Any]) -> None:
    before = len(socket_bot.log_text())
    envelope_id = f"env-{time.monotonic_ns()}"
    emulator.wait_for_socket().send(json.dumps({"envelope_id": envelope_id, **envelope}))
    deadline = time.monotonic() + 10
    while emulator.acked_at(envelope_id) is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert emulator.acked_at(envelope_id) is not None, "not acknowledged"
    assert "Traceback" not in socket_bot.log_text()[before:]


@pytest.mark.parametrize("raw", ["{not json", "[" * 5000 + "]" * 5000, "[1]", '"text"'])
def test_socket_messages_that_are_not_json_objects_leave_no_traceback(
        socket_bot: Bot, emulator: SlackEmulator, raw: str) -> None:
    before = len(socket_bot.log_text())
    emulator.wait_for_socket().send(raw)
    # The connection goes on: a real event after it is answered.
    emulator.reset()
    emulator.send_socket_event({"type": "event_callback", "team_id": "T0001",
                                "event_id": f"Ev{time.monotonic_ns()}",
                                "event": mention("qwen2.5-7b lora", channel="CAFTER")})
    emulator.wait_for_channel("CAFTER")
    assert "Traceback" not in socket_bot.log_text()[before:]


def test_the_socket_log_has_no_traceback_at_all(socket_bot: Bot, tmp_path: Path) -> None:
    assert "Traceback" not in socket_bot.log_text()
