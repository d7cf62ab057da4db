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

# How far past the fitted sizes an estimate may go before it is called an extrapolation.
EXTRAPOLATION_MARGIN = 1.25
# Up to this many times the longest length the table lists, a length past the table is an
# estimate; beyond it, an extrapolation that commits to no verdict.
MEASURABLE_TIMES = 4


@dataclass(frozen=True)
class EstimateCell:
    framework: str
    flavour: str
    strategy: str
    seq_len: int
    count: int        # in the flavour's unit (cards, or DIE)
    unit: str
    high: int         # the range's top: as many steps more as held-out models needed

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
    # Whether `validation` held each model out of the choice of terms as well as the fit.
    nested: bool = False
    # Per framework, the smallest and largest model its fits were made on (billions).
    fitted_sizes: tuple[tuple[str, float, float], ...] = ()
    # A table model at a length past its rows: the longest length listed, grown from (0: an
    # estimate from a shape), and each framework and strategy's growth per doubling.
    lengthened_from: int = 0
    growth: tuple[tuple[str, str, float], ...] = ()

    @property
    def beyond(self) -> tuple[tuple[str, float, float], ...]:
        """The frameworks whose fitted sizes this model is outside of by more than a quarter:
        there no held-out model was, and the estimate is an extrapolation."""
        size = self.shape.params_b
        return tuple((fw, low, high) for fw, low, high in self.fitted_sizes
                     if size > high * EXTRAPOLATION_MARGIN or size < low / EXTRAPOLATION_MARGIN)

    @property
    def too_long(self) -> bool:
        """A length more than MEASURABLE_TIMES the longest the table lists."""
        return bool(self.lengthened_from) and any(
            c.seq_len > self.lengthened_from * MEASURABLE_TIMES for c in self.cells)

    @property
    def extrapolated(self) -> bool:
        return bool(self.beyond) or self.too_long


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
                    # The range's top: as far over as held-out models were under.
                    v = group.validation
                    high = count * (4 if v.under_more else 2 if v.under_one else 1)
                    cells.append(EstimateCell(group.framework, flavour, group.strategy,
                                              seq_len, count, display, high))
        covered = {c.framework for c in cells}
        ranges: dict[str, tuple[float, float]] = {}
        for g in self.calibration.groups:
            if shape.kind in g.kinds and g.sizes[1] > 0 and g.framework in covered:
                smallest, largest = ranges.get(g.framework, g.sizes)
                ranges[g.framework] = (min(smallest, g.sizes[0]), max(largest, g.sizes[1]))
        sizes = tuple((fw, smallest, largest) for fw, (smallest, largest) in ranges.items())
        return Estimate(shape, tuple(cells), self.calibration.validation,
                        tuple((fw, kind) for fw, kind in uncovered if fw not in covered),
                        self.calibration.page_date, self.calibration.nested, sizes)


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
