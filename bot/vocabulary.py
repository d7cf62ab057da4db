"""The words of data/vocabulary.toml, compiled once into the matchers the parser uses."""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, PositiveInt

from bot.datafiles import load_toml
from bot.table import Flavour, Framework, Strategy


class FamilyWords(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    display: str
    names: tuple[str, ...]
    cjk: tuple[str, ...] = ()
    version_sep: str = ""


class OtherFamilies(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    names: tuple[str, ...]
    cjk: dict[str, str] = {}


class Names(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    names: tuple[str, ...]


class Variants(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    table: tuple[str, ...]
    optional: tuple[str, ...]
    display: dict[str, str] = {}
    distinct: tuple[str, ...]
    suffixes: tuple[str, ...]


class Stages(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    covered: tuple[str, ...]
    uncovered: tuple[str, ...]


class Quantities(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    units: tuple[str, ...]


class Sequence(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    keywords: tuple[str, ...]
    bare_minimum: PositiveInt
    k: PositiveInt


class Intents(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    list: tuple[str, ...]
    help: tuple[str, ...]


class Vocabulary(BaseModel):
    """Everything in data/vocabulary.toml, validated."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    families: dict[str, FamilyWords]
    other_families: OtherFamilies
    orgs: Names
    variants: Variants
    strategies: dict[Strategy, tuple[str, ...]]
    stages: Stages
    frameworks: dict[Framework, tuple[str, ...]]
    flavours: dict[Flavour, tuple[str, ...]]
    quantities: Quantities
    sequence: Sequence
    intents: Intents


def load_vocabulary(path: Path) -> Vocabulary:
    return load_toml(path, Vocabulary)


def _is_ascii(word: str) -> bool:
    return all(ord(c) < 128 for c in word)


def phrase_pattern(phrases: tuple[str, ...] | list[str]) -> str:
    """One alternation for phrases, longest first; ASCII ones need word edges, CJK ones do not."""
    parts: list[str] = []
    for phrase in sorted({p.lower() for p in phrases}, key=len, reverse=True):
        if _is_ascii(phrase):
            # A space or dash inside a phrase stands for any separator, or none.
            body = r"[\s_-]?".join(re.escape(w) for w in re.split(r"[\s-]+", phrase))
            parts.append(rf"(?<![a-z0-9]){body}(?![a-z0-9])")
        else:
            body = r"\s*".join(re.escape(w) for w in phrase.split())
            parts.append(body)
    return "|".join(parts) if parts else r"(?!x)x"


def compile_phrases(phrases: tuple[str, ...] | list[str]) -> re.Pattern[str]:
    return re.compile(phrase_pattern(phrases))
