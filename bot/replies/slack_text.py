"""Slack's message markup: read incoming text as a person wrote it; escape anything shown back."""

from __future__ import annotations

import html
import re

# <@U123>, <@U123|name>, <#C123|general>, <!channel>, <!subteam^S1|@team>, <https://x|label>
_ANGLE = re.compile(r"<([^<>]*)>")


def _angle(match: re.Match[str], bot_user_id: str | None) -> str:
    inner = match.group(1)
    target, _, label = inner.partition("|")
    if target.startswith("@"):
        return " "  # a mention of the bot or of anyone else is not part of the question
    if target.startswith("#"):
        return f" {label} " if label else " "
    if target.startswith("!"):
        return " "  # <!channel>, <!here>, <!subteam^...>, <!date...>: never a model name
    # A link: the URL names the model (huggingface.co/Qwen/...); the label may be shortened.
    return f" {target} "


def from_slack(text: str, bot_user_id: str | None = None) -> str:
    """The question as typed: mentions and specials dropped, links unwrapped, entities decoded."""
    text = _ANGLE.sub(lambda m: _angle(m, bot_user_id), text or "")
    # Slack escapes only &, < and >; decoding after the angle brackets keeps '&lt;x&gt;' literal.
    return html.unescape(text).strip()


def escape(text: str) -> str:
    """Text safe to put in a Slack message: no mention, link or special can form from it."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def code(text: str) -> str:
    """User-derived text shown as inline code: escaped, and no backtick to break out of it."""
    return "`" + escape(text.replace("`", "'")) + "`"
