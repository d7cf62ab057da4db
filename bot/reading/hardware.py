"""The hardware pass: amounts of hardware said as hardware, read as a budget before the other
passes take the text apart.

- a part of a node: "half a node", "a quarter node", "0.5 nodes", "1.5 nodes", "one and a half
  nodes", "半台机器", "一台半", "一个半节点": that share of a node's cards;
- machines of so many cards: "an 8-card 910B machine", "one 8-NPU server", "two 8-card
  machines", "2 machines of 8 cards", "两台8卡机器", "两台机器每台8卡": machines x cards;
- cards as a product: "2x8 NPUs", "4 x 8 cards": the product, in cards;
- chips: "4 x 910C", "8 910B": that many cards (the chip names the flavour, which the
  filters pass still reads: a chip or flavour word is left in the text).

What is read is blanked but for its flavour words; "8 cards", "2 nodes" and the page's
"8*Ascend" are the numbers pass's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from mincards.bot.facts.vocabulary import Vocabulary
from mincards.bot.reading.asked import BudgetUnit
from mincards.bot.reading.counts import CountReader
from mincards.bot.reading.phrases import phrase_pattern

_GAP = r"\s*+"
_TIMES = r"[x×*]"
_DECIMAL = r"(?<![\w.])(\d{1,4}\.\d{1,3})(?![\d.])"


@dataclass
class Hardware:
    budgets: list[tuple[int | float, BudgetUnit]] = field(default_factory=list)
    text: str = ""


def whole(count: float) -> int | float:
    """2.0 is 2: a count said with a decimal point that is whole is a whole count; a part
    (two thirds) to four places."""
    return int(count) if count == int(count) else round(count, 4)


class HardwareReader:
    """Built once from the vocabulary and the flavour names a question may use."""

    def __init__(self, vocabulary: Vocabulary, counts: CountReader,
                 flavour_words: Iterable[str] = ()) -> None:
        words = vocabulary.budget
        self.counts = counts
        self._parts = {re.sub(r"\s+", " ", k.lower()): v for k, v in words.part.items()}
        card = phrase_pattern(words.card)
        node = phrase_pattern(words.node)
        flavour = phrase_pattern([*flavour_words, *words.chips])
        # A flavour or chip word between, kept for the filters pass ("8-card 910B machine").
        named = rf"(?:(?P<flavour>{flavour}){_GAP})?"
        count = counts.pattern
        cjk = counts.cjk_class
        # The cards each machine holds: "2x8" has its 8 right after the x.
        plain = rf"(?P<cards>(?<![\d.])(?<![a-wyz])\d{{1,4}}(?![\d.])|(?<![{cjk}])[{cjk}]++)"
        part = phrase_pattern(list(self._parts))
        linking = phrase_pattern(words.linking)
        article = r"(?:(?:of\s++)?(?:a|an|one|the)\s++|of\s++)?"
        # Each shape: (its pattern, how a match becomes a count, the count's unit, the words it
        # cannot match without, "a|b" for either: a question lacking one is spared the shape).
        shape = Callable[[re.Match[str]], float | None]
        self._sources: list[tuple[str, shape, BudgetUnit, tuple[str, ...]]] = [
            # 两台8卡机器, an 8-card 910B machine, 2 x 8-card servers
            (rf"(?:{count}{_GAP}(?:{_TIMES}|{node})?{_GAP})?{plain}{_GAP}-?{_GAP}(?:{card})"
             rf"{_GAP}(?:(?:{linking}){_GAP})?{named}(?:{node})", self._machines, "card",
             ("card", "node")),
            # 2 machines of 8 cards (each), 两台机器每台8卡
            (rf"{count}{_GAP}{named}(?:{node}){_GAP}(?:{phrase_pattern(words.each)}){_GAP}"
             rf"{plain}{_GAP}(?:{named.replace('flavour', 'flavour2')})(?:{card})"
             rf"(?:{_GAP}each(?![a-z]))?", self._machines, "card", ("card", "node")),
            # 2x8 NPUs, 4 x 8 cards
            (rf"{count}{_GAP}{_TIMES}{_GAP}{plain}{_GAP}{named}(?:{card})", self._machines,
             "card", ("card", "times")),
            # one and a half nodes, 一个半节点
            (rf"{count}{_GAP}(?:{phrase_pattern(words.and_a_half)}){_GAP}{named}(?:{node})",
             self._and_a_half, "node", ("half", "node")),
            # 一台半 (a node word, then a half)
            (rf"{count}{_GAP}{named}(?:{node})(?:{phrase_pattern(words.half_after)})",
             self._and_a_half, "node", ("half", "node")),
            # 3/4 of a node, 1/2 node
            (rf"(?<![\d.])(\d{{1,2}})/(\d{{1,2}})(?![\d.]){_GAP}{article}{named}(?:{node})",
             self._fraction, "node", ("slash", "node")),
            # three quarters of a node, two thirds of a node
            (rf"{count}{_GAP}(?P<part>{part}){_GAP}{article}{named}(?:{node})", self._parts_of,
             "node", ("part|half", "node")),
            # half a node, a quarter node, 半台机器
            (rf"(?P<part>{part}){_GAP}{article}{named}(?:{node})", self._part, "node",
             ("part|half", "node")),
            # 0.5 nodes, 1.5 台
            (rf"{_DECIMAL}{_GAP}{named}(?:{node})", self._decimal, "node",
             ("decimal", "node")),
            # 4 x 910C: cards of the chip's flavour, unless a unit follows ("8 910B nodes")
            (rf"{count}{_GAP}(?:{_TIMES}{_GAP})?(?P<flavour>{phrase_pattern(words.chips)})"
             rf"(?!{_GAP}(?:{card}|{node}|{phrase_pattern(words.die)}))", self._count, "card",
             ("chip",)),
        ]
        gates = {
            "half": phrase_pattern([*words.and_a_half, *words.half_after]),
            "card": phrase_pattern(words.card), "node": phrase_pattern(words.node),
            "chip": phrase_pattern(words.chips), "part": part,
            "times": rf"\d{_GAP}{_TIMES}", "slash": r"\d/\d", "decimal": r"\d\.\d",
        }
        # Which of those a question holds, found in one pass. Their words overlap (半 is a part
        # of a node, and the half of 一台半): "half" comes first, and a part's shapes take it.
        self._gate = re.compile("|".join(f"(?P<{k}>{v})" for k, v in gates.items()))
        # Compiled on the first question that names hardware: most name none, and a process
        # answering one question is spared some 10 ms of compiling.
        self._shapes: list[tuple[re.Pattern[str], shape, BudgetUnit, tuple[str, ...]]] | None = (
            None)

    def _compiled(self) -> list[tuple[re.Pattern[str], Callable[[re.Match[str]], float | None],
                                      BudgetUnit, tuple[str, ...]]]:
        if self._shapes is None:  # compiling twice from two threads is harmless
            self._shapes = [(re.compile(source), value, unit, needs)
                            for source, value, unit, needs in self._sources]
        return self._shapes

    def _count(self, match: re.Match[str]) -> float | None:
        return self.counts.read(*match.group(1, 2, 3, 4))

    def _machines(self, match: re.Match[str]) -> float | None:
        said = match.group(1, 2, 3, 4)
        machines = self.counts.read(*said) if any(said) else 1
        digits = match.group("cards")
        cards = int(digits) if digits.isdigit() else self.counts.cjk_number(digits)
        if machines is None or cards is None:
            return None
        return machines * cards

    def _and_a_half(self, match: re.Match[str]) -> float | None:
        count = self._count(match)
        return None if count is None else count + 0.5

    def _part(self, match: re.Match[str]) -> float | None:
        return self._parts.get(re.sub(r"\s+", " ", match.group("part")))

    def _fraction(self, match: re.Match[str]) -> float | None:
        top, bottom = int(match.group(1)), int(match.group(2))
        return top / bottom if top > 0 and bottom > 0 else None

    def _parts_of(self, match: re.Match[str]) -> float | None:
        count, part = self._count(match), self._part(match)
        return None if count is None or part is None or count <= 0 else count * part

    def _decimal(self, match: re.Match[str]) -> float | None:
        return float(match.group(1))

    def read(self, text: str) -> Hardware:
        out = Hardware(text=text)
        present = {m.lastgroup for m in self._gate.finditer(text)}
        if not present or present == {"card"} or present == {"node"}:
            return out  # "8 cards", "2 nodes", or no hardware at all: the numbers pass's
        for pattern, value, unit, needs in self._compiled():
            if not all(any(k in present for k in alternatives.split("|"))
                       for alternatives in needs):
                continue

            def one(match: re.Match[str], value: Callable[[re.Match[str]], float | None] = value,
                    unit: BudgetUnit = unit) -> str:
                count = value(match)
                if count is None:
                    return match.group(0)
                out.budgets.append((whole(count), unit))
                kept = [v for k, v in match.groupdict().items() if k.startswith("flavour") and v]
                return f" {' '.join(kept)} "

            out.text = pattern.sub(one, out.text)
        return out
