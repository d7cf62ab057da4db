"""Preferences in Slack, end to end under gunicorn against the emulator, with the real SQLite
database in the bot's state folder: `/mincards settings`, the menus saved on change, a person
over the workspace, admin-only workspace defaults (checked with users.info, never the
payload), `/mincards forget me`, the Home tab, and workspaces kept apart."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from mincards.bot.replies.render_blocks import SHOW_ALL_ACTION
from tests.blockkit import assert_valid_home, assert_valid_message, assert_valid_modal
from tests.bot_process import Bot
from tests.slack_emulator import TEAM, Fault, SlackEmulator
from tests.slack_sender import SlackSender, block_action, event_callback, mention, new_trigger
from tests.test_views import state

MINE, WORKSPACE = "mincards_prefs_me", "mincards_prefs_workspace"


def change(field: str, values: list[str], *, user: str = "U0001", team: str = TEAM,
           block: str = MINE, view: str = "home") -> dict[str, Any]:
    """A settings menu changed, as Slack sends it from the Home tab or the modal."""
    scope = "ws_" if block == WORKSPACE else ""
    action: dict[str, Any] = {"type": "multi_static_select" if field in ("flavours",
                                                                         "frameworks")
                              else "static_select",
                              "action_id": f"mincards_pref_{scope}{field}",
                              "block_id": block, "action_ts": "1700000000.1"}
    if field in ("flavours", "frameworks"):
        action["selected_options"] = [{"value": v} for v in values]
    else:
        action["selected_option"] = {"value": values[0]}
    return {"type": "block_actions", "user": {"id": user, "team_id": team},
            "team": {"id": team}, "api_app_id": "A0001", "token": "legacy",
            "trigger_id": new_trigger(),
            "container": {"type": "view", "view_id": "V1"},
            "view": {"id": "V1", "type": view, "callback_id": "mincards_settings"},
            "actions": [action]}


def reply_to(slack: SlackSender, emulator: SlackEmulator, text: str,
             user: str = "U0001", team: str = TEAM) -> str:
    emulator.reset()
    event = mention(text)
    event["user"] = user
    body = event_callback(event)
    body["team_id"] = team
    slack.post(json.dumps(body), "application/json")
    (call,) = emulator.wait_for("chat.postMessage")
    return str(call.params.get("text", "")) + str(call.params.get("blocks", ""))


def test_settings_modal_menus_narrow_replies_and_forget_me(slack: SlackSender,
                                                          emulator: SlackEmulator) -> None:
    slack.command("settings", emulator.response_url())
    (opened,) = emulator.wait_for("views.open")
    blocks = str(opened.params["view"]["blocks"])
    assert "mincards_pref_flavours" in blocks and WORKSPACE not in blocks  # not an admin
    emulator.reset()
    slack.action(change("flavours", ["snt9b23"], view="modal"))
    slack.action(change("frameworks", ["llama_factory"], view="modal"))
    emulator.wait_for("views.update", count=2)
    said = reply_to(slack, emulator, "qwen 2.5 72b lora 8k?")
    assert "Showing Snt9B23 and Llama-Factory, your settings" in said
    assert "MindSpeed-LLM" not in said
    # A question naming its own framework gets it; the flavour it left open is the setting's.
    named = reply_to(slack, emulator, "qwen 2.5 72b lora 8k with mindspeed-llm")
    assert "MindSpeed-LLM" in named and "Showing Snt9B23, your settings" in named
    # Another person in the workspace is untouched.
    other = reply_to(slack, emulator, "qwen 2.5 72b lora 8k?", user="U0002")
    assert "MindSpeed-LLM" in other and "your settings" not in other
    emulator.reset()
    slack.command("forget me", emulator.response_url())
    (said_back,) = emulator.wait_for("response")
    assert "settings are cleared" in str(said_back.params)
    plain = reply_to(slack, emulator, "qwen 2.5 72b lora 8k?")
    assert "MindSpeed-LLM" in plain and "your settings" not in plain


def test_workspace_defaults_are_for_admins_and_a_person_wins(slack: SlackSender,
                                                            emulator: SlackEmulator) -> None:
    # A non-admin forging a workspace change (the block id is the payload's word) is refused.
    emulator.reset()
    slack.action(change("flavours", ["snt9b"], user="U0003", block=WORKSPACE))
    (published,) = emulator.wait_for("views.publish")
    assert "Only a workspace admin or owner" in str(published.params["view"])
    assert "your settings" not in reply_to(slack, emulator, "qwen2.5-7b lora", user="U0004")
    # An admin (users.info says so) sets the default; everyone gets it; a person's own wins.
    emulator.admins.add("U0009")
    emulator.reset()
    slack.action(change("flavours", ["snt9b"], user="U0009", block=WORKSPACE))
    (published,) = emulator.wait_for("views.publish")
    assert WORKSPACE in str(published.params["view"])
    said = reply_to(slack, emulator, "qwen2.5-72b lora 8k", user="U0004")
    assert "Showing Snt9B, your settings" in said and "Snt9B23" not in said
    emulator.reset()
    slack.action(change("flavours", ["snt9b23"], user="U0005"))
    emulator.wait_for("views.publish")
    mine = reply_to(slack, emulator, "qwen2.5-72b lora 8k", user="U0005")
    assert "Showing Snt9B23, your settings" in mine
    emulator.admins.discard("U0009")


def test_a_payload_naming_another_workspace_reaches_only_the_tokens_own(
        slack: SlackSender, emulator: SlackEmulator, bot: Bot) -> None:
    """Single-token mode answers one workspace, the token's (auth.test): a signed payload that
    names another team id neither reads nor writes that team's rows."""
    emulator.reset()
    slack.action(change("length", ["short"], user="U0007", team="T0666"))
    emulator.wait_for("views.publish")
    database = Path(bot.log).parent / "state" / "mincards" / "mincards.db"
    with sqlite3.connect(database) as conn:
        teams = {row[0] for row in conn.execute("SELECT team_id FROM preferences")}
    assert teams == {TEAM}


