"""Finding the table model that stands in for a model the table does not list by name.

Two kinds, both kept honest in the answer:
- same architecture (data/stand_ins.toml): another model with a table model's layers, widths and
  vocabulary. The asked model stays "not in the table"; the table model's entries come with it
  as the closest reference.
- quantized copy (vocabulary [quantized]): the table model itself stored in fewer bits. It is
  answered as the table model, saying the numbers are for the full-precision weights.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from mincards.bot.facts.stand_ins import StandIn, StandIns
from mincards.bot.facts.table import Entry
from mincards.bot.reading.names import Mention

Relation = Literal["same_architecture", "quantized_copy"]
Signature = tuple[object, ...]


@dataclass(frozen=True)
class StandInUse:
    """How an answer stands in for the model asked: which table model, why, and (for a model of
    the same architecture, which is not itself in the table) that model's entries."""

    asked: str  # the asked model's display name
    model: str  # the table model's key
    relation: Relation
    source: str
    rows: tuple[Entry, ...] = ()
    # The asked model's own context window, when shorter than the table's lengths.
    context: int | None = None
    # A quantized copy's words and tags as read (awq, q4_k_m).
    quantized: tuple[str, ...] = ()


def signature(mention: Mention) -> Signature:
    """What makes a name this model and no other (its packaging suffixes aside)."""
    return (mention.family, mention.other_family, frozenset(mention.versions),
            frozenset(mention.variants), tuple(sorted(mention.distinct)), mention.size,
            mention.active)


class StandInFinder:
    """The stand-ins of the loaded data, by the parts their names read into; `read` reads a
    name as a question's name is read (normalised, then the names pass)."""

    def __init__(self, stand_ins: StandIns, present: frozenset[str],
                 read: Callable[[str], list[Mention]]) -> None:
        self._stand_ins = stand_ins
        self._present = present
        self._read = read

    @cached_property
    def _by_signature(self) -> dict[Signature, StandIn]:
        """Built on the first name the table lacks: most processes never need it."""
        out: dict[Signature, StandIn] = {}
        for item in self._stand_ins:
            if item.model not in self._present:
                continue  # this version of the table lacks the model it stands on
            for name in (item.display, *item.names):
                named = [m for m in self._read(name) if m.named]
                if len(named) == 1:
                    out.setdefault(signature(named[0]), item)
        return out

    def find(self, mention: Mention) -> StandIn | None:
        return self._by_signature.get(signature(mention))

    def __len__(self) -> int:
        return len(self._by_signature)
