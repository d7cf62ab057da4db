"""The other-hardware pass: chips the table has no figures for (A100, H800, "GPUs", 910A).

The table counts Ascend NPUs on its flavours; a question that names other hardware is told so
before any number. Each name goes from the text with a count right before it ("8x A100",
"16 GPUs"), kept as that hardware's amount, so no Ascend verdict is given for another chip's
budget.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mincards.bot.facts.vocabulary import Vocabulary
from mincards.bot.reading.phrases import phrase_pattern

_COUNT_BEFORE = r"(?<![\w.])(?P<count>\d{1,5})\s*(?:[x×*]|张|块|台|个)?\s*"


@dataclass
class OtherHardwareFound:
    named: list[str] = field(default_factory=list)  # as replies name them, each once
    # A count said with one ("8x A100"): a budget of that hardware, never judged as Ascend's.
    count: int | None = None
    text: str = ""


class OtherHardwareReader:
    def __init__(self, vocabulary: Vocabulary) -> None:
        words = vocabulary.other_hardware
        self._display: dict[str, str] = {}
        spellings: list[str] = []
        for word, display in words.names.items():
            # Letters then digits read with a separator or none: "H800", "h-800", "rtx4090".
            spelled = re.sub(r"(?<=[a-z])(?=\d)", " ", word.lower())
            spellings.append(spelled)
            self._display[_key(word)] = display
            if word[-1:].isdigit():
                spellings.append(spelled + "s")  # "A100s"
                self._display[_key(word) + "s"] = display
        self._generic = {words.names[w] for w in words.generic}
        names = phrase_pattern(spellings)
        self._any = re.compile(names) if self._display else None
        self._taken = re.compile(rf"(?:{_COUNT_BEFORE})?(?:{names})") if self._display else None

    def read(self, text: str) -> OtherHardwareFound:
        out = OtherHardwareFound(text=text)
        if self._any is None or not self._any.search(text):
            return out
        for found in self._any.finditer(text):
            display = self._display.get(_key(found.group(0)))
            if display is not None and display not in out.named:
                out.named.append(display)
        if any(n not in self._generic for n in out.named):
            out.named = [n for n in out.named if n not in self._generic]
        else:  # "英伟达显卡": one kind of hardware, said once
            out.named = out.named[:1]
        if self._taken is not None:
            counted = [int(m.group("count")) for m in self._taken.finditer(text)
                       if m.group("count")]
            out.count = counted[0] if counted else None
            out.text = self._taken.sub(" ", text)
        return out


def _key(word: str) -> str:
    return re.sub(r"[\s_-]+", "", word.strip().lower())
