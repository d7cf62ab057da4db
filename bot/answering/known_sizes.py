"""Finding the size of a model the table lacks in data/known_models.toml, by the parts its
names read into (as stand-ins are found): `microsoft/phi-4`, `phi4:14b` and `Phi-4` are one."""

from __future__ import annotations

from collections.abc import Callable

from mincards.bot.answering.stand_in import NameIndex
from mincards.bot.facts.known_models import KnownModel, KnownModels
from mincards.bot.reading.names import Mention


class KnownSizeFinder(NameIndex[KnownModel]):
    def __init__(self, known: KnownModels, read: Callable[[str], list[Mention]]) -> None:
        super().__init__(list(known), read)
