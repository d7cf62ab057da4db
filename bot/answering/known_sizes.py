"""Finding the size of a model the table lacks in data/known_models.toml, by the parts its
names read into (as stand-ins are found): `microsoft/phi-4`, `phi4:14b` and `Phi-4` are one."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property

from mincards.bot.answering.stand_in import Signature, signature
from mincards.bot.facts.known_models import KnownModel, KnownModels
from mincards.bot.reading.names import Mention


class KnownSizeFinder:
    """`read` reads a name as a question's name is read (normalised, then the names pass)."""

    def __init__(self, known: KnownModels, read: Callable[[str], list[Mention]]) -> None:
        self._known = known
        self._read = read

    @cached_property
    def _by_signature(self) -> dict[Signature, KnownModel]:
        """Built on the first name the table lacks: most processes never need it."""
        out: dict[Signature, KnownModel] = {}
        for item in self._known:
            for name in (item.display, *item.names):
                named = [m for m in self._read(name) if m.named]
                if len(named) == 1:
                    out.setdefault(signature(named[0]), item)
        return out

    def find(self, mention: Mention) -> KnownModel | None:
        return self._by_signature.get(signature(mention))
