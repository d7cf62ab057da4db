"""A model the table lacks, shown beside the table's models of its own kind (text, vision,
mixture-of-experts by total size): those of the same size when the table has some, else the
nearest smaller and larger. Table entries to read, never a number made up between them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from mincards.bot.facts.catalogue import ModelInfo
from mincards.bot.facts.sizes import size_value
from mincards.bot.facts.table import Entry

# Sizes within this share of each other are the same size: Mistral-7B's 7.24B is a 7B, Phi-4's
# 14.7B a 14B; Llama-3.1-8B is not a 7B.
SAME_SIZE = 0.05
# At most this many same-size models are shown (the table has two 7B text models, say).
MAX_SAME = 3


@dataclass(frozen=True)
class Neighbour:
    """A table model beside the asked one, and its entries under the question's filters."""

    model: str
    size_b: float
    rows: tuple[Entry, ...]


@dataclass(frozen=True)
class Size:
    """The asked model's size, its kind, and where they come from (its known sizes, or its
    name)."""

    params_b: float
    kind: str
    source: str
    active_b: float | None = None


@dataclass(frozen=True)
class Bracket:
    size_b: float
    kind: str
    below: Neighbour | None
    above: Neighbour | None
    # The table's models of the same size, said first; below and above are then left out.
    same: tuple[Neighbour, ...] = ()
    size: Size | None = None


def _same(value: float, size: float) -> bool:
    return abs(value - size) <= SAME_SIZE * max(value, size)


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


def bracket(models: Iterable[ModelInfo], *, size: Size, family: str | None,
            versions: frozenset[str], rows: Callable[[str], tuple[Entry, ...]]
            ) -> Bracket | None:
    """The table's models (`models`, in table order) beside `size`, of its kind: the asked
    family and version when it has them, else the family, else the whole kind. The same size
    first; else the nearest smaller and larger, in the narrowest scope with both."""
    value = size.params_b
    if value <= 0:
        return None
    same_kind = [i for i in models if i.kind == size.kind]
    scopes = []
    if family and versions:
        scopes.append([i for i in same_kind if i.family == family and versions & set(i.versions)])
    if family:
        scopes.append([i for i in same_kind if i.family == family])
    scopes.append(same_kind)

    def side(info: ModelInfo | None) -> Neighbour | None:
        if info is None:
            return None
        return Neighbour(info.key, size_value(info.size), rows(info.key))

    for pool in scopes:
        same = [i for i in pool if _same(size_value(i.size), value)]
        if same:
            return Bracket(size_b=value, kind=size.kind, below=None, above=None,
                           same=tuple(n for i in same[:MAX_SAME] if (n := side(i))),
                           size=size)
    chosen = None
    for pool in scopes[:-1]:
        below, above = _sides(pool, value)
        if below and above:
            chosen = below, above
            break
    below, above = chosen or _sides(same_kind, value)
    if below is None and above is None:
        return None
    return Bracket(size_b=value, kind=size.kind, below=side(below), above=side(above),
                   size=size)
