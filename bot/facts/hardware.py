"""The hardware flavours the table counts for (Snt9B, Snt9B23, ...), from data/hardware.toml."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from mincards.bot.facts.datafiles import STRICT_KEYS, check_positive, load_toml


@dataclass(frozen=True)
class FlavourInfo:
    __pydantic_config__ = STRICT_KEYS
    display: str
    chip: str
    unit: str
    per_node: int
    # Memory of one unit (a card, or a DIE) in GB: what the estimator (bot/estimating) fills.
    memory_gb: float | None = None
    die_per_card: int | None = None
    min_parallel_unit: int | None = None
    advise_node_below: int | None = None

    def __post_init__(self) -> None:
        check_positive(self, "per_node", "memory_gb", "die_per_card", "min_parallel_unit",
                       "advise_node_below")

    def nodes(self, count: int) -> int:
        return math.ceil(count / self.per_node)

    def cards(self, count: int) -> int:
        """Physical cards for a count in this flavour's unit."""
        return math.ceil(count / self.die_per_card) if self.die_per_card else count


@dataclass(frozen=True)
class FrameworkInfo:
    __pydantic_config__ = STRICT_KEYS
    display: str


@dataclass(frozen=True)
class Hardware:
    __pydantic_config__ = STRICT_KEYS
    flavours: dict[str, FlavourInfo]
    # The first data format named the frameworks here; the table names them now. Still read,
    # so that a data folder in that format keeps its framework names.
    frameworks: dict[str, FrameworkInfo] = field(default_factory=dict)


def load_hardware(path: Path) -> Hardware:
    return load_toml(path, Hardware)
