"""The numbers pass: each number in a question read with its unit, or left for the names pass.

A number is a sequence length only when something says so: a `k`, a length word before it
(seq, cutoff_len, 序列长度) or after it (tokens, context), a place where lengths stand (right
after the strategy), or because it is one of the lengths the table lists. Hardware after a
number (cards, DIE, nodes, 台, 卡) makes it a budget. Samples, steps, epochs, batch sizes, ranks,
GB, learning rates, dates and times are read and set aside, so that they are never taken for a
length or a model size. Whatever this pass reads is blanked from the text.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

from mincards.bot.facts.vocabulary import Vocabulary
from mincards.bot.reading.asked import BudgetUnit
from mincards.bot.reading.counts import CountReader
from mincards.bot.reading.phrases import phrase_pattern

# Stands where a strategy word stood (the filters pass puts it there): "lora 2048" is a length.
STRATEGY_MARK = "\ue000"
_NUMBER = r"(\d+(?:\.\d+)?)"
# Spaces taken whole (possessive): two optional runs of spaces side by side, or a run of CJK
# numerals tried from each of its characters, would make a pass quadratic in a long run.
_GAP = r"\s*+"
_DATES = re.compile(r"(?<![\w.])(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/]\d{1,2}[-/]\d{4}"
                    r"|\d{4}年\s*\d{1,2}月(?:\s*\d{1,2}[日号])?|\d{1,2}月\s*\d{1,2}[日号])"
                    r"|(?<![\w.])\d{1,2}:\d{2}(?::\d{2})?(?![\w])")
_SCIENTIFIC = re.compile(r"(?<![\w.])\d+(?:\.\d+)?e[-+]?\d+(?![\w.])")
_K = re.compile(rf"(?<![a-z0-9.]){_NUMBER}\s?k(?![a-z0-9])")
_BARE = re.compile(r"(?<![\w.\-:/])(\d{3,7})(?![\w.\-:])")


@dataclass
class Numbers:
    seq_lens: list[int] = field(default_factory=list)
    budgets: list[tuple[int, BudgetUnit]] = field(default_factory=list)
    # Amounts of hardware that cannot be one ("-5 cards", "0 nodes"): said back, never used.
    refused_budgets: list[tuple[int, BudgetUnit]] = field(default_factory=list)
    text: str = ""


class NumberReader:
    """Built once from the vocabulary and the table's lengths; cheap per question."""

    def __init__(self, vocabulary: Vocabulary, table_lengths: Collection[int],
                 counts: CountReader | None = None) -> None:
        self.k = vocabulary.sequence.k
        self.lengths = frozenset(table_lengths)
        numbers = vocabulary.numbers
        self.counts = counts or CountReader(vocabulary)
        self.cjk_number = self.counts.cjk_number
        count = self.counts.pattern
        self._budget_unit: dict[str, BudgetUnit] = {}
        units_words: tuple[tuple[BudgetUnit, tuple[str, ...]], ...] = (
            ("card", vocabulary.budget.card), ("die", vocabulary.budget.die),
            ("node", vocabulary.budget.node), ("ascend", vocabulary.budget.ascend))
        for unit, words in units_words:
            for word in words:
                self._budget_unit.setdefault(re.sub(r"[\s_-]+", "", word.lower()), unit)
        # The words as written: "ascend npus" must outrun "ascend" with its space in it.
        units = phrase_pattern([w for _, words in units_words for w in words])
        # "2 Snt9B23 nodes": the flavour word is already blanked, so spaces may stand between.
        # "8*Ascend" and "8 x cards": a times sign may stand between.
        self._budget = re.compile(rf"{count}{_GAP}(?:more\s++|[x*×]{_GAP})?({units})")
        other_units = phrase_pattern(numbers.other_units)
        currency = "".join(re.escape(c) for c in numbers.currency) or r"\x00"
        # A unit right before a card word is not that unit: the "min" of "8192 min cards" is
        # "minimum", and the 8192 a length.
        self._other_after = re.compile(
            rf"(?<![\w.\-]){_NUMBER}\s*(?:[kmbt]\s*|[万亿千]\s*)?(?:{other_units})"
            rf"(?!{_GAP}(?:{units}))"
            rf"|[{currency}]\s*{_NUMBER}\s*(?:[kmb]|[万亿千])?"
            rf"|(?<![\w.]){_NUMBER}\s*[mbt]\s*tokens?(?![a-z])")
        self._other_before = re.compile(
            rf"(?:{phrase_pattern(numbers.other_keywords)}){_GAP}(?:(?:[:=]|of|is|为|是){_GAP})?"
            rf"{_NUMBER}\s*[km]?(?![a-z0-9])")
        seq = vocabulary.sequence
        self._seq_before = re.compile(
            rf"(?:{phrase_pattern(seq.keywords)}){_GAP}(?:(?:[:=\-]|is|of|at|为|是){_GAP})?"
            rf"{_NUMBER}\s*(k)?(?![a-z0-9])")
        self._seq_after = re.compile(
            rf"(?<![\w.]){_NUMBER}{_GAP}(?:(k){_GAP})?(?:{phrase_pattern(seq.after)})")
        self._after_strategy = re.compile(
            rf"{STRATEGY_MARK}{_GAP}(?:(?:at|@|with|,|:|=|for){_GAP})?(\d{{3,7}})(?![\w.])")

    def _count(self, match: re.Match[str]) -> int | None:
        return self.counts.read(*match.group(1, 2, 3, 4))

    def _length(self, number: str, k: str | None) -> int | None:
        try:
            value = float(number) * (self.k if k else 1)
        except ValueError:
            return None
        return int(value) if value >= 1 and value == int(value) else None

    def read(self, text: str) -> Numbers:
        out = Numbers()
        for pattern in (_DATES, _SCIENTIFIC, self._other_after, self._other_before):
            text = pattern.sub(" ", text)

        def budget(match: re.Match[str]) -> str:
            count = self._count(match)
            unit = self._budget_unit.get(re.sub(r"[\s_-]+", "", match.group(5)))
            if count is not None and unit:
                if 0 < count < 10**6:
                    out.budgets.append((count, unit))
                elif count <= 0:
                    out.refused_budgets.append((count, unit))
            return " "

        text = self._budget.sub(budget, text)

        def length(match: re.Match[str]) -> str:
            value = self._length(match.group(1), match.group(2) if match.re.groups > 1 else "k")
            if value:
                out.seq_lens.append(value)
            return " "

        for pattern in (self._seq_before, self._seq_after, _K):
            text = pattern.sub(length, text)
        for pattern in (self._after_strategy, _BARE):
            text = pattern.sub(lambda m: self._bare(m, out), text)
        out.text = text.replace(STRATEGY_MARK, " ")
        return out

    def _bare(self, match: re.Match[str], out: Numbers) -> str:
        value = int(match.group(1))
        if match.re is self._after_strategy or value in self.lengths:
            out.seq_lens.append(value)
            return f" {STRATEGY_MARK} " if match.re is self._after_strategy else " "
        return match.group(0)
