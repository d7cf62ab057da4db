"""Which of several models needs fewer cards, entry by entry and flavour by flavour.

Snt9B counts cards and Snt9B23 counts DIE: different hardware, so each flavour is compared on its
own, never one against the other.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from mincards.bot.facts.suspects import Cell
from mincards.bot.facts.table import Entry, Table


@dataclass(frozen=True)
class Fewest:
    """A model's fewest count for one entry on one flavour, and the frameworks that get there."""

    count: int | None
    frameworks: tuple[str, ...]


@dataclass(frozen=True)
class Side:
    strategy: str
    seq_len: int
    flavour: str
    fewest: dict[str, Fewest]  # model -> its fewest, for the models that list this entry
    fewer: tuple[str, ...]  # the models needing the fewest; all of them when equal

    @property
    def tie(self) -> bool:
        return len(self.fewer) == len(self.fewest)


def fewest(entry: Entry, flavour: str, frameworks: Iterable[str],
           suspects: Collection[Cell] = frozenset()) -> Fewest:
    """The entry's fewest count on a flavour over the frameworks; a count the table makes
    suspect (facts/suspects) is never it."""
    counts = [(c, fw) for fw in frameworks if (c := entry.count(fw, flavour)) is not None
              and (entry.model, entry.strategy, entry.seq_len, fw, flavour) not in suspects]
    if not counts:
        return Fewest(None, ())
    low = min(c for c, _ in counts)
    return Fewest(low, tuple(fw for c, fw in counts if c == low))


def compare(table: Table, models: tuple[str, ...], rows: Iterable[Entry],
            frameworks: Iterable[str] = (), flavours: Iterable[str] = (),
            suspects: Collection[Cell] = frozenset()) -> list[Side]:
    """For each (strategy, length) two or more compared models list, on each flavour: who
    needs fewer among them (a model without the entry is left out of that side, and said)."""
    frameworks = tuple(frameworks) or table.framework_ids
    flavours = tuple(flavours) or table.flavours
    by_key: dict[tuple[str, int], dict[str, Entry]] = {}
    for e in rows:
        by_key.setdefault((e.strategy, e.seq_len), {})[e.model] = e
    out: list[Side] = []
    for (strategy, seq_len), entries in by_key.items():
        here = [m for m in models if m in entries]
        if len(here) < 2:
            continue
        for flavour in flavours:
            low = {m: fewest(entries[m], flavour, frameworks, suspects) for m in here}
            known = [f.count for f in low.values() if f.count is not None]
            if not known:
                continue
            best = min(known)
            out.append(Side(strategy, seq_len, flavour, low,
                            tuple(m for m in here if low[m].count == best)))
    return out
