"""The words of data/vocabulary.toml, compiled once into the matchers the parser uses."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mincards.bot.facts.datafiles import STRICT_KEYS, check_positive, read_toml, validate
from mincards.bot.facts.table import is_id
from mincards.bot.language import Language


def _words_only(value: Any) -> Any:
    """The first data format gave a strategy or framework as a bare list of words."""
    return {"words": value} if isinstance(value, list | tuple) else value


@dataclass(frozen=True, kw_only=True)
class FamilyWords:
    __pydantic_config__ = STRICT_KEYS
    display: str
    names: tuple[str, ...]
    cjk: tuple[str, ...] = ()
    version_sep: str = ""
    kind: str | None = None


@dataclass(frozen=True, kw_only=True)
class OtherFamilies:
    __pydantic_config__ = STRICT_KEYS
    names: tuple[str, ...]
    cjk: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class Names:
    __pydantic_config__ = STRICT_KEYS
    names: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Variants:
    __pydantic_config__ = STRICT_KEYS
    table: tuple[str, ...]
    optional: tuple[str, ...]
    display: dict[str, str] = field(default_factory=dict)
    distinct: tuple[str, ...]
    suffixes: tuple[str, ...]
    # The sort of model (models.toml's `kind`) a variant word makes.
    kinds: dict[str, str] = field(default_factory=dict)
    # After one of these, another family's name is part of the same name (a distill).
    joining: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Quantized:
    """Words and tags that make a name a quantized copy of a model, and why that is the same
    model to train."""

    __pydantic_config__ = STRICT_KEYS
    words: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    source: str = ""

    def __post_init__(self) -> None:
        for tag in self.tags:
            try:
                re.compile(tag)
            except re.error as exc:
                raise ValueError(f"tags: {tag!r} is not a regular expression: {exc}") from None


@dataclass(frozen=True, kw_only=True)
class StrategyWords:
    """A training strategy: how replies name it, and the words that mean it in a question."""

    __pydantic_config__ = STRICT_KEYS
    label: dict[Language, str] = field(default_factory=dict)
    words: tuple[str, ...] = ()
    # The strategy that never needs fewer cards than this one (LoRA: full); a table that says
    # otherwise is flagged as a likely error in the source.
    needs_no_more_than: str | None = None

@dataclass(frozen=True, kw_only=True)
class FrameworkWords:
    """A training framework people may name. One the loaded table has is also known by the name
    its page gives it; `name` is for one a table version lacks, so a question about it is told
    so instead of being answered with another framework's numbers."""

    __pydantic_config__ = STRICT_KEYS
    name: str | None = None
    words: tuple[str, ...] = ()
    # Training stages this framework is for (VeRL: rl, grpo, ...); a question about one of them
    # is narrowed to such frameworks when the table has one, and otherwise told it is not covered.
    stages: tuple[str, ...] = ()

@dataclass(frozen=True, kw_only=True)
class StageStrategy:
    """A training stage that is answered as one strategy (pre-training trains every parameter:
    full), and why, said in the reply."""

    __pydantic_config__ = STRICT_KEYS
    strategy: str
    words: tuple[str, ...]
    why: dict[Language, str] = field(default_factory=dict)
    # The strategy's counts bound this stage's from above (QLoRA needs at most LoRA's cards):
    # the reply says so first, never as the table's figures for the stage itself.
    at_most: bool = False


