"""Estimates for a model's shape from the calibration in use, with a range and the method's
held-out error: never the table's numbers, and never for a model the table lists."""

from __future__ import annotations

from dataclasses import dataclass

from mincards.bot.estimating.calibrate import calibrate
from mincards.bot.estimating.fit import Coefficients
from mincards.bot.estimating.observations import inputs_digest, observations, units
from mincards.bot.estimating.shape import Shape
from mincards.bot.facts.calibration import Calibration, Tally
from mincards.bot.facts.knowledge import Knowledge


@dataclass(frozen=True)
class EstimateCell:
    framework: str
    flavour: str
    strategy: str
    seq_len: int
    count: int        # in the flavour's unit (cards, or DIE)
    unit: str
    high: int         # the range's top: one step more where held-out models needed it

    def as_json(self) -> dict[str, object]:
        return {"framework": self.framework.replace("_", "-"), "flavour": self.flavour,
                "strategy": self.strategy, "seq_len": self.seq_len, "count": self.count,
                "unit": self.unit, "range": [self.count, self.high]}


@dataclass(frozen=True)
class Estimate:
    shape: Shape
    cells: tuple[EstimateCell, ...]
    validation: Tally
    # Frameworks the table has no model of this kind on: (framework, kind).
    uncovered: tuple[tuple[str, str], ...] = ()
    calibrated_on: str = ""  # the date of the page it was fitted to


class Estimator:
    def __init__(self, knowledge: Knowledge, calibration: Calibration) -> None:
        self.knowledge = knowledge
        self.calibration = calibration
        self._units = units(knowledge)

    def estimate(self, shape: Shape) -> Estimate:
        cells: list[EstimateCell] = []
        uncovered: list[tuple[str, str]] = []
        for group in self.calibration.groups:
            if shape.kind not in group.kinds:
                if (group.framework, shape.kind) not in uncovered:
                    uncovered.append((group.framework, shape.kind))
                continue
            coefficients = Coefficients(group.bytes_per_param, tuple(group.factors.items()))
            shortest = min(group.seq_lens) if group.seq_lens else 0
            for flavour in group.flavours:
                unit = self._units.get(flavour)
                if unit is None:
                    continue
                display = self.knowledge.hardware.flavours[flavour].unit
                for seq_len in group.kind_lengths.get(shape.kind, group.seq_lens):
                    count = coefficients.count(shape, seq_len, shortest, unit)
                    high = count * 2 if group.validation.under_one else count
                    cells.append(EstimateCell(group.framework, flavour, group.strategy,
                                              seq_len, count, display, high))
        covered = {c.framework for c in cells}
        return Estimate(shape, tuple(cells), self.calibration.validation,
                        tuple((fw, kind) for fw, kind in uncovered if fw not in covered),
                        self.calibration.page_date)


def stored_if_current(knowledge: Knowledge) -> Calibration | None:
    """The stored calibration when it was made from these very facts, else None."""
    stored = knowledge.calibration
    if stored is None:
        return None
    found, _ = observations(knowledge)
    return stored if stored.inputs == inputs_digest(found, knowledge) else None


def current_calibration(knowledge: Knowledge) -> Calibration:
    """The stored calibration when it was made from these very facts; else one fitted now
    (with the stored terms when there are any, which is quick)."""
    current = stored_if_current(knowledge)
    if current is not None:
        return current
    stored = knowledge.calibration
    terms = ({g.key: tuple(g.factors) for g in stored.groups} if stored is not None else None)
    return calibrate(knowledge, terms)


def estimator(knowledge: Knowledge) -> Estimator:
    """The estimator for these facts, made once per load of them."""
    return knowledge.memoized(("estimator",),
                              lambda: Estimator(knowledge, current_calibration(knowledge)))
