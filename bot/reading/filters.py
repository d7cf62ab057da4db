"""The filters pass: frameworks, flavours, training stage and strategy named in a question."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from mincards.bot.facts.vocabulary import Vocabulary
from mincards.bot.reading.numbers import STRATEGY_MARK
from mincards.bot.reading.phrases import PhraseIndex, compile_phrases, phrase_pattern


@dataclass
class Filters:
    frameworks: list[str] = field(default_factory=list)
    flavours: list[str] = field(default_factory=list)
    strategies: list[str] = field(default_factory=list)
    # A training stage the table may not cover (dpo, grpo, inference), as written.
    stage: str | None = None
    # The stage that says the strategy (pre-training: full), as its place in the vocabulary's
    # [[stages.implies]], when no strategy is named.
    stage_strategy: int | None = None
    text: str = ""


class FilterReader:
    """`frameworks` and `flavours` map each id a question may name to its name: the table's
    frameworks with their page names, the hardware's flavours with their display names."""

    def __init__(self, vocabulary: Vocabulary, frameworks: Mapping[str, str] | None = None,
                 flavours: Mapping[str, str] | None = None) -> None:
        frameworks = frameworks or {}
        # A framework's own name, then the vocabulary's other words for it; never a shorter
        # name read out of a longer one (MindSpeed-RL is not MindSpeed-LLM).
        self._frameworks = PhraseIndex(
            [(name, key) for key, name in frameworks.items()]
            + [(w, key) for key, fw in vocabulary.frameworks.items() for w in fw.words],
            attached=False)
        flavours = flavours or {}
        self._flavours = PhraseIndex(
            [(p, key) for key, display in flavours.items() for p in (display, key)]
            + [(w, key) for key, words in vocabulary.flavours.items() for w in words])
        self._strategies = PhraseIndex(vocabulary.strategy_words())
        # A stage the vocabulary makes a strategy (a page that adds GRPO rows) is asked about,
        # no longer outside the table.
        strategy_words = {w.lower() for w, _ in vocabulary.strategy_words()}
        self._uncovered = compile_phrases([w for w in vocabulary.stages.uncovered
                                           if w.lower() not in strategy_words])
        self._covered = compile_phrases(vocabulary.stages.covered)
        # Only a stage standing alone: "-pt" ends many a model's name (gemma-3-27b-pt).
        self._implies = vocabulary.stages.implies
        self._implied = PhraseIndex([(w, str(n)) for n, i in enumerate(self._implies)
                                     for w in i.words], attached=False, alone=True)
        # Short names that are also model sizes ("9b"): the flavour only where a flavour stands.
        short = vocabulary.flavour_short
        self._short = {k.lower(): v for k, v in short.names.items()}
        if self._short:
            names = phrase_pattern(list(self._short))
            hardware = phrase_pattern([*vocabulary.budget.card, *vocabulary.budget.die,
                                       *vocabulary.budget.node])
            self._short_in_place: re.Pattern[str] | None = re.compile(
                rf"(?P<before>{phrase_pattern(short.before)})\s*(?P<name>{names})"
                rf"|(?P<bare>{names})(?=\s*(?:{hardware}))")
        else:
            self._short_in_place = None

    def _short_flavours(self, text: str, flavours: list[str]) -> str:
        if self._short_in_place is None:
            return text

        def one(match: re.Match[str]) -> str:
            name = match.group("name") or match.group("bare")
            key = self._short.get(name.lower().strip())
            if key and key not in flavours:
                flavours.append(key)
            return f"{match.group('before') or ''} "

        return self._short_in_place.sub(one, text)

    def read(self, text: str) -> Filters:
        out = Filters()
        out.frameworks, text = self._frameworks.take(text)
        out.flavours, text = self._flavours.take(text)
        text = self._short_flavours(text, out.flavours)
        if found := self._uncovered.search(text):
            out.stage = found.group(0).strip()
            text = self._uncovered.sub(" ", text)
        # The strategy leaves a mark: a number right after it is a length ("lora 2048").
        implied, text = self._implied.take(text)
        out.strategies, text = self._strategies.take(text, f" {STRATEGY_MARK} ")
        if implied and not out.strategies:
            # The stage says the strategy ("pretrain" trains every parameter); one that was
            # named ("continued pre-training with LoRA") wins over it.
            out.stage_strategy = int(implied[0])
            out.strategies = [self._implies[out.stage_strategy].strategy]
        out.text = self._covered.sub(" ", text)
        return out
