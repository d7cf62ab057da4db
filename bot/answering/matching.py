"""Matching read model names to table models exactly, and suggesting the nearest when none fits.

Version, size and variant must be equal: a mention that differs in any of them fits no model.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass
from functools import cached_property

from rapidfuzz import fuzz

from mincards.bot.facts.catalogue import Catalogue, ModelInfo
from mincards.bot.facts.sizes import size_value
from mincards.bot.facts.vocabulary import Vocabulary
from mincards.bot.reading.names import Mention

# A family outside the table is offered a table family's models only when the names look alike.
_MIN_LOOK_ALIKE = 70
# A model suggested for a sized name is at most this many times larger or smaller.
_NEAR_SIZE = 10


@dataclass(frozen=True)
class Match:
    """The table models a mention fits, and what the person left out."""

    models: tuple[ModelInfo, ...]
    assumed: tuple[str, ...] = ()


def _newest_first(info: ModelInfo) -> float:
    numbers = [float(v) for v in info.versions if v.replace(".", "", 1).isdigit()]
    return -max(numbers, default=0.0)


class Matcher:
    """Fits mentions to the models of the loaded table (`present`: its model keys; None: every
    catalogue model). Catalogue models the table lacks are only ever named as such."""

    def __init__(self, vocabulary: Vocabulary, catalogue: Catalogue,
                 present: Collection[str] | None = None) -> None:
        self.catalogue = catalogue
        keys = set(catalogue.models if present is None else present)
        self._present = tuple(i for i in catalogue if i.key in keys)
        self._absent = tuple(i for i in catalogue if i.key not in keys)
        self._optional_variants = set(vocabulary.variants.optional)
        self._family_of = {name.replace("-", ""): key for key, words in
                           vocabulary.families.items() for name in words.names}
        self._others = {n.replace("-", "") for n in vocabulary.other_families.names}

    def is_other_family(self, word: str | None) -> bool:
        """True for a family the vocabulary knows is not in the table (mistral, phi, ...)."""
        return bool(word) and str(word).replace("-", "") in self._others

    def fits(self, info: ModelInfo, mention: Mention, unnamed_variants: bool = False) -> bool:
        """Whether a mention names this model; `unnamed_variants` lets a name without "VL"
        fit the VL model too (offered beside the plain ones, never picked alone)."""
        if mention.other_family or mention.distinct:
            return False
        if mention.family and info.family != mention.family:
            return False
        if mention.versions and not mention.versions <= set(info.versions):
            return False
        if not mention.variants <= info.variants:
            return False
        if not unnamed_variants and not (
                info.variants - self._optional_variants) <= mention.variants:
            return False
        if mention.size and info.size != mention.size:
            return False
        return not (mention.active and info.active != mention.active)

    def architecture(self, mention: Mention) -> Mention:
        """The name as the family whose architecture it has: a distill into another table
        family (DeepSeek-R1-Distill-Qwen-32B) is a Qwen model, whatever its first word."""
        inner = [w for w in mention.distinct if w.replace("-", "") in self._family_of]
        if not inner or self._family_of[inner[-1].replace("-", "")] == mention.family:
            return mention
        return Mention(family=self._family_of[inner[-1].replace("-", "")],
                       variants=set(mention.variants), size=mention.size, active=mention.active,
                       words=list(mention.words))

    def match_absent(self, mention: Mention) -> tuple[ModelInfo, ...]:
        """Catalogue models the mention fits that this version of the table does not list."""
        return tuple(i for i in self._absent if self.fits(i, mention))

    def match(self, mention: Mention) -> Match:
        """The models a name fits. One plain model is that model; several are all offered,
        the newest versions first, then the variants the name also fits (qwen 7b: Qwen2.5-7B,
        Qwen2-7B, Qwen2.5-VL-7B, Qwen2-VL-7B)."""
        models = tuple(i for i in self._present if self.fits(i, mention))
        if len(models) > 1:
            plain = {i.key for i in models}
            variants = tuple(i for i in self._present if i.key not in plain
                             and self.fits(i, mention, unnamed_variants=True))
            models = (*sorted(models, key=_newest_first), *sorted(variants, key=_newest_first))
        assumed: list[str] = []
        if len(models) == 1:
            info = models[0]
            if info.versions and not mention.versions:
                assumed.append("version")
            # DeepSeek-V3/R1 names no size, so leaving it out assumes nothing.
            if not mention.size and not mention.active and info.size in info.key.lower():
                assumed.append("size")
            if not mention.family:
                assumed.append("family")
        return Match(models=models, assumed=tuple(assumed))

    @cached_property
    def _spellings(self) -> dict[str, str]:
        return {info.key: f"{info.family} {' '.join(info.versions)} {info.variant or ''} "
                          f"{info.size} {info.display}".lower() for info in self._present}

    def _look_alike_families(self, word: str) -> set[str]:
        """Table families whose names look like a word (mistral ~ mixtral, internlm ~ internvl)."""
        return {family for name, family in self._family_of.items()
                if fuzz.ratio(word, name) >= _MIN_LOOK_ALIKE}

    def suggest(self, mention: Mention, limit: int = 3) -> tuple[str, ...]:
        """The nearest table models to a name the table does not have: of the family whose
        architecture it has, and never one whose only tie is the family word (a 671B MoE for a
        32B model): a sized name is offered models within a factor of its size."""
        mention = self.architecture(mention)
        if mention.family:
            families = {mention.family}
        elif mention.other_family:
            families = self._look_alike_families(mention.other_family)
        else:
            families = {i.family for i in self._present}
        pool = [i for i in self._present if i.family in families]

        asked_size = size_value(mention.size)
        if asked_size:
            pool = [i for i in pool if size_value(i.size)
                    and abs(math.log(size_value(i.size) / asked_size)) <= math.log(_NEAR_SIZE)]

        # Nearest first: a variant the person named, the same version, the nearest size (by
        # ratio: 3B is nearer 7B than 0.5B), no variant they did not name, then the spelling.
        def closeness(info: ModelInfo) -> tuple[bool, bool, float, bool, float]:
            size = size_value(info.size)
            distance = abs(math.log(size / asked_size)) if size and asked_size else 0.0
            variants = set(info.variants) - self._optional_variants
            return (bool(mention.variants) and mention.variants == variants,
                    bool(mention.versions & set(info.versions)),
                    -distance,
                    mention.variants == variants,
                    fuzz.WRatio(mention.spelled(), self._spellings[info.key]))

        return tuple(i.key for i in sorted(pool, key=closeness, reverse=True)[:limit])
