"""Block Kit building blocks as plain data, each kept within Slack's limits (data/slack.toml)."""

from __future__ import annotations

from typing import Any

from mincards.bot.replies.slack_limits import SlackLimits

Block = dict[str, Any]


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def mrkdwn(text: str) -> Block:
    return {"type": "mrkdwn", "text": text}


def plain(text: str, limit: int) -> Block:
    return {"type": "plain_text", "text": clip(text, limit), "emoji": True}


def section(text: str, lim: SlackLimits, block_id: str | None = None) -> Block:
    out: Block = {"type": "section", "text": mrkdwn(clip(text, lim.max_section_text))}
    if block_id:
        out["block_id"] = block_id
    return out


def fields(texts: list[str], lim: SlackLimits, heading: str | None = None) -> list[Block]:
    """Sections of fields, as many as the fields need (a section holds at most ten)."""
    items = [mrkdwn(clip(x, lim.max_field_text)) for x in texts]
    per = lim.max_section_fields
    chunks = [items[i:i + per] for i in range(0, len(items), per)] or [[]]
    out = []
    for i, chunk in enumerate(chunks):
        block: Block = {"type": "section"}
        if i == 0 and heading:
            block["text"] = mrkdwn(clip(heading, lim.max_section_text))
        if chunk:
            block["fields"] = chunk
        out.append(block)
    return [b for b in out if len(b) > 1]


def context(texts: list[str], lim: SlackLimits) -> Block:
    """Small print; more texts than a context holds are joined into its last element."""
    texts = [x for x in texts if x]
    n = lim.max_context_elements
    if len(texts) > n:
        texts = [*texts[: n - 1], "\n".join(texts[n - 1:])]
    return {"type": "context",
            "elements": [mrkdwn(clip(x, lim.max_context_text)) for x in texts]}


def header(text: str, lim: SlackLimits) -> Block:
    return {"type": "header", "text": plain(text, lim.max_header_text)}


def button(label: str, action_id: str, value: str, lim: SlackLimits,
           primary: bool = False) -> Block:
    out: Block = {"type": "button", "action_id": action_id,
                  "text": plain(label, lim.max_button_text), "value": value}
    if primary:
        out["style"] = "primary"
    return out


def actions(elements: list[Block], lim: SlackLimits, block_id: str | None = None) -> Block:
    out: Block = {"type": "actions", "elements": elements[: lim.max_actions_elements]}
    if block_id:
        out["block_id"] = block_id
    return out


def option(text: str, value: str, lim: SlackLimits) -> Block:
    return {"text": plain(text, lim.max_option_text), "value": value[: lim.max_option_value]}


def static_select(action_id: str, placeholder: str, groups: list[tuple[str, list[Block]]],
                  lim: SlackLimits, initial: Block | None = None) -> Block:
    """A select menu; options in labelled groups, at most Slack's number of options in all."""
    budget = lim.max_select_options
    kept: list[tuple[str, list[Block]]] = []
    for label, options in groups:
        if budget <= 0:
            break
        kept.append((label, options[:budget]))
        budget -= len(kept[-1][1])
    out: Block = {"type": "static_select", "action_id": action_id,
                  "placeholder": plain(placeholder, lim.max_placeholder_text)}
    if len(kept) == 1:
        out["options"] = kept[0][1]
    else:
        out["option_groups"] = [{"label": plain(label, lim.max_option_group_label),
                                 "options": options} for label, options in kept]
    if initial is not None:
        out["initial_option"] = initial
    return out


def feedback(action_id: str, positive: tuple[str, str], negative: tuple[str, str],
             lim: SlackLimits) -> Block:
    """Slack's thumbs-up / thumbs-down buttons; (label, value) for each."""
    def half(label: str, value: str) -> Block:
        return {"text": plain(label, lim.max_button_text), "value": value[:lim.max_button_value]}

    return {"type": "context_actions", "elements": [{
        "type": "feedback_buttons", "action_id": action_id,
        "positive_button": half(*positive), "negative_button": half(*negative)}]}
