"""The price pass: a question that asks what a run costs ("how much would it cost", 多少钱,
成本), and for how long ("for 10 hours", 跑10小时).

The table has no prices; a reply says so and gives the card-hours the question implies, so the
asker can multiply by their own price. The duration is read only where a price is asked, and
taken from the text, so that "10 hours" is never read as a deadline or a count.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from mincards.bot.facts.vocabulary import Vocabulary
from mincards.bot.reading.phrases import phrase_pattern


@dataclass(frozen=True)
class PriceAsked:
    asked: bool = False
    hours: float | None = None  # how long the run is said to take, when said
    text: str = ""


class PriceReader:
    def __init__(self, vocabulary: Vocabulary, cjk_number: Callable[[str], int | None]) -> None:
        words = vocabulary.prices.words
        self._asked = re.compile(phrase_pattern(words)) if words else None
        self._cjk_number = cjk_number
        self._hours = {k.lower(): v for k, v in vocabulary.plan.hours.items()}
        units = "|".join(re.escape(u) for u in sorted(self._hours, key=len, reverse=True))
        cjk = "".join(re.escape(c) for c in (*vocabulary.numbers.cjk_digits,
                                              *vocabulary.numbers.cjk_multipliers))
        digits = r"(?<![\w.])\d{1,5}(?:\.\d{1,3})?"
        # A Chinese numeral stands right after other Chinese (跑十小时): only a numeral before it
        # is refused, so that a run of them is read whole.
        numerals = rf"(?<![{cjk or 'x'}])[{cjk or 'x'}]{{1,6}}"
        # A unit as a word of its own ("10 h", "10 hours"), or attached in Chinese (10小时).
        self._duration = re.compile(rf"({digits}|{numerals})\s*({units})(?![a-z])")

    def read(self, text: str) -> PriceAsked:
        if self._asked is None or not self._asked.search(text):
            return PriceAsked(text=text)
        for found in self._duration.finditer(text):
            said, unit = found.group(1), found.group(2)
            value = float(said) if said[0].isdigit() else self._cjk_number(said)
            per = self._hours.get(unit.lower())
            if value and per:
                rest = text[:found.start()] + " " + text[found.end():]
                return PriceAsked(asked=True, hours=float(value) * per, text=rest)
        return PriceAsked(asked=True, text=text)
