"""Counts as people write them before a unit: digits (a minus kept), number words, CJK numerals.

Shared by the passes that read hardware (`hardware`, `numbers`) and a plan's numbers
(`workload`), so that "two", "两" and "2" are one count everywhere.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from mincards.bot.facts.vocabulary import Vocabulary

# No budget of ten million cards: a number that long was pasted, not counted.
MAX_DIGITS = 7


def alternation(words: Collection[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) or r"(?!x)x"


class CountReader:
    """Built once from the vocabulary. `pattern` has four groups: a minus, digits, a number
    word, CJK numerals; `read` turns a match of it into the count."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        numbers = vocabulary.numbers
        self._words = {w.lower(): n for w, n in numbers.words.items()}
        self._digits = dict(numbers.cjk_digits)
        self._multipliers = dict(numbers.cjk_multipliers)
        cjk = "".join(re.escape(c) for c in (*self._digits, *self._multipliers)) or r"\x00"
        self.cjk_class = cjk
        # A minus before digits is kept, to say "-5 cards" is no budget rather than read 5.
        # Runs taken whole (possessive): a long run is one step, never retried from inside.
        self.pattern = (rf"(?:(?<![\w.])(-\s*+)?(\d+)"
                        rf"|(?<![a-z0-9])({alternation(self._words)})(?![a-z0-9])"
                        rf"|(?<![{cjk}])([{cjk}]++))")

    def cjk_number(self, text: str) -> int | None:
        """一 -> 1, 十六 -> 16, 三十二 -> 32, 两 -> 2, 一百二十八 -> 128."""
        total, digit = 0, None
        for char in text:
            if char in self._digits:
                if digit is not None:
                    return None  # 二二 is not a number
                digit = self._digits[char]
            elif char in self._multipliers:
                total += (1 if digit is None else digit) * self._multipliers[char]
                digit = None
            else:
                return None
        return total + (digit or 0)

    def read(self, minus: str | None, digits: str | None, word: str | None,
             cjk: str | None) -> int | None:
        """The count of `pattern`'s four groups; None when it is none (too long a number)."""
        if digits:
            if len(digits) > MAX_DIGITS:
                return None
            return -int(digits) if minus else int(digits)
        if word:
            return self._words.get(word.lower())
        return self.cjk_number(cjk) if cjk else None
