"""A length past the table, estimated from the model's own longest row: the table's count
there, times the calibration's growth per doubling of the sequence length (fitted on the
table's own steps between lengths). Never the table's number; past a few doublings, an
extrapolation no held-out check can measure."""

from __future__ import annotations

import math
from collections.abc import Iterable

from mincards.bot.estimating.estimate import Estimate, EstimateCell, estimator
from mincards.bot.estimating.fit import units_for
from mincards.bot.estimating.observations import units
from mincards.bot.estimating.shape import Shape
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.facts.table import Entry


def lengthened(knowledge: Knowledge, shape: Shape, longest: Iterable[Entry], asked: int,
               frameworks: Iterable[str] = (), flavours: Iterable[str] = ()) -> Estimate | None:
    """An estimate at `asked` tokens from each strategy's longest row (`longest`, each shorter
    than `asked`); None when no row has a count to grow from."""
    calibration = estimator(knowledge).calibration
    filled = units(knowledge)
    wanted_fw, wanted_fl = set(frameworks), set(flavours)
    cells: list[EstimateCell] = []
    start = 0
    for entry in longest:
        start = max(start, entry.seq_len)
        doublings = math.log2(asked / entry.seq_len)
        for framework, counts in entry.counts.items():
            group = calibration.group(framework, entry.strategy)
            if group is None or (wanted_fw and framework not in wanted_fw):
                continue
            for flavour, count in counts.items():
                unit = filled.get(flavour)
                if count is None or unit is None or (wanted_fl and flavour not in wanted_fl):
                    continue
                grown = units_for(count * group.per_doubling ** doublings, unit)
                display = knowledge.hardware.flavours[flavour].unit
                cells.append(EstimateCell(framework, flavour, entry.strategy, asked,
                                          max(grown, count), display, max(grown, count) * 2))
    if not cells:
        return None
    return Estimate(shape, tuple(cells), calibration.validation,
                    calibrated_on=calibration.page_date, nested=calibration.nested,
                    lengthened_from=start,
                    growth=tuple((g.framework, g.strategy, g.per_doubling)
                                 for g in calibration.groups))

