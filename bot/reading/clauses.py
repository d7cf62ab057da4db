"""The clauses pass: which parts of a question are the question, and which are context.

People say more than they ask: "last month we ran a 14B on 16 cards. how many for llama3.1-70b
lora?", "We fine-tuned a 7B before; now Qwen2.5-72B LoRA at 4096?", "之前跑过一个7B，现在
qwen2.5-72b lora 要几张卡". A clause with a word about the past or other work (the vocabulary's
`[clauses] context`) is context. This pass only finds them; the question reader decides, once
it has read the rest, whether they are left out (another clause names a model) or read with
the rest (nothing else does: "we trained qwen2.5-72b lora last week. does it fit on 16 cards?").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mincards.bot.facts.vocabulary import Vocabulary
from mincards.bot.reading.phrases import phrase_pattern

# Ends of clauses: sentence marks, a comma not inside a number, dashes; "2.5" is no end.
_ENDS = r"[;?!。；？！\n]|\.(?!\w)|[,，](?!\d{3})|\s[—–-]+\s|—|–"


@dataclass(frozen=True)
class Split:
    asked: str  # the text with its context clauses blanked
    context: str  # the context clauses alone


class ClauseReader:
    def __init__(self, vocabulary: Vocabulary) -> None:
        words = vocabulary.clauses
        self._context = re.compile(phrase_pattern(words.context)) if words.context else None
        breaks = phrase_pattern(words.breaks) if words.breaks else r"(?!x)x"
        # A break word starts the next clause: the text is cut before it, never through it.
        self._ends = re.compile(rf"(?:{_ENDS})|(?=(?:{breaks}))")

    def split(self, text: str) -> Split | None:
        """The question apart from its context clauses; None when it has none, or is nothing
        but context."""
        if self._context is None or not self._context.search(text):
            return None  # most questions: one look, no clauses to cut
        clauses = [c for c in self._ends.split(text) if c.strip()]
        context = [c for c in clauses if self._context.search(c)]
        asked = [c for c in clauses if not self._context.search(c)]
        if not asked:
            return None
        return Split(asked=" . ".join(asked), context=" . ".join(context))
