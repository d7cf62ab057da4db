"""Slack's Block Kit limits, from data/slack.toml."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, PositiveInt, ValidationError

from bot.errors import DataError
from bot.knowledge import default_data_dir


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
    max_choice_buttons: PositiveInt


def load_limits(path: Path) -> SlackLimits:
    try:
        return SlackLimits.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DataError(path, f"cannot read: {exc}") from None
    except ValidationError as exc:
        err = exc.errors()[0]
        raise DataError(path, err["msg"], field=".".join(str(p) for p in err["loc"])) from None


@cache
def limits() -> SlackLimits:
    return load_limits(default_data_dir() / "slack.toml")
