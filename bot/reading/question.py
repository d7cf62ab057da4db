"""A question as typed, read into what it asks, in a few passes each with its own module:
normalise (`normalize`), clauses (`clauses`: which are context, not the question), hardware
(`hardware`: parts of nodes, machines of so many cards, chips), filters (`filters`: framework,
flavour, stage, strategy), a plan's numbers (`workload`: tokens, samples, epochs, deadline,
TPS, efficiency), numbers with their units (`numbers`: lengths, budgets, and the counts that
are neither), then model names (`names`). What is left says whether the person wants a list,
help or what fits a budget."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace

from mincards.bot.facts.vocabulary import Vocabulary
from mincards.bot.language import Language, language_of
from mincards.bot.reading.asked import Budget, BudgetUnit, NameParts, Workload
from mincards.bot.reading.clauses import ClauseReader
from mincards.bot.reading.counts import CountReader
from mincards.bot.reading.filters import FilterReader
from mincards.bot.reading.hardware import HardwareReader
from mincards.bot.reading.names import Mention, NameReader
from mincards.bot.reading.normalize import Normalizer
from mincards.bot.reading.numbers import NumberReader
from mincards.bot.reading.other_hardware import OtherHardwareReader
from mincards.bot.reading.phrases import compile_phrases
from mincards.bot.reading.prices import PriceReader
from mincards.bot.reading.workload import WorkloadReader

_SPACES = re.compile(r"\s+")
_LOOSE_VERSION = re.compile(r"^v?\d+(?:\.\d+)?$")


@dataclass
class Question:
    """What a question asks. Empty sets mean the person did not narrow it down."""

    text: str
    language: Language
    mentions: list[Mention] = field(default_factory=list)
    strategies: set[str] = field(default_factory=set)
    seq_lens: list[int] = field(default_factory=list)
    frameworks: set[str] = field(default_factory=set)
    flavours: set[str] = field(default_factory=set)
    uncovered_stage: str | None = None
    # The stage that named the strategy (pre-training: full), its place in the vocabulary's
    # [[stages.implies]]; the reply says why.
    stage_strategy: int | None = None
    # Hardware the table has no figures for (A100, "GPUs", 910A), as replies name it: the
    # reply says first that its counts are Ascend's.
    other_hardware: list[str] = field(default_factory=list)
    # An amount said of that hardware ("8x H800", "16 GPUs", "A100 8张卡"): never judged
    # against the table's Ascend counts; the unit is None for the named hardware itself.
    other_budget: tuple[int, BudgetUnit | None] | None = None
    # What the run would cost was asked ("how much would it cost", 多少钱): the table has no
    # prices, and the reply gives card-hours for the hours said (None: not said).
    asks_price: bool = False
    price_hours: float | None = None
    budget: Budget | None = None
    # An amount of hardware that cannot be one ("-5 cards"): said back, never a budget.
    refused_budget: tuple[int, BudgetUnit] | None = None
    wants_list: bool = False
    wants_help: bool = False
    wants_capacity: bool = False
    wants_largest: bool = False  # with a budget: the largest that fits, said first
    # A version or variant standing alone ("2.5", "the VL one"): the answer to "which one?".
    loose: NameParts | None = None
    # A plan's numbers: data, deadline, throughput, efficiency ("how long", "within 24 h").
    workload: Workload = field(default_factory=Workload)
    # In a follow-up: the model the table does not list that the conversation is about (its
    # stand_ins.toml name), answered again by its stand-in.
    stand_in: str | None = None

    @property
    def mention(self) -> Mention | None:
        return next((m for m in self.mentions if m.named), None)

    @property
    def named(self) -> list[Mention]:
        return [m for m in self.mentions if m.named]


class QuestionReader:
    """Reads questions; built once from the vocabulary, then cheap per question.

    `frameworks` and `flavours` map each id a question may name to its name (the table's
    frameworks with their page names, then the vocabulary's others; the hardware's flavours);
    `lengths` are the sequence lengths the table lists.
    """

    def __init__(self, vocabulary: Vocabulary, names: NameReader,
                 frameworks: Mapping[str, str] | None = None,
                 flavours: Mapping[str, str] | None = None,
                 lengths: Collection[int] = ()) -> None:
        self.vocabulary = vocabulary
        self.names = names
        self.normalize = Normalizer(vocabulary)
        self.filters = FilterReader(vocabulary, frameworks, flavours)
        self.clauses = ClauseReader(vocabulary)
        self.other_hardware = OtherHardwareReader(vocabulary)
        counts = CountReader(vocabulary)
        flavours = flavours or {}
        self.hardware = HardwareReader(vocabulary, counts, [
            *flavours, *flavours.values(), *(w for ws in vocabulary.flavours.values() for w in ws)])
        self.numbers = NumberReader(vocabulary, lengths, counts)
        self.workload = WorkloadReader(vocabulary, self.numbers.cjk_number)
        self.prices = PriceReader(vocabulary, self.numbers.cjk_number)
        self._list = compile_phrases(vocabulary.intents.list)
        self._help = compile_phrases(vocabulary.intents.help)
        self._capacity = compile_phrases(vocabulary.intents.capacity)
        self._largest = compile_phrases(vocabulary.intents.largest)
        self._minimum = compile_phrases(vocabulary.intents.minimum)
        self._variants = frozenset(vocabulary.variants.table)

    def read(self, raw: str) -> Question:
        text = self.normalize(raw)
        split = self.clauses.split(text)
        if split is None:
            return self._read(raw, text)
        asked = self._read(raw, split.asked)
        # Hardware named anywhere ("we only have A100s. how many for ...") is what the
        # asker will read the counts as: said whichever clause named it.
        asked.other_hardware = self.other_hardware.read(text).named
        if not asked.named:
            # The context clauses hold the model ("we trained qwen2.5-72b lora last week. how
            # about full?"): the question asks about it, and what it says itself wins.
            return _continued(asked, self._read(raw, split.context))
        if not any(m.family or m.other_family for m in asked.named):
            # Only a size asked ("we ran qwen2.5-7b before; now the 72b?"): the family the
            # context named, at that size.
            context = self._read(raw, split.context)
            base = next((m for m in context.named if m.family), None)
            if base is not None:
                asked.mentions = [Mention(
                    family=base.family, versions=set(base.versions),
                    variants=set(base.variants), size=m.size, active=m.active,
                    words=[base.words[0], *m.words]) for m in asked.named]
        return asked

    def _read(self, raw: str, text: str) -> Question:
        question = Question(text=raw, language=language_of(raw))
        other = self.other_hardware.read(text)
        question.other_hardware = other.named
        hardware = self.hardware.read(other.text)
        filters = self.filters.read(hardware.text)
        question.frameworks.update(filters.frameworks)
        question.flavours.update(filters.flavours)
        question.strategies.update(filters.strategies)
        question.uncovered_stage = filters.stage
        question.stage_strategy = filters.stage_strategy
        price = self.prices.read(filters.text)
        question.asks_price, question.price_hours = price.asked, price.hours
        planned = self.workload.read(price.text)
        question.workload = _minimum_asked(planned.workload, bool(self._minimum.search(text)))
        numbers = self.numbers.read(planned.text)
        question.seq_lens = sorted(set(numbers.seq_lens))
        if budgets := hardware.budgets + numbers.budgets:
            count, unit = budgets[0]
            flavour = next(iter(question.flavours)) if len(question.flavours) == 1 else None
            question.budget = Budget(count, unit, flavour)
        elif numbers.refused_budgets:
            question.refused_budget = numbers.refused_budgets[0]
        if other.count is not None:
            question.other_budget = (other.count, None)
        elif other.named and question.budget is not None and not question.flavours:
            # "A100 8张卡": with other hardware named and no Ascend flavour, the cards counted
            # are that hardware's.
            question.other_budget = (int(question.budget.count), question.budget.unit)
            question.budget = None
        text = numbers.text
        question.wants_largest = bool(self._largest.search(text))
        question.wants_capacity = question.wants_largest or bool(self._capacity.search(text))
        question.wants_list = bool(self._list.search(text))
        question.wants_help = bool(self._help.search(text))
        question.mentions = self.names.read(_SPACES.sub(" ", text))
        if not any(m.family or m.other_family for m in question.mentions):
            question.loose = self._loose(text)
        return question

    def _loose(self, text: str) -> NameParts | None:
        """Versions and variants with no family word: only ever the answer to "which one?"."""
        words = re.findall(r"[a-z0-9][a-z0-9.]*", text)
        versions = frozenset(w for w in words if _LOOSE_VERSION.match(w))
        variants = frozenset(w for w in words if w in self._variants)
        return NameParts(versions=versions, variants=variants) if versions or variants else None


def _minimum_asked(workload: Workload, minimum: bool) -> Workload:
    """A question that asks the minimum and says a deadline with nothing else of a plan ("team
    of 5, deadline in 2 weeks. what's the minimum for ...?") asks the table's count: the
    deadline is context. With data or a TPS it stays a plan (the cluster size for it)."""
    if not minimum or workload.deadline_hours is None or workload.asks_time:
        return workload
    if any(v is not None for v in (workload.tokens, workload.samples, workload.tps)):
        return workload
    return replace(workload, deadline_hours=None)


def _continued(asked: Question, context: Question) -> Question:
    """A question whose model is in its context clauses: that model, with what the question
    says (strategy, lengths, filters, budget, plan) over what the context said."""
    return replace(
        asked, mentions=context.mentions, loose=asked.loose or context.loose,
        strategies=asked.strategies or context.strategies,
        seq_lens=asked.seq_lens or context.seq_lens,
        frameworks=asked.frameworks or context.frameworks,
        flavours=asked.flavours or context.flavours,
        uncovered_stage=asked.uncovered_stage or context.uncovered_stage,
        stage_strategy=(asked.stage_strategy if asked.strategies
                        else context.stage_strategy),
        budget=asked.budget or context.budget,
        other_hardware=asked.other_hardware or context.other_hardware,
        other_budget=asked.other_budget or context.other_budget,
        asks_price=asked.asks_price or context.asks_price,
        price_hours=asked.price_hours or context.price_hours,
        refused_budget=asked.refused_budget or context.refused_budget,
        workload=asked.workload if asked.workload.said else context.workload)