def test_home_tab_shows_the_settings(slack: SlackSender, emulator: SlackEmulator) -> None:
    emulator.reset()
    slack.event({"type": "app_home_opened", "user": "U0001", "channel": "D0001", "tab": "home",
                 "event_ts": "1700000000.2"})
    (published,) = emulator.wait_for("views.publish")
    view = str(published.params["view"])
    assert "Settings" in view and "mincards_pref_language" in view


def test_short_replies_and_the_language_setting(slack: SlackSender,
                                                emulator: SlackEmulator) -> None:
    emulator.reset()
    slack.action(change("length", ["short"], user="U0011"))
    slack.action(change("language", ["zh"], user="U0011"))
    emulator.wait_for("views.publish", count=2)
    said = reply_to(slack, emulator, "qwen 2.5 72b lora 8k?", user="U0011")
    assert "Qwen2.5-72B · LoRA · 8K：" in said  # in Chinese, as set
    (call,) = emulator.of("chat.postMessage")
    # The sentence and its small print; "Show all" only where a setting narrowed it (a
    # workspace default an earlier test's admin set, when run with it).
    narrowed = "按你的设置" in said
    assert [b["type"] for b in call.params["blocks"]] == ["section", "context"] + (
        ["actions"] if narrowed else [])


def test_show_all_the_form_and_the_home_tab_follow_the_settings(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    person = "U0031"
    emulator.reset()
    slack.action(change("frameworks", ["llama_factory"], user=person))
    slack.action(change("language", ["zh"], user=person))
    (_, published) = emulator.wait_for("views.publish", count=2)
    home = published.params["view"]
    assert_valid_home(home)
    assert "设置" in json.dumps(home, ensure_ascii=False)  # the Home tab in the set language
    reply_to(slack, emulator, "qwen2.5-72b lora 8k", user=person)
    (posted,) = emulator.of("chat.postMessage")
    assert "MindSpeed-LLM" not in json.dumps(posted.params)
    (show_all,) = [e for b in posted.params["blocks"] if b["type"] == "actions"
                   for e in b["elements"] if e["action_id"] == SHOW_ALL_ACTION]
    assert show_all["text"]["text"] == "显示全部"
    emulator.reset()
    click = block_action(show_all["value"], SHOW_ALL_ACTION, emulator.response_url(),
                         ephemeral=False, message_ts="1700000000.000888")
    click["user"]["id"] = person
    assert slack.action(click).status == 200
    (update,) = emulator.wait_for("chat.update")
    assert_valid_message(update.params)
    shown = json.dumps(update.params, ensure_ascii=False)
    assert "MindSpeed-LLM" in shown and "按你的设置" not in shown
    # The form: answered in its ack, narrowed by the settings, and saying so.
    submitted = {"type": "view_submission", "team": {"id": TEAM},
                 "user": {"id": person, "team_id": TEAM}, "api_app_id": "A0001",
                 "token": "legacy", "trigger_id": new_trigger(),
                 "view": {"id": "V9", **state("qwen2.5-7b", "lora", language="en")}}
    body = json.loads(slack.action(submitted).body)
    assert body["response_action"] == "update"
    assert_valid_modal(body["view"])
    form = json.dumps(body["view"], ensure_ascii=False)
    assert "Llama-Factory" in form and "MindSpeed-LLM" not in form and "按你的设置" in form


def _preference_rows(bot: Bot) -> list[tuple[Any, ...]]:
    database = Path(bot.log).parent / "state" / "mincards" / "mincards.db"
    with sqlite3.connect(database) as conn:
        return sorted(conn.execute(
            "SELECT team_id, user_id, flavours, frameworks, language, length FROM preferences"))


@pytest.mark.parametrize("fault", [
    Fault(delay=6.0, times=5),                                   # slower than the 3 s it waits
    Fault(body={"ok": False, "error": "fatal_error"}, times=5),  # refused
    Fault(status=429, headers={"Retry-After": "30"}, body={"ok": False, "error": "ratelimited"},
          times=5)])
def test_an_admin_slack_cannot_vouch_for_changes_nothing_and_says_why(
        slack: SlackSender, emulator: SlackEmulator, bot: Bot, fault: Fault) -> None:
    """An admin's workspace change while users.info is slow, failing or rate-limited: denied
    (Slack's word is needed, never assumed), and the person is told it was Slack, not them."""
    emulator.admins.add("U0019")
    try:
        before = _preference_rows(bot)
        emulator.reset()
        emulator.fail("users.info", fault)
        slack.action(change("flavours", ["snt9b"], user="U0019", block=WORKSPACE))
        (published,) = emulator.wait_for("views.publish", timeout=30)
        view = str(published.params["view"])
        assert "did not confirm" in view and "Only a workspace admin" not in view
        assert _preference_rows(bot) == before
        emulator.faults.pop("users.info", None)
        emulator.reset()  # Slack answers again: the same change is made
        slack.action(change("flavours", ["snt9b"], user="U0019", block=WORKSPACE))
        emulator.wait_for("views.publish")
        assert (TEAM, "", "snt9b") in {row[:3] for row in _preference_rows(bot)}
    finally:
        emulator.admins.discard("U0019")
        emulator.faults.pop("users.info", None)
        slack.action(change("flavours", [], user="U0019", block=WORKSPACE))


@pytest.mark.parametrize(("field", "values"), [
    ("flavours", ["snt9b", "snt1000"]), ("frameworks", ["rm -rf"]), ("language", ["fr"]),
    ("length", ["tiny"]), ("flavours", ["x" * 5000])])
def test_a_setting_outside_the_offered_values_is_ignored(
        slack: SlackSender, emulator: SlackEmulator, bot: Bot, field: str,
        values: list[str]) -> None:
    before = _preference_rows(bot)
    emulator.reset()
    assert slack.action(change(field, values, user="U0020")).status == 200
    time.sleep(0.5)
    assert _preference_rows(bot) == before
    assert "Traceback" not in bot.log_text()


def test_edited_private_metadata_reaches_no_other_workspace(
        slack: SlackSender, emulator: SlackEmulator, bot: Bot) -> None:
    """The form's private_metadata says only its language: a body that edits it to name
    another team or person is answered for the signed request's own workspace and person."""
    before = _preference_rows(bot)
    view = {"id": "V7", **state("qwen2.5-7b", "lora", language="en")}
    view["private_metadata"] = json.dumps({"l": "en", "team": "T0666", "team_id": "T0666",
                                           "user": "U0666", "enterprise_id": "E0666"})
    submitted = {"type": "view_submission", "team": {"id": TEAM},
                 "user": {"id": "U0021", "team_id": TEAM}, "api_app_id": "A0001",
                 "token": "legacy", "trigger_id": new_trigger(), "view": view}
    body = json.loads(slack.action(submitted).body)
    assert body["response_action"] == "update"
    assert "Qwen2.5-7B" in json.dumps(body["view"])
    assert _preference_rows(bot) == before
    assert not [row for row in _preference_rows(bot) if "T0666" in row or "U0666" in row]
