"""Slack's Block Kit limits, from data/slack.toml."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from mincards.bot.facts.datafiles import STRICT_KEYS, check_positive, load_toml
from mincards.bot.facts.knowledge import default_data_dir


@dataclass(frozen=True, kw_only=True)
class SlackLimits:
    __pydantic_config__ = STRICT_KEYS
    max_message_blocks: int
    max_home_blocks: int
    max_section_text: int
    max_section_fields: int
    max_field_text: int
    max_header_text: int
    max_button_text: int
    max_button_value: int
    max_context_elements: int
    max_context_text: int
    max_actions_elements: int
    max_option_text: int
    max_option_value: int
    max_select_options: int
    max_option_group_label: int
    max_placeholder_text: int
    max_table_rows: int
    max_table_cells: int
    max_table_column_settings: int
    max_table_characters: int = 10000
    max_tables_per_message: int
    max_view_title: int
    max_view_button: int
    max_input_label: int
    max_private_metadata: int
    max_choice_buttons: int
    max_capacity_models: int
    max_examples: int

    def __post_init__(self) -> None:
        check_positive(self)


def load_limits(path: Path) -> SlackLimits:
    return load_toml(path, SlackLimits)


@cache
def limits() -> SlackLimits:
    return load_limits(default_data_dir() / "slack.toml")
