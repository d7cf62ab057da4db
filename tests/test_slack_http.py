"""End to end over HTTP: the real Bolt app under gunicorn, driven the way Slack drives it."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest

from mincards.bot.answering.followup import FollowUp
from mincards.bot.replies.render_blocks import PICK_ACTION, SHARE_ACTION
from tests.blockkit import assert_valid_home, assert_valid_message, seen
from tests.bot_process import BOT_TOKEN, SIGNING_SECRET, Bot
from tests.slack_emulator import BOT_USER, Fault, SlackEmulator
from tests.slack_sender import SlackSender, block_action, direct_message, mention, new_ts


def settle(emulator: SlackEmulator, seconds: float = 0.5) -> None:
    """Give the bot time to post anything it (wrongly) would."""
    time.sleep(seconds)


def test_healthz(bot: Bot) -> None:
    with urllib.request.urlopen(bot.base_url + "/healthz", timeout=5) as r:
        assert r.status == 200


def test_mention_is_answered_in_its_thread_with_both_frameworks(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    event = mention("qwen 2.5 72b lora 8k?")
    assert slack.event(event).status == 200
    (call,) = emulator.wait_for("chat.postMessage")
    p = call.params
    assert p["channel"] == "C0001" and p["thread_ts"] == event["ts"]
    assert_valid_message(p)
    shown = seen(p)
    assert "MindSpeed-LLM · Snt9B\n16 cards, 2 nodes" in shown
    assert "MindSpeed-LLM · Snt9B23\n16 DIE (8 cards), 1 node" in shown
    assert "Llama-Factory · Snt9B\n32 cards, 4 nodes" in shown
    assert "Llama-Factory · Snt9B23\n32 DIE (16 cards), 2 nodes" in shown
    # The notification is the sentence that answers, fewest first on each flavour.
    assert p["text"] == ("Qwen2.5-72B · LoRA · 8K: 16 cards (2 nodes) on Snt9B, 16 DIE "
                         "(1 node) on Snt9B23, with MindSpeed-LLM.")
    assert call.headers["authorization"] == f"Bearer {BOT_TOKEN}"


def test_mention_inside_a_thread_replies_in_that_thread(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    parent = new_ts()
    slack.event(mention("llama3.1-70b full 4k", thread_ts=parent))
    (call,) = emulator.wait_for("chat.postMessage")
    assert call.params["thread_ts"] == parent
    assert "MindSpeed-LLM · Snt9B\n32 cards, 4 nodes" in seen(call.params)


def test_direct_message_is_answered_in_the_dm_in_chinese(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    event = direct_message("Qwen/Qwen2.5-72B-Instruct 全参 需要几张卡")
    slack.event(event)
    (call,) = emulator.wait_for("chat.postMessage")
    # The agent view (AGENT_VIEW, on by default): the DM's own thread is its session.
    assert call.params["channel"] == "D0001" and call.params["thread_ts"] == event["ts"]
    shown = seen(call.params)
    assert "全参 · 8K：Snt9B 64 张卡，8 个节点 | Snt9B23 64 DIE（32 张卡），4 个节点" in shown
    assert call.params["text"].startswith("Qwen2.5-72B 最少需要：Snt9B 上 32 张卡（4 个节点）")
    assert_valid_message(call.params)


def test_direct_message_in_a_thread_replies_in_the_thread(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    parent = new_ts()
    slack.event(direct_message("glm4-9b lora", thread_ts=parent))
    (call,) = emulator.wait_for("chat.postMessage")
    assert call.params["thread_ts"] == parent


@pytest.mark.parametrize("extra", [
    pytest.param({"subtype": "message_changed"}, id="edit"),
    pytest.param({"subtype": "message_deleted"}, id="deletion"),
    pytest.param({"subtype": "channel_join"}, id="join"),
    pytest.param({"subtype": "bot_message", "bot_id": "B999"}, id="bot-message"),
    pytest.param({"user": BOT_USER}, id="own-message"),
    pytest.param({"bot_id": "B999"}, id="other-bot"),
])
def test_other_message_kinds_get_no_reply(slack: SlackSender, emulator: SlackEmulator,
                                          extra: dict[str, str]) -> None:
    assert slack.event(direct_message("qwen2.5-7b", **extra)).status == 200
    settle(emulator)
    assert emulator.replies() == []


def test_mention_inside_a_dm_is_answered_once(slack: SlackSender,
                                              emulator: SlackEmulator) -> None:
    text = f"<@{BOT_USER}> qwen3-8b lora"
    dm = direct_message(text)
    slack.event(dm)
    slack.event({**mention("qwen3-8b lora", channel="D0001"), "ts": dm["ts"]})
    emulator.wait_for("chat.postMessage")
    settle(emulator)
    assert len(emulator.of("chat.postMessage")) == 1


def test_slack_link_markup_is_read_as_the_model(slack: SlackSender,
                                                emulator: SlackEmulator) -> None:
    slack.event(mention("<https://huggingface.co/Qwen/Qwen2.5-72B-Instruct|huggingface.co/"
                        "Qwen/Qwen2.5-72B-Instruct> full &amp; 4k"))
    (call,) = emulator.wait_for("chat.postMessage")
    assert call.params["text"].startswith("Qwen2.5-72B · full-parameter · 4K: 32 cards")


def test_user_text_cannot_ping_anyone(slack: SlackSender, emulator: SlackEmulator) -> None:
    slack.event(mention("<!channel> <!here> <@U0002> <!subteam^S123> qwen2.5-3b &lt;!here&gt;"))
    (call,) = emulator.wait_for("chat.postMessage")
    posted = json.dumps(call.params, ensure_ascii=False)
    for ping in ("<!channel>", "<!here>", "<@U0002>", "<!subteam"):
        assert ping not in posted
    assert "Qwen2.5-3B" in call.params["text"]


def test_slash_command_answers_privately_with_a_share_button(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    assert slack.command("llama3.1-70b full", emulator.response_url()).status == 200
    (call,) = emulator.wait_for("response")
    p = call.params
    assert p["response_type"] == "ephemeral" and not emulator.of("chat.postEphemeral")
    assert_valid_message(p)
    shown = seen(p)
    assert "MindSpeed-LLM\nfull-parameter · 4K: Snt9B 32 cards, 4 nodes" in shown
    assert "64 cards, 8 nodes" in shown
    share = [e for b in p["blocks"] if b["type"] == "actions" for e in b["elements"]
             if e["action_id"] == SHARE_ACTION]
    assert len(share) == 1
    shared = FollowUp.decode(share[0]["value"])
    assert shared is not None and shared.context is not None
    assert (shared.context.models, shared.context.strategies) == (("llama3.1-70b",), ("full",))


@pytest.mark.parametrize("text", ["", "help", "  "])
def test_slash_command_alone_shows_usage(slack: SlackSender, emulator: SlackEmulator,
                                         text: str) -> None:
    slack.command(text, emulator.response_url())
    (call,) = emulator.wait_for("response")
    text = call.params["text"]
    assert "How to use /mincards" in text and "mention me" in text and "in a DM" in text


def test_slash_command_falls_back_to_chat_post_ephemeral(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    """The response URL first, as Slack means commands to be answered; when it fails (after
    its retries), chat.postEphemeral."""
    emulator.fail("response", Fault(status=404, times=10))
    url = emulator.response_url("expired")
    slack.command("qwen3-32b lora 8k", url)
    (call,) = emulator.wait_for("chat.postEphemeral")
    assert (call.params["channel"], call.params["user"]) == ("C0001", "U0001")
    assert emulator.of("response")[0].at < call.at
    assert "8 cards (1 node) on Snt9B" in call.params["text"]
    assert_valid_message(call.params)


def _buttons(params: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for b in params["blocks"] if b["type"] == "actions" for e in b["elements"]
            if e["action_id"].startswith(PICK_ACTION)]


def test_choice_button_updates_the_message_keeping_strategy_and_length(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    slack.event(mention("qwen 7b lora 8k"))
    (asked,) = emulator.wait_for("chat.postMessage")
    buttons = _buttons(asked.params)
    assert [b["text"]["text"] for b in buttons] == ["Qwen2.5-7B", "Qwen2-7B", "Qwen2.5-VL-7B",
                                                    "Qwen2-VL-7B"]
    pick = buttons[0]
    slack.action(block_action(pick["value"], pick["action_id"], emulator.response_url(),
                              ephemeral=False, message_ts="1700000000.000123"))
    (update,) = emulator.wait_for("chat.update")
    p = update.params
    assert (p["channel"], p["ts"]) == ("C0001", "1700000000.000123")
    shown = seen(p)
    assert p["text"].startswith("Qwen2.5-7B · LoRA · 8K:") and "full-parameter" not in shown
    assert "Llama-Factory · Snt9B\n1 card, 1 node" in shown
    assert "Llama-Factory · Snt9B23\n2 DIE (1 card), 1 node" in shown
    assert_valid_message(p)


def test_choice_button_on_a_private_answer_replaces_it(slack: SlackSender,
                                                       emulator: SlackEmulator) -> None:
    slack.command("qwen2.5-3b full", emulator.response_url())
    (asked,) = emulator.wait_for("response")
    pick = _buttons(asked.params)[0]
    url = emulator.response_url("ephemeral-pick")
    slack.action(block_action(pick["value"], pick["action_id"], url, ephemeral=True))
    call = emulator.wait_for("response", count=2)[1]
    assert call.params["replace_original"] is True
    assert call.params["_url"].endswith("/ephemeral-pick")
    assert "full-parameter" in seen(call.params) and "LoRA" not in seen(call.params)


def test_share_button_posts_the_answer_to_the_channel(slack: SlackSender,
                                                      emulator: SlackEmulator) -> None:
    slack.command("gemma3-27b full 8k", emulator.response_url())
    (asked,) = emulator.wait_for("response")
    share = next(e for b in asked.params["blocks"] if b["type"] == "actions"
                 for e in b["elements"] if e["action_id"] == SHARE_ACTION)
    slack.action(block_action(share["value"], SHARE_ACTION, emulator.response_url("share"),
                              ephemeral=True))
    (posted,) = emulator.wait_for("chat.postMessage")
    assert posted.params["channel"] == "C0001"
    assert "48 cards (6 nodes) on Snt9B" in posted.params["text"]
    assert "Asked by <@U0001>" in seen(posted.params)  # who asked, on the shared post
    assert SHARE_ACTION not in json.dumps(posted.params["blocks"])
    cleanup = emulator.wait_for("response", count=2)[1]
    assert cleanup.params == {"delete_original": True, "_url": "/response/share"}


def test_forged_button_value_is_ignored(slack: SlackSender, emulator: SlackEmulator) -> None:
    reply = slack.action(block_action("not json", f"{PICK_ACTION}_0", emulator.response_url(),
                                      ephemeral=False))
    assert reply.status == 200
    settle(emulator)
    assert emulator.replies() == []


@pytest.mark.parametrize(("user", "locale", "title"), [("UZH", "zh-CN", "最小昇腾卡数"),
                                                       ("UEN", "en-US", "minimum Ascend cards")])
def test_app_home_is_in_the_persons_language(slack: SlackSender, emulator: SlackEmulator,
                                             user: str, locale: str, title: str) -> None:
    emulator.locales[user] = locale
    slack.event({"type": "app_home_opened", "user": user, "channel": "D0001", "tab": "home",
                 "event_ts": new_ts()})
    (call,) = emulator.wait_for("views.publish")
    (info,) = emulator.of("users.info")
    assert info.params["user"] == user and info.params["include_locale"] in ("1", "true")
    assert call.params["user_id"] == user
    view = call.params["view"]
    assert_valid_home(view)
    assert title in json.dumps(view["blocks"], ensure_ascii=False)


def test_messages_tab_opened_publishes_nothing(slack: SlackSender,
                                               emulator: SlackEmulator) -> None:
    slack.event({"type": "app_home_opened", "user": "U0001", "channel": "D0001",
                 "tab": "messages", "event_ts": new_ts()})
    settle(emulator)
    assert emulator.of("views.publish") == []


@pytest.mark.parametrize("how", ["unsigned", "wrong-signature", "stale", "wrong-secret"])
def test_unverified_requests_get_401_and_post_nothing(slack: SlackSender,
                                                      emulator: SlackEmulator,
                                                      how: str) -> None:
    event = json.dumps({"type": "event_callback", "event_id": "EvBad",
                        "event": mention("qwen2.5-7b")})
    if how == "unsigned":
        reply = slack.post(event, "application/json", sign=False)
    elif how == "wrong-signature":
        reply = slack.post(event, "application/json", signature="v0=" + "0" * 64)
    elif how == "stale":
        reply = slack.post(event, "application/json", timestamp=int(time.time()) - 301)
    else:
        other = SlackSender(slack.url.removesuffix("/slack/events"), "not-the-secret")
        reply = other.post(event, "application/json")
    assert reply.status == 401
    settle(emulator)
    assert emulator.replies() == []


def test_tokens_never_reach_the_log(bot: Bot) -> None:
    log = bot.log_text()
    assert "HTTP mode" in log  # the log is being written at all
    for secret in (BOT_TOKEN, SIGNING_SECRET, "FAKEBOTTOKEN"):
        assert secret not in log


def test_started_under_gunicorn(bot: Bot) -> None:
    assert "gunicorn" in bot.log_text().lower()




def test_rate_limited_reply_is_posted_once_after_retry_after(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    emulator.fail("chat.postMessage", Fault(status=429, body={"ok": False, "error": "ratelimited"},
                                            headers={"Retry-After": "1"}))
    slack.event(mention("qwen2.5-14b lora 4k"))
    first, second = emulator.wait_for("chat.postMessage", count=2)
    assert second.at - first.at >= 0.9  # waited as Slack asked
    settle(emulator)
    assert len(emulator.of("chat.postMessage")) == 2  # one refused, one delivered: no double
    assert "Qwen2.5-14B" in second.params["text"]


def test_server_error_is_retried(slack: SlackSender, emulator: SlackEmulator) -> None:
    emulator.fail("chat.postMessage", Fault(status=503, body={"ok": False, "error": "fatal"}))
    slack.event(mention("qwen2.5-14b full 8k"))
    calls = emulator.wait_for("chat.postMessage", count=2)
    assert calls[0].params == calls[1].params
