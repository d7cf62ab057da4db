"""What a budget gives on each flavour, and whether an entry fits in it.

Cards are physical cards: N cards are N on a flavour counted in cards and N x die_per_card DIE on
one counted in DIE. N DIE count only on flavours counted in DIE. N nodes are N x per_node on
each flavour. N*Ascend, as the page writes counts, is N in each flavour's own unit. A flavour
the question names narrows the budget to it. An entry fits when its
count, raised to the flavour's smallest parallel unit (1 DIE is 2 in practice), is within.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from mincards.bot.facts.hardware import FlavourInfo, Hardware
from mincards.bot.facts.table import Entry, Table
from mincards.bot.reading.asked import Budget

Fits = dict[str, dict[str, bool | None]]  # framework -> flavour -> fits (None: not supported)


def capacity(budget: Budget, hardware: Hardware, flavours: Iterable[str]) -> dict[str, int]:
    """For each flavour the budget covers, how much it gives in that flavour's own unit."""
    out: dict[str, int] = {}
    for flavour in flavours:
        if budget.flavour and flavour != budget.flavour:
            continue
        info = hardware.flavours[flavour]
        # Cards, DIE and Ascend come whole; only a node may come in parts.
        if budget.unit == "card":
            out[flavour] = int(budget.count) * (info.die_per_card or 1)
        elif budget.unit == "die" and info.die_per_card:
            out[flavour] = int(budget.count)
        elif budget.unit == "node":
            # A part of a node is that share of its whole cards (half a Snt9B23 node: 4 cards,
            # 8 DIE), never half a card.
            per_card = info.die_per_card or 1
            out[flavour] = int(budget.count * (info.per_node // per_card)) * per_card
        elif budget.unit == "ascend":
            out[flavour] = int(budget.count)
    return out


def needed(count: int, info: FlavourInfo) -> int:
    """What an entry takes in practice: never less than the flavour's smallest parallel unit."""
    return max(count, info.min_parallel_unit or 1)


class Needs:
    """What every entry of a table takes on each framework and flavour, worked out once."""

    def __init__(self, table: Table, hardware: Hardware) -> None:
        self._needs = {e.key: {fw: {fl: None if (c := e.count(fw, fl)) is None
                                    else needed(c, hardware.flavours[fl])
                                    for fl in table.flavours}
                               for fw in table.framework_ids}
                       for e in table.entries}

    def fits(self, entry: Entry, room: Mapping[str, int]) -> Fits:
        """For every framework, whether the entry fits on each flavour the budget covers."""
        return {fw: {fl: None if (n := by[fl]) is None else n <= amount
                     for fl, amount in room.items()}
                for fw, by in self._needs[entry.key].items()}


def fits_anywhere(table_fits: Fits) -> bool:
    return any(v for by_flavour in table_fits.values() for v in by_flavour.values())
