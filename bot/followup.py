"""What a button asks when clicked: a model picked from a choice, keeping the question's narrowing.

Encoded compactly into a Block Kit button value (at most 2000 characters).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.answer import Answer
from bot.language import Language
from bot.table import is_id

# Kept short: a question is re-read from this much of its text, enough for any real question.
MAX_TEXT = 1000


@dataclass(frozen=True)
class FollowUp:
    language: Language
    model: str | None = None
    text: str | None = None
    strategies: tuple[str, ...] = ()
    seq_lens: tuple[int, ...] = ()
    frameworks: tuple[str, ...] = ()
    flavours: tuple[str, ...] = ()

    @classmethod
    def pick(cls, answer: Answer, model: str) -> FollowUp:
        return cls(language=answer.language, model=model, strategies=answer.strategies,
                   seq_lens=answer.seq_lens, frameworks=answer.frameworks, flavours=answer.flavours)

    @classmethod
    def same(cls, answer: Answer, question: str) -> FollowUp:
        """Ask the same again (the 'post to channel' button)."""
        if answer.intent in ("lookup", "not_covered") and len(answer.models) == 1:
            return cls.pick(answer, answer.models[0])
        return cls(language=answer.language, text=question[:MAX_TEXT])

    def encode(self) -> str:
        data: dict[str, object] = {"l": self.language}
        for key, value in (("m", self.model), ("t", self.text), ("s", list(self.strategies)),
                           ("q", list(self.seq_lens)), ("f", list(self.frameworks)),
                           ("h", list(self.flavours))):
            if value:
                data[key] = value
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def decode(cls, value: str) -> FollowUp | None:
        """None for anything that is not a value we wrote (a forged or stale button)."""
        try:
            data = json.loads(value)
        except (TypeError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("l") not in ("en", "zh"):
            return None
        model, text = data.get("m"), data.get("t")
        if not (isinstance(model, str) or isinstance(text, str)):
            return None

        def ids(key: str) -> tuple[str, ...]:
            # Ids only; the engine answers a strategy or framework the table lacks as such.
            items = data.get(key) or []
            return tuple(i for i in items if isinstance(i, str) and len(i) <= 40 and is_id(i)
                         )[:10] if isinstance(items, list) else ()

        seqs = data.get("q") or []
        return cls(language=data["l"], model=model if isinstance(model, str) else None,
                   text=text[:MAX_TEXT] if isinstance(text, str) else None,
                   strategies=ids("s"),
                   seq_lens=tuple(int(q) for q in seqs if isinstance(q, int) and 0 < q < 10**7)
                   if isinstance(seqs, list) else (),
                   frameworks=ids("f"), flavours=ids("h"))