@dataclass(frozen=True, kw_only=True)
class Stages:
    __pydantic_config__ = STRICT_KEYS
    covered: tuple[str, ...]
    uncovered: tuple[str, ...]
    implies: tuple[StageStrategy, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Quantities:
    """The first format's single list of count units; kept so such a folder still loads."""

    __pydantic_config__ = STRICT_KEYS
    units: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class BudgetWords:
    """Units after a number that make it an amount of hardware: cards, DIE, nodes, or Ascend
    (the page's own "8*Ascend": each flavour's unit, cards on Snt9B and DIE on Snt9B23)."""

    __pydantic_config__ = STRICT_KEYS
    card: tuple[str, ...] = ()
    die: tuple[str, ...] = ()
    node: tuple[str, ...] = ()
    ascend: tuple[str, ...] = ()
    # Parts of one node ("half a node", "a quarter node", "半台机器"), each with its share.
    part: dict[str, float] = field(default_factory=dict)
    # After a count and before a node word, one half more ("one and a half nodes", "一个半节点").
    and_a_half: tuple[str, ...] = ()
    # After a count and a node word, one half more ("一台半").
    half_after: tuple[str, ...] = ()
    # Chips: a count of them is that many cards of their flavour ("4 x 910C").
    chips: tuple[str, ...] = ()
    # Between machines and the cards each holds ("2 machines of 8 cards", "两台机器每台8卡").
    each: tuple[str, ...] = ()
    # Between an M-card count and its machine ("一台4卡的服务器").
    linking: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        bad = {k: v for k, v in self.part.items() if not 0 < v < 1}
        if bad:
            raise ValueError(f"budget.part: a part of a node is between 0 and 1: {bad}")


@dataclass(frozen=True, kw_only=True)
class NumberWords:
    """Numbers written as words, and what makes a number count something else entirely."""

    __pydantic_config__ = STRICT_KEYS
    words: dict[str, int] = field(default_factory=dict)
    cjk_digits: dict[str, int] = field(default_factory=dict)
    cjk_multipliers: dict[str, int] = field(default_factory=dict)
    # A number followed by one of these counts samples, steps, GB...: never a length or budget.
    other_units: tuple[str, ...] = ()
    # ...or preceded by one of these (batch size 32, rank 64, lr 2e-5).
    other_keywords: tuple[str, ...] = ()
    # Before a number, money ("$5000"): never a budget of cards.
    currency: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class FlavourShort:
    """Flavour names that are also something else ('9b'), read as the flavour only in place."""

    __pydantic_config__ = STRICT_KEYS
    names: dict[str, str] = field(default_factory=dict)
    before: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class PlanWords:
    """The words of a plan's inputs: tokens, samples, epochs, a deadline, TPS, efficiency."""

    __pydantic_config__ = STRICT_KEYS
    how_long: tuple[str, ...] = ()
    tokens: tuple[str, ...] = ()
    samples: tuple[str, ...] = ()
    per_sample_before: tuple[str, ...] = ()
    per_sample_after: tuple[str, ...] = ()
    total_before: tuple[str, ...] = ()
    epochs: tuple[str, ...] = ()
    epochs_before: tuple[str, ...] = ()
    deadline_before: tuple[str, ...] = ()
    deadline_after: tuple[str, ...] = ()
    hours: dict[str, float] = field(default_factory=dict)
    tps_before: tuple[str, ...] = ()
    tps_after: tuple[str, ...] = ()
    efficiency_before: tuple[str, ...] = ()
    efficiency_after: tuple[str, ...] = ()
    scale: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        bad = {k: v for k, v in {**self.hours, **self.scale}.items() if not v > 0}
        if bad:
            raise ValueError(f"hours and scale must be above 0: {bad}")


@dataclass(frozen=True, kw_only=True)
class Sequence:
    __pydantic_config__ = STRICT_KEYS
    keywords: tuple[str, ...]
    # Words after a number that make it a length ("8k context", "4096 tokens").
    after: tuple[str, ...] = ()
    # The first format read any bare number from this size up as a length; no longer used.
    bare_minimum: int | None = None
    k: int

    def __post_init__(self) -> None:
        check_positive(self, "bare_minimum", "k")


@dataclass(frozen=True, kw_only=True)
class Clauses:
    """Where a clause ends, and the words that make one context rather than the question."""

    __pydantic_config__ = STRICT_KEYS
    breaks: tuple[str, ...] = ()
    context: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class OtherHardware:
    """Hardware the table has no figures for: each word and how a reply names it, and the
    words for any such hardware (named only when no chip is)."""

    __pydantic_config__ = STRICT_KEYS
    names: dict[str, str] = field(default_factory=dict)
    generic: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        lost = [w for w in self.generic if w not in self.names]
        if lost:
            raise ValueError(f"other_hardware.generic: {lost} are not among its names")


@dataclass(frozen=True, kw_only=True)
class Prices:
    """Words that ask what a run costs: the table has no prices, and a reply says so."""

    __pydantic_config__ = STRICT_KEYS
    words: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Intents:
    __pydantic_config__ = STRICT_KEYS
    list: tuple[str, ...]
    help: tuple[str, ...]
    # "What can I train on ...": with a budget, the models that fit it.
    capacity: tuple[str, ...] = ()
    # "The biggest qwen3 I can ...": with a budget, what fits, the largest said first.
    largest: tuple[str, ...] = ()
    # "The minimum for ...": a deadline beside it alone is context, not a plan.
    minimum: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Vocabulary:
    """Everything in data/vocabulary.toml, validated."""

    __pydantic_config__ = STRICT_KEYS
    families: dict[str, FamilyWords]
    other_families: OtherFamilies
    orgs: Names
    variants: Variants
    quantized: Quantized = field(default_factory=Quantized)
    strategies: dict[str, StrategyWords]
    stages: Stages
    frameworks: dict[str, FrameworkWords] = field(default_factory=dict)
    flavours: dict[str, tuple[str, ...]] = field(default_factory=dict)
    flavour_short: FlavourShort = field(default_factory=FlavourShort)
    other_hardware: OtherHardware = field(default_factory=OtherHardware)
    prices: Prices = field(default_factory=Prices)
    plan: PlanWords = field(default_factory=PlanWords)
    quantities: Quantities | None = None
    budget: BudgetWords = field(default_factory=BudgetWords)
    numbers: NumberWords = field(default_factory=NumberWords)
    sequence: Sequence
    intents: Intents
    clauses: Clauses = field(default_factory=Clauses)
    # Words that are never a model's name, around a size a question gives ("for 24b"): what a
    # name the reader could not place is searched for on the Hub without.
    not_names: Names = field(default_factory=lambda: Names(names=()))

    def not_name_words(self) -> frozenset[str]:
        """not_names, and every word another section gives a meaning (strategies, frameworks,
        flavours, hardware, budgets, prices, intents): none of them names a model."""
        words = set(self.not_names.names)
        for strategy in self.strategies.values():
            words.update(strategy.words)
        for key, framework in self.frameworks.items():
            words.update((key, *framework.words))
        for key, flavour in self.flavours.items():
            words.update((key, *flavour))
        words.update(self.flavour_short.before)
        words.update((*self.other_hardware.names, *self.other_hardware.generic))
        b = self.budget
        words.update((*b.card, *b.die, *b.node, *b.ascend))
        words.update(self.prices.words)
        i = self.intents
        words.update((*i.list, *i.help, *i.capacity, *i.largest, *i.minimum))
        return frozenset(w.lower() for w in words)

    def __post_init__(self) -> None:
        for section in ("strategies", "frameworks", "flavours"):
            bad = [key for key in getattr(self, section) if not is_id(key)]
            if bad:
                raise ValueError(f"{section}: {bad} are not ids (lower-case letters, digits "
                                 "and '_')")
        if not self.strategies:
            raise ValueError("no strategies")
        unknown = [i.strategy for i in self.stages.implies if i.strategy not in self.strategies]
        if unknown:
            raise ValueError(f"stages.implies: {unknown} are not strategies")
        for key, strategy in self.strategies.items():
            if strategy.needs_no_more_than and strategy.needs_no_more_than not in self.strategies:
                raise ValueError(f"strategy {key!r}: needs_no_more_than names unknown strategy "
                                 f"{strategy.needs_no_more_than!r}")

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
    raw = read_toml(path)
    for section in ("strategies", "frameworks"):
        if isinstance(raw.get(section), dict):
            raw[section] = {key: _words_only(value) for key, value in raw[section].items()}
    return validate(path, Vocabulary, raw)
