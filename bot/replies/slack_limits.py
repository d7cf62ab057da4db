"""Slack's Block Kit limits, from data/slack.toml."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, PositiveInt

from mincards.bot.facts.datafiles import load_toml
from mincards.bot.facts.knowledge import default_data_dir


class SlackLimits(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    max_message_blocks: PositiveInt
    max_home_blocks: PositiveInt
    max_section_text: PositiveInt
    max_section_fields: PositiveInt
    max_field_text: PositiveInt
    max_header_text: PositiveInt
    max_button_text: PositiveInt
    max_button_value: PositiveInt
    max_context_elements: PositiveInt
    max_context_text: PositiveInt
    max_actions_elements: PositiveInt
    max_option_text: PositiveInt
    max_option_value: PositiveInt
    max_select_options: PositiveInt
    max_option_group_label: PositiveInt
    max_placeholder_text: PositiveInt
    max_table_rows: PositiveInt
    max_table_cells: PositiveInt
    max_table_column_settings: PositiveInt
    max_tables_per_message: PositiveInt
    max_view_title: PositiveInt
    max_view_button: PositiveInt
    max_input_label: PositiveInt
    max_private_metadata: PositiveInt
    max_choice_buttons: PositiveInt
    max_capacity_models: PositiveInt
    max_examples: PositiveInt


def load_limits(path: Path) -> SlackLimits:
    return load_toml(path, SlackLimits)


@cache
def limits() -> SlackLimits:
    return load_limits(default_data_dir() / "slack.toml")
