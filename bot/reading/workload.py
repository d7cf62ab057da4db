"""The plan pass: the numbers of a training plan, each with its unit, read and blanked.

Runs before the numbers pass, so that "1M samples of 2k tokens", "within 24 h", "TPS 1800" or
"95% efficiency" are never read as a length, a budget or a model size. In token arithmetic a
count's k, M, B, 万 and 亿 are 10^3, 10^6, 10^9, 10^4 and 10^8 ("2k tokens each" is 2,000); a
sequence length keeps its own k ("8k" is 8192), so a lone "8k tokens" is left to the numbers
pass. Every pattern is one pass over the text, without nested repetition.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from mincards.bot.facts.vocabulary import Vocabulary
from mincards.bot.reading.asked import Workload
from mincards.bot.reading.phrases import compile_phrases, phrase_pattern

# A number as typed: 1800, 1,000,000, 0.95, or in CJK numerals (两, 二十四).
_DIGITS = r"(\d{1,3}(?:,\d{3})++(?![\d,])|\d++(?:\.\d++)?(?:e\+?\d{1,2}(?![\w.]))?)"
_JOIN = r"\s*+(?:[:=]|of|is|at|about|around|~|约|为|是)?\s*+"
# An efficiency said without '%' in this range is a percentage ("efficiency 95").
PLAUSIBLE_PERCENT = (50, 100)
# Large counts of tokens said without a marker are a dataset's total, never a length.
_TOTAL_AT_LEAST = 10**6


@dataclass
class _Found:
    workload: Workload
    text: str


class WorkloadReader:
    """Built once from the vocabulary; `cjk_number` reads CJK numerals (the numbers pass's)."""

    def __init__(self, vocabulary: Vocabulary, cjk_number: Callable[[str], int | None]) -> None:
        words = vocabulary.plan
        numbers = vocabulary.numbers
        self._cjk_number = cjk_number
        cjk = "".join(re.escape(c) for c in (*numbers.cjk_digits, *numbers.cjk_multipliers))
        # Not inside another number: 1,000,000 is read whole, never as its last 000.
        # Possessive runs, each read from its start only: a long run of digits, numerals or
        # spaces is one step, never retried from inside (linear in the text).
        number = rf"(?:(?<![\w.])(?<!\d,){_DIGITS}|(?<![{cjk or 'x'}])([{cjk or 'x'}]++))"
        self._scale = {k.lower(): v for k, v in words.scale.items()}
        ascii_scale = [k for k in self._scale if k.isascii()]
        cjk_scale = [k for k in self._scale if not k.isascii()]
        ascii_alternation = "|".join(sorted(map(re.escape, ascii_scale), key=len, reverse=True))
        scale = (rf"(?:\s*+(?:({ascii_alternation})(?![a-z0-9])"
                 rf"|({'|'.join(map(re.escape, cjk_scale)) or 'x'})))?")
        amount = number + scale  # groups: digits, cjk, ascii scale, cjk scale

        def p(ws: tuple[str, ...] | list[str]) -> str:
            return f"(?:{phrase_pattern(ws)})"

        tokens = p(words.tokens)
        self._hours = {k.lower(): v for k, v in words.hours.items()}
        # Group 3 after a number; a unit may touch its number ("24h", "2天").
        units = "(" + "|".join(
            re.escape(u) + ("(?![a-z0-9])" if u.isascii() else "")
            for u in sorted(self._hours, key=len, reverse=True)) + ")"
        # Each pattern with the words it cannot match without, found for all in one pass: a
        # question with none of them (most have none) is spared the substitutions.
        cjk_digits = cjk or "x"
        gates = {
            "tps": phrase_pattern([*words.tps_before, *words.tps_after]),
            "efficiency": phrase_pattern([*words.efficiency_before, *words.efficiency_after]),
            "tokens": phrase_pattern([*words.tokens, *words.total_before]),
            "samples": phrase_pattern(words.samples),
            "epochs": phrase_pattern([*words.epochs, *words.epochs_before]),
            "hours": rf"[\d{cjk_digits}]\s*+{units}",
        }
        self._gate_source = "|".join(f"(?P<{k}>{v})" for k, v in gates.items())
        # Compiled on first use (`_pattern`): a process answering one question compiles only
        # the patterns its words call for. (kind, the gate it needs, the pattern)
        self._sources: list[tuple[str, str, str]] = [
            ("tps", "tps", rf"{p(words.tps_before)}{_JOIN}{amount}"),
            ("tps", "tps", rf"{amount}\s*+{p(words.tps_after)}"),
            ("efficiency", "efficiency",
             rf"{p(words.efficiency_before)}{_JOIN}{number}\s*+(%)?"),
            ("efficiency", "efficiency", rf"{number}\s*+(%)?\s*+{p(words.efficiency_after)}"),
            ("sample_tokens", "tokens", rf"{p(words.per_sample_before)}\s*+{amount}\s*+{tokens}"),
            ("sample_tokens", "tokens", rf"{amount}\s*+{tokens}\s*+{p(words.per_sample_after)}"),
            ("tokens", "tokens", rf"{p(words.total_before)}\s*+{amount}\s*+{tokens}?"),
            ("samples", "samples", rf"{amount}\s*+{p(words.samples)}"),
            ("big_tokens", "tokens", rf"{amount}\s*+{tokens}"),
            ("epochs", "epochs", rf"{number}\s*+{p(words.epochs)}"),
            ("epochs", "epochs", rf"{p(words.epochs_before)}{_JOIN}{number}"),
            ("deadline", "hours", rf"{p(words.deadline_before)}\s*+{number}\s*+{units}"),
            ("deadline", "hours", rf"{number}\s*+{units}\s*+{p(words.deadline_after)}"),
        ]
        self._how_long_words = words.how_long
        self._how_long: re.Pattern[str] | None = None
        self._compiled: dict[str, re.Pattern[str]] = {}

    def _pattern(self, source: str) -> re.Pattern[str]:
        """The compiled pattern, compiled once (compiling twice from two threads is harmless)."""
        found = self._compiled.get(source)
        if found is None:
            found = self._compiled[source] = re.compile(source)
        return found

    def _value(self, digits: str | None, cjk: str | None) -> float | None:
        if digits:
            try:
                return float(digits.replace(",", ""))
            except ValueError:
                return None
        if cjk:
            found = self._cjk_number(cjk)
            return float(found) if found else None
        return None

    def _scaled(self, match: re.Match[str]) -> float | None:
        value = self._value(match.group(1), match.group(2))
        if value is None:
            return None
        scale = match.group(3) or match.group(4)
        return value * self._scale.get(scale.lower(), 1) if scale else value

    def read(self, text: str) -> _Found:
        found: dict[str, float] = {}
        if self._how_long is None:
            self._how_long = compile_phrases(self._how_long_words)
        asks_time = bool(self._how_long.search(text))

        def take(kind: str) -> Callable[[re.Match[str]], str]:
            def one(match: re.Match[str]) -> str:
                value = self._read(kind, match)
                if value is None:
                    return match.group(0)  # not this kind after all: left for later passes
                key = "tokens" if kind == "big_tokens" else kind
                if key in found:
                    # Said once already: a second reading is more likely a word of the first
                    # ("2000 tokens/s 两天内": "tokens/s 两" is no second TPS), left for others.
                    return match.group(0)
                found[key] = value
                return " "
            return one

        present = {m.lastgroup for m in self._pattern(self._gate_source).finditer(text)}
        for kind, gate, source in self._sources:
            if gate in present:
                text = self._pattern(source).sub(take(kind), text)
        counts = {k: round(found[k]) for k in ("tokens", "samples", "sample_tokens")
                  if k in found}
        workload = Workload(**counts, epochs=found.get("epochs"),
                            deadline_hours=found.get("deadline"), tps=found.get("tps"),
                            efficiency=found.get("efficiency"), asks_time=asks_time)
        return _Found(workload, text)

    def _read(self, kind: str, match: re.Match[str]) -> float | None:
        if kind in ("tps", "sample_tokens", "tokens", "samples", "big_tokens"):
            value = self._scaled(match)
            if value is None or value <= 0:
                return None
            if kind == "big_tokens" and value < _TOTAL_AT_LEAST:
                return None  # "8k tokens": a sequence length, as the numbers pass reads it
            return value
        value = self._value(match.group(1), match.group(2))
        if value is None or value < 0 or (value == 0 and kind != "efficiency"):
            return None  # an efficiency of 0 is read, to be refused with a note
        if kind == "efficiency":
            # "95%", or "efficiency 95" (a plausible percentage, 50 to 100), is a percentage;
            # anything else is taken as said, and the answer checks it is in (0, 1].
            percent = match.group(3) == "%" or PLAUSIBLE_PERCENT[0] <= value <= PLAUSIBLE_PERCENT[1]
            return value / 100 if percent else value
        if kind == "deadline":
            hours = self._hours.get(re.sub(r"\s+", "", match.group(3)))
            return value * hours if hours else None
        return value  # epochs
