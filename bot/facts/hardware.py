"""The hardware flavours the table counts for (Snt9B, Snt9B23, ...), from data/hardware.toml."""

from __future__ import annotations

import math
from pathlib import Path

from pydantic import BaseModel, ConfigDict, PositiveInt

from mincards.bot.facts.datafiles import load_toml


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
    flavours: dict[str, FlavourInfo]
    # The first data format named the frameworks here; the table names them now. Still read,
    # so that a data folder in that format keeps its framework names.
    frameworks: dict[str, FrameworkInfo] = {}


def load_hardware(path: Path) -> Hardware:
    return load_toml(path, Hardware)
