"""Preferences as people set them: a Settings section of menus (the flavours they have, the
frameworks they use, the reply's language and length), on the Home tab and in the
`/mincards settings` modal, saved as each menu changes. A workspace's admins also see its
defaults."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mincards.bot.answering.preferences import LANGUAGES, LENGTHS, Preferences
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.language import Language
from mincards.bot.replies.blocks import Block, actions, context, header, plain, section
from mincards.bot.replies.i18n import t
from mincards.bot.replies.slack_limits import SlackLimits, limits

# Every menu's action id starts so, then `ws_` for the workspace's menus (action ids are
# unique in a view), then the field; the block id says the same.
ACTION_PREFIX = "mincards_pref_"
WORKSPACE_PART = "ws_"
MINE, WORKSPACE = "mincards_prefs_me", "mincards_prefs_workspace"
FIELDS = ("flavours", "frameworks", "language", "length")
SETTINGS_CALLBACK = "mincards_settings"


def _option(text: str, value: str, lim: SlackLimits) -> Block:
    return {"text": plain(text, lim.max_option_text), "value": value}


def _multi(action_id: str, placeholder: str, choices: list[tuple[str, str]],
           chosen: tuple[str, ...], lim: SlackLimits) -> Block:
    options = [_option(text, value, lim) for text, value in choices][: lim.max_select_options]
    menu: Block = {"type": "multi_static_select", "action_id": action_id,
                   "placeholder": plain(placeholder, lim.max_placeholder_text),
                   "options": options}
    initial = [o for o in options if o["value"] in chosen]
    if initial:
        menu["initial_options"] = initial
    return menu


def _single(action_id: str, placeholder: str, choices: list[tuple[str, str]], chosen: str,
            lim: SlackLimits) -> Block:
    options = [_option(text, value, lim) for text, value in choices]
    return {"type": "static_select", "action_id": action_id, "options": options,
            "placeholder": plain(placeholder, lim.max_placeholder_text),
            "initial_option": next(o for o in options if o["value"] == chosen)}


def menus(knowledge: Knowledge, language: Language, chosen: Preferences, block_id: str,
          lim: SlackLimits) -> Block:
    prefix = ACTION_PREFIX + (WORKSPACE_PART if block_id == WORKSPACE else "")
    flavours = [(knowledge.flavour_display(f), f) for f in knowledge.table.flavours]
    frameworks = [(knowledge.framework_names.get(f, f), f) for f in knowledge.table.framework_ids]
    return actions([
        _multi(prefix + "flavours", t(language, "settings.all_flavours"), flavours,
               chosen.flavours, lim),
        _multi(prefix + "frameworks", t(language, "settings.all_frameworks"), frameworks,
               chosen.frameworks, lim),
        _single(prefix + "language", t(language, "settings.language.auto"),
                [(t(language, f"settings.language.{v}"), v) for v in LANGUAGES],
                chosen.language, lim),
        _single(prefix + "length", t(language, "settings.length.full"),
                [(t(language, f"settings.length.{v}"), v) for v in LENGTHS], chosen.length, lim),
    ], lim, block_id)


def settings_blocks(knowledge: Knowledge, language: Language, mine: Preferences,
                    workspace: Preferences | None = None, problem: str | None = None
                    ) -> list[Block]:
    """The Settings section: the person's menus, then (for a workspace admin) the workspace's
    defaults; `problem`: a change that was not saved, said at the top."""
    lim = limits()
    blocks: list[Block] = [header(t(language, "settings.title"), lim),
                           section(t(language, "settings.mine"), lim),
                           menus(knowledge, language, mine, MINE, lim)]
    if problem:
        blocks.insert(1, context([problem], lim))
    if workspace is not None:
        blocks += [section(t(language, "settings.workspace"), lim),
                   menus(knowledge, language, workspace, WORKSPACE, lim)]
    blocks.append(context([t(language, "settings.how")], lim))
    return blocks


def settings_modal(knowledge: Knowledge, language: Language, mine: Preferences,
                   workspace: Preferences | None = None, problem: str | None = None
                   ) -> dict[str, Any]:
    lim = limits()
    return {"type": "modal", "callback_id": SETTINGS_CALLBACK,
            "title": plain(t(language, "settings.modal_title"), lim.max_view_title),
            "close": plain(t(language, "settings.done"), lim.max_view_button),
            "blocks": settings_blocks(knowledge, language, mine, workspace, problem)}


def field_of(action_id: str) -> tuple[str, bool] | None:
    """(the field a menu sets, whether it is the workspace's) from its action id."""
    rest = action_id.removeprefix(ACTION_PREFIX)
    workspace = rest.startswith(WORKSPACE_PART)
    field = rest.removeprefix(WORKSPACE_PART) if workspace else rest
    return (field, workspace) if action_id.startswith(ACTION_PREFIX) and field in FIELDS \
        else None


def chosen_from(field: str, action: dict[str, Any], current: Preferences,
                knowledge: Knowledge) -> Preferences | None:
    """The preferences after a menu changed; None for a menu or value this bot did not
    write (a forged payload)."""
    if field in ("flavours", "frameworks"):
        picked = action.get("selected_options")
        if not isinstance(picked, list):
            return None
        known = (knowledge.table.flavours if field == "flavours"
                 else knowledge.table.framework_ids)
        values = [o.get("value") for o in picked if isinstance(o, dict)]
        if not all(isinstance(v, str) and v in known for v in values):
            return None
        ordered = tuple(v for v in known if v in values)
        if field == "flavours":
            return replace(current, flavours=ordered)
        return replace(current, frameworks=ordered)
    option = action.get("selected_option")
    value = option.get("value") if isinstance(option, dict) else None
    if field == "language":
        for choice in LANGUAGES:
            if value == choice:
                return replace(current, language=choice)
    if field == "length":
        for size in LENGTHS:
            if value == size:
                return replace(current, length=size)
    return None
