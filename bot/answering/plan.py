"""Training time and cluster size by the page's formula (later page versions; README "Plans").

    time (s)  = tokens / (TPS x count x efficiency)
    count     = ceil(tokens / (deadline (s) x TPS x efficiency)), then: above 8 up to a multiple
                of 8; up to the flavour's smallest parallel unit (2 DIE on Snt9B23); never below
                the table's minimum for the entry.

The page writes the linear speed-up ratio as a factor of the time; as an efficiency below 1 it
must lengthen the time, so it divides here. `count` is cards on Snt9B and DIE on Snt9B23; TPS is
per card = per DIE (the page counts one DIE as one Snt9B card). Arithmetic is exact (fractions),
so a count that comes out whole is not rounded up by a float's last bit.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mincards.bot.answering.budget import needed
from mincards.bot.facts.hardware import FlavourInfo
from mincards.bot.facts.suspects import Cell
from mincards.bot.facts.table import Entry

if TYPE_CHECKING:
    from fractions import Fraction

DEFAULT_EFFICIENCY = 0.9
# Above this many, a count from a deadline is rounded up to a multiple of it (whole nodes).
ROUND_ABOVE = 8


@dataclass(frozen=True)
class Minimum:
    """The fewest the table lists over the entries and frameworks planned for."""

    count: int
    framework: str
    strategy: str
    seq_len: int


@dataclass(frozen=True)
class FlavourPlan:
    flavour: str
    unit: str  # "card" or "die"
    count: int | None
    nodes: int | None
    hours: float | None  # at `count`; None when it cannot be worked out or is below the minimum
    minimum: Minimum | None
    tps: float | None
    from_deadline: bool = False
    raw_count: int | None = None  # from a deadline, before rounding and the minimum

    @property
    def below_minimum(self) -> bool:
        return bool(self.count is not None and self.minimum and self.count < self.minimum.count)


@dataclass(frozen=True)
class Plan:
    """What the formula gave; what it was asked with is the answer's `workload`."""

    tokens: int | None
    tps: float | None  # one figure for every flavour, when there is one
    tps_source: str | None  # "question" or "data"
    data_source: str | None  # who measured the TPS recorded in data/tps.toml
    efficiency: float
    flavours: tuple[FlavourPlan, ...]
    missing: tuple[str, ...]


def _exact(value: float | int) -> Fraction:
    from fractions import Fraction  # here: only a plan needs it, and most starts answer none

    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def hours_for(tokens: int, tps: float, count: int, efficiency: float) -> float:
    """Hours to train `tokens` on `count` cards (or DIE), to 2 decimals."""
    seconds = _exact(tokens) / (_exact(tps) * count * _exact(efficiency))
    # Rounded exactly (half to even), not through a float's binary approximation.
    return float(round(seconds / 3600, 2))


def raw_count(tokens: int, hours: float, tps: float, efficiency: float) -> int:
    """ceil(tokens / (hours x 3600 x TPS x efficiency)): the count before any rounding rule."""
    return max(1, math.ceil(_exact(tokens) / (_exact(hours) * 3600 * _exact(tps)
                                              * _exact(efficiency))))


def count_for(tokens: int, hours: float, tps: float, efficiency: float, unit: int = 1) -> int:
    """The count that trains `tokens` within `hours`: above 8 a multiple of 8, and a multiple of
    the flavour's smallest parallel `unit`."""
    n = raw_count(tokens, hours, tps, efficiency)
    if n > ROUND_ABOVE:
        n = -(-n // ROUND_ABOVE) * ROUND_ABOVE
    if n % unit:
        n += unit - n % unit
    return n


def minimum(rows: Iterable[Entry], frameworks: Sequence[str], flavour: FlavourInfo,
            flavour_id: str, suspects: Collection[Cell] = frozenset()) -> Minimum | None:
    """The fewest count over the rows and frameworks on a flavour, an entry below the
    flavour's smallest parallel unit counting as that unit (1 DIE as 2); ties in row then page
    order. A count the table makes suspect is never the minimum."""
    best: Minimum | None = None
    for entry in rows:
        for framework in frameworks:
            count = entry.count(framework, flavour_id)
            if count is None or (entry.model, entry.strategy, entry.seq_len, framework,
                                 flavour_id) in suspects:
                continue
            count = needed(count, flavour)
            if best is None or count < best.count:
                best = Minimum(count, framework, entry.strategy, entry.seq_len)
    return best
