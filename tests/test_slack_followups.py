"""Follow-ups over Slack, end to end: in a DM, in a channel thread, and after a button."""

from __future__ import annotations

from typing import Any

from mincards.bot.replies.render_blocks import PICK_ACTION
from tests.blockkit import seen
from tests.slack_emulator import SlackEmulator
from tests.slack_sender import SlackSender, block_action, direct_message, mention


def reply(slack: SlackSender, emulator: SlackEmulator, event: dict[str, Any]) -> dict[str, Any]:
    emulator.reset()
    assert slack.event(event).status == 200
    (call,) = emulator.wait_for("chat.postMessage")
    return {**call.params, "seen": seen(call.params)}


def test_a_dm_conversation(slack: SlackSender, emulator: SlackEmulator) -> None:
    first = reply(slack, emulator, direct_message("qwen2.5-72b", channel="D0100"))
    assert "MindSpeed-LLM\nfull-parameter · 4K: Snt9B 32 cards" in first["seen"]
    lora = reply(slack, emulator, direct_message("and lora?", channel="D0100"))
    assert lora["text"].startswith("Qwen2.5-72B") and "full-parameter" not in lora["seen"]
    budget = reply(slack, emulator, direct_message("8卡够吗", channel="D0100"))
    # LoRA at 8k, 8 cards = 16 DIE: MindSpeed-LLM on Snt9B23 only.
    assert budget["text"].startswith("可以") and "Qwen2.5-72B" in budget["text"]
    # Another DM is another conversation.
    other = reply(slack, emulator, direct_message("and lora?", channel="D0200"))
    assert "Ask me how many Ascend NPUs" in other["seen"]


def test_a_thread_conversation(slack: SlackSender, emulator: SlackEmulator) -> None:
    asking = mention("qwen 72b full", channel="C0100")
    which = reply(slack, emulator, asking)
    assert which["thread_ts"] == asking["ts"] and "Which one" in which["text"]
    picked = reply(slack, emulator, mention("2.5", channel="C0100", thread_ts=asking["ts"]))
    assert picked["thread_ts"] == asking["ts"]
    assert picked["text"].startswith("Qwen2.5-72B needs at least") and "LoRA" not in picked[
        "seen"]
    on_die = reply(slack, emulator, mention("and 8k on Snt9B23?", channel="C0100",
                                            thread_ts=asking["ts"]))
    assert on_die["text"].startswith("Qwen2.5-72B · full-parameter · 8K:")
    assert "on Snt9B23" in on_die["text"] and "on Snt9B," not in on_die["text"]
    # A mention at the channel's top level starts its own thread, afresh.
    fresh = reply(slack, emulator, mention("and lora?", channel="C0100"))
    assert "Ask me how many Ascend NPUs" in fresh["seen"]


def test_after_a_button_the_conversation_goes_on(slack: SlackSender,
                                                 emulator: SlackEmulator) -> None:
    which = reply(slack, emulator, direct_message("qwen 7b lora 8k", channel="D0300"))
    pick = next(e for b in which["blocks"] if b["type"] == "actions" for e in b["elements"]
                if e["action_id"].startswith(PICK_ACTION) and e["text"]["text"] == "Qwen2-7B")
    emulator.reset()
    slack.action(block_action(pick["value"], pick["action_id"], emulator.response_url(),
                              ephemeral=False, channel="D0300", message_ts="1700000000.000300"))
    (update,) = emulator.wait_for("chat.update")
    assert update.params["text"].startswith("Qwen2-7B · LoRA · 8K:")
    full = reply(slack, emulator, direct_message("那全参呢", channel="D0300"))
    assert full["text"].startswith("Qwen2-7B · 全参 · 8K：")
    assert "LoRA · " not in full["seen"]  # no LoRA entry (a warning may name LoRA)


def test_a_plan_and_a_stand_in_go_on_in_a_thread(slack: SlackSender,
                                                 emulator: SlackEmulator) -> None:
    asking = mention("how long will qwen2.5-72b lora take on 32 cards, 1M samples of 2k "
                     "tokens, 3 epochs at TPS 1800?", channel="C0400")
    first = reply(slack, emulator, asking)
    assert "32.15" in first["text"] and "16.08" in first["text"]
    more = reply(slack, emulator, mention("and with 64 cards?", channel="C0400",
                                          thread_ts=asking["ts"]))
    assert "16.08 h on Snt9B with 64 cards" in more["text"]
    other = mention("QwQ-32B full", channel="C0400")
    stand_in = reply(slack, emulator, other)
    assert stand_in["text"].startswith("QwQ-32B is not in the table")
    lora = reply(slack, emulator, mention("and lora?", channel="C0400",
                                          thread_ts=other["ts"]))
    assert lora["text"].startswith("QwQ-32B is not in the table") and "LoRA" in lora["text"]
