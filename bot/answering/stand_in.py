"""Finding the table model that stands in for a model the table does not list by name.

Two kinds, both kept honest in the answer:
- same architecture (data/stand_ins.toml): another model with a table model's layers, widths and
  vocabulary. The asked model stays "not in the table"; the table model's entries come with it
  as the closest reference.
- quantized copy (vocabulary [quantized]): the table model itself stored in fewer bits. It is
  answered as the table model, saying the numbers are for the full-precision weights.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Generic, Literal, Protocol, TypeVar

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


class Named(Protocol):
    """Something people name: its display name and the other names they write."""

    @property
    def display(self) -> str: ...

    @property
    def names(self) -> tuple[str, ...]: ...


N = TypeVar("N", bound=Named)


class NameIndex(Generic[N]):
    """Items found by the parts their names read into (`read` reads a name as a question's
    name is read: normalised, then the names pass), so `Qwen/Qwen2.5-Coder-32B-Instruct` and
    `qwen 2.5 coder 32b` find the same item."""

    def __init__(self, items: Iterable[N], read: Callable[[str], list[Mention]]) -> None:
        self._items = items
        self._read = read

    @cached_property
    def _by_name(self) -> dict[tuple[Signature, str | None], N]:
        """By signature and dated release (None: a name without a date; Qwen3-4B-Instruct-2507
        is found only with its 2507). Built on the first name the table lacks: most processes
        never need it."""
        out: dict[tuple[Signature, str | None], N] = {}
        for item in self._items:
            for name in (item.display, *item.names):
                named = [m for m in self._read(name) if m.named]
                if len(named) == 1:
                    out.setdefault((signature(named[0]), named[0].release), item)
        return out

    def find(self, mention: Mention) -> N | None:
        return self.find_release(mention) or self._by_name.get((signature(mention), None))

    def find_release(self, mention: Mention) -> N | None:
        """The item for this very dated release, if the data names it."""
        if not mention.release:
            return None
        return self._by_name.get((signature(mention), mention.release))

    def __len__(self) -> int:
        return sum(1 for _, release in self._by_name if release is None)


class StandInFinder(NameIndex[StandIn]):
    """The stand-ins of the loaded data whose table model this version of the table lists."""

    def __init__(self, stand_ins: StandIns, present: frozenset[str],
                 read: Callable[[str], list[Mention]]) -> None:
        super().__init__([s for s in stand_ins if s.model in present], read)
