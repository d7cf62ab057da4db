"""The table's counts as observations for the fit: each cell with its model's shape and the
memory of its flavour's unit."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from mincards.bot.estimating.shape import Shape, of_table_model
from mincards.bot.facts.knowledge import Knowledge


@dataclass(frozen=True)
class Unit:
    """A flavour's unit, as the estimator fills it."""

    memory_gb: float
    smallest: int  # the fewest a parallel job uses (2 DIE on Snt9B23, else 1)


@dataclass(frozen=True)
class Observation:
    model: str
    family: str     # the catalogue's family, versions and kind: who a "family run" is among
    strategy: str
    seq_len: int
    framework: str
    flavour: str
    count: int
    shape: Shape

    @property
    def group(self) -> tuple[str, str]:
        return self.framework, self.strategy

    @property
    def row(self) -> tuple[str, str, int, str]:
        return self.model, self.strategy, self.seq_len, self.framework

    @property
    def label(self) -> str:
        return f"{self.model} · {self.strategy} · {self.seq_len} · {self.framework}.{self.flavour}"


def units(knowledge: Knowledge) -> dict[str, Unit]:
    """The flavours the estimator can fill: those whose unit's memory hardware.toml gives."""
    return {fl: Unit(info.memory_gb, info.min_parallel_unit or 1)
            for fl, info in knowledge.hardware.flavours.items() if info.memory_gb}


def observations(knowledge: Knowledge) -> tuple[list[Observation], list[str]]:
    """(every count of a model with a shape on a flavour with a memory, the table's models
    without a shape in the catalogue)."""
    filled = units(knowledge)
    out: list[Observation] = []
    shapeless: list[str] = []
    for model in knowledge.table.models():
        info = knowledge.catalogue.models[model]
        shape = of_table_model(info)
        if shape is None:
            shapeless.append(model)
            continue
        family = "/".join((info.family, *info.versions, info.kind))
        for entry in knowledge.table.entries_for(model):
            for framework, flavour in knowledge.table.columns():
                count = entry.count(framework, flavour)
                if count is not None and count > 0 and flavour in filled:
                    out.append(Observation(model, family, entry.strategy, entry.seq_len,
                                           framework, flavour, count, shape))
    return out, shapeless


def inputs_digest(found: list[Observation], knowledge: Knowledge) -> str:
    """What a fit reads, as a digest: the counts, the shapes and the units' memory."""
    digest = hashlib.sha256()
    for o in sorted(found, key=lambda o: (o.label, o.count)):
        s = o.shape
        digest.update(f"{o.label}={o.count}:{s.params_b}:{s.active_b}:{s.vision}:"
                      f"{o.family}\n".encode())
    for flavour, unit in sorted(units(knowledge).items()):
        digest.update(f"{flavour}:{unit.memory_gb}:{unit.smallest}\n".encode())
    return digest.hexdigest()[:16]
