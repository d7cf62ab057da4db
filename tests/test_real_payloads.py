"""Slack's own request bodies (../shared/real-payloads: Slack's docs and bolt-python's tests),
replayed at the bot over HTTP, signed as Slack signs them: each gets the answer it should, and
what the bot does not handle gets a quiet 200, never an error."""

from __future__ import annotations

import json
import time
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

from tests.bot_process import Bot
from tests.conftest import SHARED, needs_shared
from tests.slack_emulator import SlackEmulator
from tests.slack_sender import SlackSender

PAYLOADS = SHARED / "real-payloads"
pytestmark = needs_shared(PAYLOADS.name)

# What each file must lead to: the Web API method (or "response") that answers it, or nothing.
ANSWERED = {
    "docs_app_mention.json": "chat.postMessage",
    "ev_app_mention_enterprise.json": "chat.postMessage",
    "ev_app_mention_org_install.json": "chat.postMessage",
    "ev_app_mention_shared_channel.json": "chat.postMessage",
    "ev_app_mention_with_blocks.json": "chat.postMessage",
    "docs_message_im.json": "chat.postMessage",
    "ev_dm_thread_reply.json": "chat.postMessage",
    "ev_dm_file_share_with_question.json": "chat.postMessage",
    "ev_dm_thread_broadcast.json": "chat.postMessage",
    "docs_app_home_opened.json": "views.publish",
    "slash_command_enterprise.form": "response",
    "slash_command_empty_text.form": "response",
    "docs_slash_command_legacy.form": "chat.postEphemeral",  # no response_url in it
    "ia_block_actions_pick_model.payload.json": "chat.update",
    "ia_block_actions_share_from_ephemeral.payload.json": "chat.postMessage",
}
SILENT = sorted(p.name for p in PAYLOADS.glob("*.*")
                if p.is_file() and p.name not in ANSWERED and p.suffix in (".json", ".form")
                and p.name not in ("ssl_check.form", "ev_url_verification.json"))
_serial = iter(range(1, 10**6))


def _body(path: Path, response_url: str) -> tuple[bytes, str]:
    text = path.read_text(encoding="utf-8").replace("{{RESPONSE_URL}}", response_url)
    # The fixtures share trigger ids, as they share event ids; Slack never sends one twice
    # (and the bot acts on an interaction once).
    serial = next(_serial)
    if path.name.endswith(".payload.json"):
        payload = json.loads(text)
        if isinstance(payload.get("trigger_id"), str):
            payload["trigger_id"] = f"{payload['trigger_id']}-{serial}"
        return urllib.parse.urlencode({"payload": json.dumps(payload)}).encode(), \
            "application/x-www-form-urlencoded"
    if path.suffix == ".form":
        form = urllib.parse.parse_qsl(text.strip(), keep_blank_values=True)
        form = [(k, f"{v}-{serial}" if k == "trigger_id" else v) for k, v in form]
        return urllib.parse.urlencode(form).encode(), "application/x-www-form-urlencoded"
    data: dict[str, Any] = json.loads(text)
    if "event_id" in data:  # Bolt's fixtures share ids; Slack never sends one twice
        data["event_id"] = f"{data['event_id']}-{next(_serial)}"
    return json.dumps(data).encode(), "application/json"


def _replay(slack: SlackSender, emulator: SlackEmulator, name: str) -> tuple[int, str]:
    body, content_type = _body(PAYLOADS / name, emulator.response_url(name))
    reply = slack.post(body, content_type)
    return reply.status, reply.body


@pytest.mark.parametrize(("name", "method"), sorted(ANSWERED.items()))
def test_answered(slack: SlackSender, emulator: SlackEmulator, bot: Bot, name: str,
                  method: str) -> None:
    before = len(bot.log_text())
    status, _ = _replay(slack, emulator, name)
    assert status == 200
    (call,) = emulator.wait_for(method)
    text = json.dumps(call.params, ensure_ascii=False)
    if name == "slash_command_empty_text.form":
        assert "How to use /mincards" in text
    elif method != "views.publish":
        assert "Qwen2.5-72B" in text or "qwen" in text.lower()
    if name.startswith("ia_block_actions_share"):  # then the private answer is deleted
        cleanup = emulator.wait_for("response")[0]
        assert cleanup.params.get("delete_original") is True
    assert "Traceback" not in bot.log_text()[before:]


@pytest.mark.parametrize("name", SILENT)
def test_silent_with_a_quiet_200(slack: SlackSender, emulator: SlackEmulator, bot: Bot,
                                 name: str) -> None:
    before = len(bot.log_text())
    status, _ = _replay(slack, emulator, name)
    assert status == 200
    time.sleep(0.3)
    assert emulator.replies() == []
    log = bot.log_text()[before:]
    assert "Traceback" not in log and "ERROR" not in log


def test_url_verification_and_unsigned_ssl_check(slack: SlackSender, emulator: SlackEmulator
                                                 ) -> None:
    status, body = _replay(slack, emulator, "ev_url_verification.json")
    challenge = json.loads((PAYLOADS / "ev_url_verification.json").read_text())["challenge"]
    assert status == 200 and challenge in body
    # Slack sends ssl_check unsigned.
    reply = slack.post((PAYLOADS / "ssl_check.form").read_bytes().strip(),
                       "application/x-www-form-urlencoded", sign=False)
    assert reply.status == 200


def _form_as_sent(name: str, response_url: str) -> bytes:
    """The file's form as Slack's example has it (its trigger id untouched), only the response
    URL filled in."""
    return (PAYLOADS / name).read_text(encoding="utf-8").strip().replace(
        "{{RESPONSE_URL}}", urllib.parse.quote(response_url, safe="")).encode()


def test_slack_examples_sharing_a_trigger_id_are_each_answered_and_a_replay_is_not(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    """Slack's two slash-command examples carry one trigger id (111.111.xxx). Sent one after
    the other as they are, each is a request of its own and is answered: `/mincards` alone
    privately with the short help (how to ask, an example, the settings). The same bytes
    signed at the same moment again are a replay: acknowledged, not answered again."""
    signed_at = int(time.time())
    first = _form_as_sent("slash_command_enterprise.form", emulator.response_url("ENTERPRISE"))
    empty = _form_as_sent("slash_command_empty_text.form", emulator.response_url("EMPTY"))
    form = dict(urllib.parse.parse_qsl(empty.decode(), keep_blank_values=True))
    assert form["text"] == "" and form["trigger_id"] in first.decode()
    for body in (first, empty, empty):
        reply = slack.post(body, "application/x-www-form-urlencoded", timestamp=signed_at)
        assert (reply.status, reply.body) == (200, "")
    calls = emulator.wait_for("response", count=2)
    time.sleep(0.5)  # a third post, if any, arrives too
    by_url = {}
    for call in emulator.of("response"):
        by_url.setdefault(call.params["_url"].rsplit("/", 1)[1], []).append(call)
    assert {k: len(v) for k, v in by_url.items()} == {"ENTERPRISE": 1, "EMPTY": 1}, calls
    (help_call,) = by_url["EMPTY"]
    assert help_call.params["response_type"] == "ephemeral"
    said = help_call.params["text"]
    assert "How to use /mincards" in said and "`/mincards qwen 2.5 72b lora 8k`" in said
    assert "/mincards settings" in said
