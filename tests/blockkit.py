"""A checker for the Block Kit the bot sends: known block types, required parts, Slack's limits
(docs.slack.dev/reference/block-kit), and where each block may stand (a table only in a message,
one at most; inputs only in a modal)."""

from __future__ import annotations

from typing import Any

from mincards.bot.replies.slack_limits import limits

TEXT_TYPES = {"mrkdwn", "plain_text"}
MESSAGE, HOME, MODAL = "message", "home", "modal"


def _text(obj: Any, limit: int, where: str, plain: bool = False) -> None:
    assert isinstance(obj, dict) and obj.get("type") in TEXT_TYPES, f"{where}: not a text object"
    if plain:
        assert obj["type"] == "plain_text", f"{where}: must be plain_text"
    text = obj.get("text")
    assert isinstance(text, str) and text.strip(), f"{where}: empty text"
    assert len(text) <= limit, f"{where}: {len(text)} > {limit} characters"


def _option(o: Any, where: str) -> None:
    lim = limits()
    _text(o.get("text"), lim.max_option_text, where + " option", plain=True)
    value = o.get("value")
    assert isinstance(value, str) and value and len(value) <= lim.max_option_value, (
        f"{where}: option value {len(value or '')} > {lim.max_option_value}")


def _element(e: Any, where: str) -> None:
    lim = limits()
    kind = e.get("type")
    assert isinstance(e.get("action_id"), str) and len(e["action_id"]) <= 255, where
    if kind == "button":
        _text(e["text"], lim.max_button_text, where + " button", plain=True)
        assert len(e.get("value", "")) <= lim.max_button_value, f"{where}: button value"
    elif kind in ("static_select", "multi_static_select"):
        _text(e["placeholder"], lim.max_placeholder_text, where + " placeholder", plain=True)
        assert ("options" in e) != ("option_groups" in e), f"{where}: options xor groups"
        options = e.get("options") or [o for g in e.get("option_groups", [])
                                        for o in g["options"]]
        assert 0 < len(options) <= lim.max_select_options, f"{where}: {len(options)} options"
        for g in e.get("option_groups", []):
            _text(g["label"], lim.max_option_group_label, where + " group", plain=True)
        for o in options:
            _option(o, where)
        values = [o["value"] for o in options]
        assert len(values) == len(set(values)), f"{where}: repeated option values"
        # A menu's initial choices must be among its options, exactly as written there.
        initial = e.get("initial_options") or ([e["initial_option"]] if "initial_option" in e
                                                else [])
        assert all(o in options for o in initial), f"{where}: initial option not offered"
        if kind == "static_select":
            assert "initial_options" not in e, f"{where}: one choice only"
    elif kind == "plain_text_input":
        if "placeholder" in e:
            _text(e["placeholder"], lim.max_placeholder_text, where, plain=True)
    else:
        raise AssertionError(f"{where}: unexpected element {kind}")


SLACK_TABLE_CHARACTERS = 10_000


def _table(block: Any, where: str) -> None:
    lim = limits()
    rows = block.get("rows")
    assert isinstance(rows, list) and 0 < len(rows) <= lim.max_table_rows, f"{where}: rows"
    widths = {len(r) for r in rows}
    assert len(widths) == 1, f"{where}: rows of different widths {widths}"
    assert 0 < widths.pop() <= lim.max_table_cells, f"{where}: cells a row"
    characters = 0
    for row in rows:
        for cell in row:
            if cell["type"] == "raw_text":
                assert isinstance(cell["text"], str) and cell["text"], f"{where}: empty cell"
                characters += len(cell["text"])
            else:
                assert cell["type"] == "rich_text", f"{where}: cell type {cell['type']}"
                texts = [el["text"] for sec in cell["elements"] for el in sec["elements"]]
                assert "".join(texts).strip(), f"{where}: empty rich cell"
                characters += len("".join(texts))
    # Slack's own figure, not the data's: a table over it is refused (invalid_blocks).
    assert characters <= SLACK_TABLE_CHARACTERS, f"{where}: {characters} characters in cells"
    assert len(block.get("column_settings", [])) <= lim.max_table_column_settings


def assert_valid_blocks(blocks: Any, max_blocks: int, surface: str = MESSAGE) -> None:
    lim = limits()
    assert isinstance(blocks, list) and blocks, "no blocks"
    assert len(blocks) <= max_blocks, f"{len(blocks)} blocks > {max_blocks}"
    tables = [i for i, b in enumerate(blocks) if b.get("type") == "table"]
    assert len(tables) <= lim.max_tables_per_message, "more than one table"
    # Slack shows a message's table at the bottom: the bot puts it there, so what people see is
    # the order it was written in.
    assert not tables or tables == [len(blocks) - 1], "a table that is not the last block"
    ids = [b["block_id"] for b in blocks if "block_id" in b]
    assert len(ids) == len(set(ids)), "repeated block_id"
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
            if "accessory" in block:
                _element(block["accessory"], where + " accessory")
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
                _element(e, where)
        elif kind == "context_actions":
            elements = block.get("elements", [])
            assert 0 < len(elements) <= 5, f"{where}: elements"
            for e in elements:
                assert e["type"] == "feedback_buttons", f"{where}: {e['type']}"
                for half in ("positive_button", "negative_button"):
                    _text(e[half]["text"], lim.max_button_text, where, plain=True)
                    assert 0 < len(e[half]["value"]) <= lim.max_button_value
        elif kind == "table":
            assert surface == MESSAGE, f"{where}: a table outside a message"
            _table(block, where)
        elif kind == "input":
            assert surface == MODAL, f"{where}: an input outside a modal"
            _text(block["label"], lim.max_input_label, where + " label", plain=True)
            _element(block["element"], where)
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
    assert_valid_blocks(view.get("blocks"), limits().max_home_blocks, HOME)


def assert_valid_modal(view: dict[str, Any]) -> None:
    lim = limits()
    assert view.get("type") == "modal"
    _text(view["title"], lim.max_view_title, "title", plain=True)
    for key in ("submit", "close"):
        if key in view:
            _text(view[key], lim.max_view_button, key, plain=True)
    assert len(view.get("private_metadata", "")) <= lim.max_private_metadata
    assert len(view.get("callback_id", "")) <= 255
    inputs = any(b["type"] == "input" for b in view["blocks"])
    assert not inputs or "submit" in view, "a form without a submit button"
    assert_valid_blocks(view.get("blocks"), lim.max_home_blocks, MODAL)


def shown(params: dict[str, Any]) -> list[str]:
    """Every string a person reads in a message or view, in order (a table row as its cells
    joined by ' | '), then the notification text. Button and option values are not shown."""
    out: list[str] = []

    def cell(c: dict[str, Any]) -> str:
        if c.get("type") == "raw_text":
            return str(c.get("text", ""))
        return "".join(el.get("text", "") for sec in c.get("elements", [])
                       for el in sec.get("elements", []))

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "table":
                out.extend(" | ".join(cell(c) for c in row) for row in node.get("rows", []))
                return
            if node.get("type") in ("mrkdwn", "plain_text", "text"):
                out.append(str(node.get("text", "")))
            for key, value in node.items():
                if key != "value":
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(params.get("blocks") or [])
    if "text" in params:
        out.append(str(params["text"]))
    return out


def seen(params: dict[str, Any]) -> str:
    """What a person reads, as one text without mrkdwn's bold marks (the words are read)."""
    return "\n".join(shown(params)).replace("*", "")
