"""The words of data/vocabulary.toml, compiled once into the matchers the parser uses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, PositiveInt, field_validator, model_validator

from mincards.bot.facts.datafiles import load_toml
from mincards.bot.facts.table import is_id
from mincards.bot.language import Language


def _words_only(value: Any) -> Any:
    """The first data format gave a strategy or framework as a bare list of words."""
    return {"words": value} if isinstance(value, list | tuple) else value


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


class StrategyWords(BaseModel):
    """A training strategy: how replies name it, and the words that mean it in a question."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    label: dict[Language, str] = {}
    words: tuple[str, ...] = ()
    # The strategy that never needs fewer cards than this one (LoRA: full); a table that says
    # otherwise is flagged as a likely error in the source.
    needs_no_more_than: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _first_format(cls, value: Any) -> Any:
        return _words_only(value)


class FrameworkWords(BaseModel):
    """A training framework people may name. One the loaded table has is also known by the name
    its page gives it; `name` is for one a table version lacks, so a question about it is told
    so instead of being answered with another framework's numbers."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str | None = None
    words: tuple[str, ...] = ()
    # Training stages this framework is for (VeRL: rl, grpo, ...); a question about one of them
    # is narrowed to such frameworks when the table has one, and otherwise told it is not covered.
    stages: tuple[str, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _first_format(cls, value: Any) -> Any:
        return _words_only(value)


class Stages(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    covered: tuple[str, ...]
    uncovered: tuple[str, ...]


class Quantities(BaseModel):
    """The first format's single list of count units; kept so such a folder still loads."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    units: tuple[str, ...]


class BudgetWords(BaseModel):
    """Units after a number that make it an amount of hardware: cards, DIE or nodes."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    card: tuple[str, ...] = ()
    die: tuple[str, ...] = ()
    node: tuple[str, ...] = ()


class NumberWords(BaseModel):
    """Numbers written as words, and what makes a number count something else entirely."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    words: dict[str, int] = {}
    cjk_digits: dict[str, int] = {}
    cjk_multipliers: dict[str, int] = {}
    # A number followed by one of these counts samples, steps, GB...: never a length or budget.
    other_units: tuple[str, ...] = ()
    # ...or preceded by one of these (batch size 32, rank 64, lr 2e-5).
    other_keywords: tuple[str, ...] = ()


class Sequence(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    keywords: tuple[str, ...]
    # Words after a number that make it a length ("8k context", "4096 tokens").
    after: tuple[str, ...] = ()
    # The first format read any bare number from this size up as a length; no longer used.
    bare_minimum: PositiveInt | None = None
    k: PositiveInt


class Intents(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    list: tuple[str, ...]
    help: tuple[str, ...]
    # "What can I train on ...": with a budget, the models that fit it.
    capacity: tuple[str, ...] = ()


class Vocabulary(BaseModel):
    """Everything in data/vocabulary.toml, validated."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    families: dict[str, FamilyWords]
    other_families: OtherFamilies
    orgs: Names
    variants: Variants
    strategies: dict[str, StrategyWords]
    stages: Stages
    frameworks: dict[str, FrameworkWords] = {}
    flavours: dict[str, tuple[str, ...]] = {}
    quantities: Quantities | None = None
    budget: BudgetWords = BudgetWords()
    numbers: NumberWords = NumberWords()
    sequence: Sequence
    intents: Intents

    @field_validator("strategies", "frameworks", "flavours")
    @classmethod
    def _ids(cls, value: dict[str, Any]) -> dict[str, Any]:
        bad = [key for key in value if not is_id(key)]
        if bad:
            raise ValueError(f"{bad} are not ids (lower-case letters, digits and '_')")
        return value

    @model_validator(mode="after")
    def _strategies_known(self) -> Vocabulary:
        if not self.strategies:
            raise ValueError("no strategies")
        for key, strategy in self.strategies.items():
            if strategy.needs_no_more_than and strategy.needs_no_more_than not in self.strategies:
                raise ValueError(f"strategy {key!r}: needs_no_more_than names unknown strategy "
                                 f"{strategy.needs_no_more_than!r}")
        return self

    def strategy_label(self, strategy: str, language: Language) -> str:
        label = self.strategies[strategy].label if strategy in self.strategies else {}
        return label.get(language) or label.get("en") or strategy

    def strategy_words(self) -> list[tuple[str, str]]:
        """Every (word, strategy id) a question may use: each id, then its words."""
        return [(w, key) for key, s in self.strategies.items() for w in (key, *s.words)]

    def strategy_of(self, word: str) -> str | None:
        """The strategy a word from the page's strategy column names (its id or one of its
        words), or None."""
        word = word.strip().lower()
        for key, strategy in self.strategies.items():
            if word == key or word in (w.lower() for w in strategy.words):
                return key
        return None


def load_vocabulary(path: Path) -> Vocabulary:
    return load_toml(path, Vocabulary)
