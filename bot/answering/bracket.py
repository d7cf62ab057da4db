"""A model the table lacks, shown between the table's nearest smaller and larger models of its
own kind: two table entries to read, never a number made up between them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from mincards.bot.facts.catalogue import ModelInfo
from mincards.bot.facts.sizes import size_value
from mincards.bot.facts.table import Entry


@dataclass(frozen=True)
class Neighbour:
    """One side of a bracket: a table model and its entries under the question's filters."""

    model: str
    size_b: float
    rows: tuple[Entry, ...]


@dataclass(frozen=True)
class Bracket:
    size_b: float
    kind: str
    below: Neighbour | None
    above: Neighbour | None


def _sides(pool: list[ModelInfo], size: float) -> tuple[ModelInfo | None, ModelInfo | None]:
    """(the largest smaller, the smallest larger); ties go to the first in table order."""
    below = above = None
    for info in pool:
        value = size_value(info.size)
        if value < size and (below is None or value > size_value(below.size)):
            below = info
        if value > size and (above is None or value < size_value(above.size)):
            above = info
    return below, above


def bracket(models: Iterable[ModelInfo], *, size: float, kind: str, family: str | None,
            versions: frozenset[str], rows: Callable[[str], tuple[Entry, ...]]
            ) -> Bracket | None:
    """The neighbours of a `size` (billions) among `models` (the table's, in table order) of
    `kind`: within the asked family and version when it has models on both sides, else within
    the family, else over the whole kind."""
    if size <= 0:
        return None
    same_kind = [i for i in models if i.kind == kind]
    scopes = []
    if family and versions:
        scopes.append([i for i in same_kind if i.family == family and versions & set(i.versions)])
    if family:
        scopes.append([i for i in same_kind if i.family == family])
    chosen = None
    for pool in scopes:
        below, above = _sides(pool, size)
        if below and above:
            chosen = below, above
            break
    below, above = chosen or _sides(same_kind, size)
    if below is None and above is None:
        return None

    def side(info: ModelInfo | None) -> Neighbour | None:
        if info is None:
            return None
        return Neighbour(info.key, size_value(info.size), rows(info.key))

    return Bracket(size_b=size, kind=kind, below=side(below), above=side(above))
