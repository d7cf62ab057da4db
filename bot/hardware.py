"""The flavours (Snt9B, Snt9B23) and frameworks the table counts for, from data/hardware.toml."""

from __future__ import annotations

import math
from pathlib import Path

from pydantic import BaseModel, ConfigDict, PositiveInt

from bot.datafiles import load_toml
from bot.errors import DataError
from bot.table import Flavour, Framework


class FlavourInfo(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    display: str
    chip: str
    unit: str
    per_node: PositiveInt
    die_per_card: PositiveInt | None = None
    min_parallel_unit: PositiveInt | None = None
    advise_node_below: PositiveInt | None = None

    def nodes(self, count: int) -> int:
        return math.ceil(count / self.per_node)

    def cards(self, count: int) -> int:
        """Physical cards for a count in this flavour's unit."""
        return math.ceil(count / self.die_per_card) if self.die_per_card else count


class FrameworkInfo(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    display: str


class Hardware(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    flavours: dict[Flavour, FlavourInfo]
    frameworks: dict[Framework, FrameworkInfo]


def load_hardware(path: Path) -> Hardware:
    hardware = load_toml(path, Hardware)
    missing = {"snt9b", "snt9b23"} - set(hardware.flavours)
    missing |= {"mindspeed_llm", "llama_factory"} - set(hardware.frameworks)
    if missing:
        raise DataError(path, f"missing sections for {sorted(missing)}")
    return hardware
