"""A checker for the Block Kit the bot sends: known block types, required parts, Slack's limits."""

from __future__ import annotations

from typing import Any

from bot.slack_limits import limits

TEXT_TYPES = {"mrkdwn", "plain_text"}


def _text(obj: Any, limit: int, where: str, plain: bool = False) -> None:
    assert isinstance(obj, dict) and obj.get("type") in TEXT_TYPES, f"{where}: not a text object"
    if plain:
        assert obj["type"] == "plain_text", f"{where}: must be plain_text"
    text = obj.get("text")
    assert isinstance(text, str) and text.strip(), f"{where}: empty text"
    assert len(text) <= limit, f"{where}: {len(text)} > {limit} characters"


def assert_valid_blocks(blocks: Any, max_blocks: int) -> None:
    lim = limits()
    assert isinstance(blocks, list) and blocks, "no blocks"
    assert len(blocks) <= max_blocks, f"{len(blocks)} blocks > {max_blocks}"
    for i, block in enumerate(blocks):
        kind = block.get("type")
        where = f"block {i} ({kind})"
        if kind == "section":
            assert "text" in block or "fields" in block, f"{where}: neither text nor fields"
            if "text" in block:
                _text(block["text"], lim.max_section_text, where)
            fields = block.get("fields", [])
            assert len(fields) <= lim.max_section_fields, f"{where}: {len(fields)} fields"
            for f in fields:
                _text(f, lim.max_field_text, where + " field")
        elif kind == "header":
            _text(block["text"], lim.max_header_text, where, plain=True)
        elif kind == "context":
            elements = block.get("elements", [])
            assert 0 < len(elements) <= lim.max_context_elements, f"{where}: elements"
            for e in elements:
                _text(e, lim.max_context_text, where)
        elif kind == "actions":
            elements = block.get("elements", [])
            assert 0 < len(elements) <= lim.max_actions_elements, f"{where}: elements"
            ids = [e["action_id"] for e in elements]
            assert len(ids) == len(set(ids)), f"{where}: duplicate action_id"
            for e in elements:
                assert e["type"] == "button"
                _text(e["text"], lim.max_button_text, where + " button", plain=True)
                assert len(e.get("value", "")) <= lim.max_button_value
        elif kind == "divider":
            pass
        else:
            raise AssertionError(f"{where}: unexpected block type")


def assert_valid_message(params: dict[str, Any]) -> None:
    """A message payload: valid blocks within the message limit, and a text fallback."""
    assert isinstance(params.get("text"), str) and params["text"].strip(), "no text fallback"
    assert_valid_blocks(params.get("blocks"), limits().max_message_blocks)


def assert_valid_home(view: dict[str, Any]) -> None:
    assert view.get("type") == "home"
    assert_valid_blocks(view.get("blocks"), limits().max_home_blocks)
