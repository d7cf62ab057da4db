"""Fitting the estimator to the table: for each framework and strategy, bytes per parameter
(and a multiplier per surviving extra term) such that the fewest units holding
`bytes_per_param × parameters × multipliers` in a unit's memory, rounded up to a power of two
(the sizes parallel jobs take) and never below the flavour's smallest unit, match the table's
counts as often as possible, erring over rather than under.

The fit is exact for its objective: the count of every observation is a step function of
log2(bytes per parameter), so the objective is constant between breakpoints; a sweep over the
sorted breakpoints finds the best stretch, and the fit takes its middle.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from mincards.bot.estimating.observations import Observation, Unit
from mincards.bot.estimating.shape import Shape

# What a miss costs the fit, by steps (powers of two) and direction: too few cards fails the
# job, so under costs more than over, and two steps under costs most of all. Set from the
# nested held-out check on the 2025-06-24 table (a coarse grid, docs/beyond-the-table.md):
# under-by-one at 3 (not 1.5) halved the cells under and raised the share exact.
COST_OVER_ONE = 1.0
COST_UNDER_ONE = 3.0
COST_OVER_MORE = 6.0
COST_UNDER_MORE = 30.0
# Multipliers an extra term may take (1: the term does nothing), tried in this order.
FACTORS = (1.0, 1.5, 2.0, 3.0, 4.0)
# Per doubling of size: 2 ** (±k / 4), bytes per parameter falling or rising with size.
SIZE_FACTORS = (1.0, 0.84, 0.71, 0.59, 0.5, 1.19, 1.41)
# How far from the table's counts the sweep looks, in steps (beyond, the cost is constant).
REACH = 4


def _moe(shape: Shape, seq_len: int, shortest: int) -> float:
    return 1.0 if shape.moe else 0.0


def _vision(shape: Shape, seq_len: int, shortest: int) -> float:
    return 1.0 if shape.vision else 0.0


def _long(shape: Shape, seq_len: int, shortest: int) -> float:
    return max(0.0, math.log2(seq_len / shortest))


def _size(shape: Shape, seq_len: int, shortest: int) -> float:
    return math.log2(shape.params_b / SIZE_REFERENCE_B)


# The size the "size" term pivots on: a multiplier of 1 at this many billion parameters.
SIZE_REFERENCE_B = 8.0


# Extra terms the fit may keep: each is how many times its multiplier applies.
TERMS: dict[str, Callable[[Shape, int, int], float]] = {
    "moe": _moe,          # a mixture of experts against a dense model of the same total size
    "vision": _vision,    # a model that reads images (its vision tower, its longer inputs)
    "long": _long,        # each doubling of the sequence length over the group's shortest
    "size": _size,        # each doubling of size: bytes per parameter that change with size
}
TERM_FACTORS: dict[str, tuple[float, ...]] = {"size": SIZE_FACTORS}


def power_of_two_at_least(need: float) -> int:
    return 1 if need <= 1 else 2 ** math.ceil(math.log2(need) - 1e-9)


def units_for(need: float, unit: Unit) -> int:
    return max(unit.smallest, power_of_two_at_least(need))


def steps(predicted: int, listed: int) -> float:
    """How far a prediction is from the table, in powers of two (+ over, - under)."""
    return math.log2(predicted / listed)


def cost(step: float) -> float:
    if abs(step) < 1e-9:
        return 0.0
    if abs(step) <= 1 + 1e-9:
        return COST_OVER_ONE if step > 0 else COST_UNDER_ONE
    return COST_OVER_MORE if step > 0 else COST_UNDER_MORE


@dataclass(frozen=True)
class Coefficients:
    bytes_per_param: float
    factors: tuple[tuple[str, float], ...] = ()

    def need(self, shape: Shape, seq_len: int, shortest: int, unit: Unit) -> float:
        """Units of memory the training state takes (before rounding)."""
        multiplier = 1.0
        for term, factor in self.factors:
            multiplier *= factor ** TERMS[term](shape, seq_len, shortest)
        return self.bytes_per_param * shape.params_b * multiplier / unit.memory_gb

    def count(self, shape: Shape, seq_len: int, shortest: int, unit: Unit) -> int:
        return units_for(self.need(shape, seq_len, shortest, unit), unit)


def _best_log_scale(points: Sequence[tuple[float, float, float]]) -> tuple[float, float]:
    """(log2 of the best scale, its cost) for observations given as (log2 of the need at scale
    1, log2 of the listed count, log2 of the smallest unit): the middle of the widest cheapest
    stretch, found by a sweep over every place where a predicted count changes."""
    # The cost of each predicted log2 count k, per (t, u): the prediction is ceil(A + z) and
    # never below u. Only a few (t, u) pairs occur, and outside a short window of k the cost is
    # constant, so each pair's costs are a small list worked out once.
    tables: dict[tuple[float, float], tuple[int, list[float]]] = {}
    low = min(t - z for z, t, _ in points) - REACH
    high = max(t - z for z, t, _ in points) + REACH
    total = 0.0
    events: list[tuple[float, float]] = []
    for z, t, u in points:
        table = tables.get((t, u))
        if table is None:
            first = math.floor(min(t, u)) - REACH
            table = tables[(t, u)] = (first, [cost(max(u, k) - t) for k in range(
                first, math.ceil(max(t, u)) + REACH + 1)])
        first, costs = table
        top = len(costs) - 1
        k = math.ceil(low + z - 1e-9)
        here = costs[min(max(k - first, 0), top)]
        total += here
        # At A = k - z the prediction moves from k to k + 1; outside the table's window a move
        # changes nothing: no event.
        k = max(k, first)
        last = min(math.ceil(high + z), first + top - 1)
        here = costs[min(max(k - first, 0), top)]
        while k <= last and k - z < high:
            after = costs[k + 1 - first]
            if after != here:
                events.append((k - z, after - here))
            here = after
            k += 1
    events.sort()
    best = (total, low, events[0][0] if events else high)
    for i, (where, change) in enumerate(events):
        total += change
        end = events[i + 1][0] if i + 1 < len(events) else high
        if end <= where:
            continue
        if total < best[0] - 1e-9 or (abs(total - best[0]) < 1e-9
                                      and end - where > best[2] - best[1]):
            best = (total, where, end)
    return (best[1] + best[2]) / 2, best[0]


@dataclass(frozen=True)
class Sample:
    observation: Observation
    unit: Unit
    shortest: int  # the group's shortest listed length


def fit_group(samples: Sequence[Sample], terms: Iterable[str]) -> tuple[Coefficients, float]:
    """The best coefficients for one framework and strategy, and their cost on `samples`.
    Multipliers are tried from 1 up, so a term that does not help stays at 1."""
    names = tuple(terms)
    best: tuple[Coefficients, float] | None = None
    # log2 of each sample's need at scale 1 is log2(params / memory) plus, per term, how often
    # it applies times log2 of its multiplier: the parts that do not change are made once.
    parts = [(math.log2(s.observation.shape.params_b / s.unit.memory_gb),
              tuple(TERMS[n](s.observation.shape, s.observation.seq_len, s.shortest)
                    for n in names),
              _log2(s.observation.count), _log2(s.unit.smallest)) for s in samples]
    for combo in itertools.product(*(TERM_FACTORS.get(n, FACTORS) for n in names)):
        logs = [math.log2(f) for f in combo]
        points = [(base + sum(e * f for e, f in zip(applies, logs, strict=True)), t, u)
                  for base, applies, t, u in parts]
        scale, spent = _best_log_scale(points)
        if best is None or spent < best[1] - 1e-9:
            best = (Coefficients(2 ** scale, tuple(zip(names, combo, strict=True))), spent)
    assert best is not None
    return best


def _log2(count: int) -> float:
    """log2 of a count, exact for a power of two (so that a match is exactly 0 steps)."""
    return float(count.bit_length() - 1) if count & (count - 1) == 0 else math.log2(count)
