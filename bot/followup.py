"""What a button asks when clicked: a model picked from a choice, keeping the question's narrowing.

Encoded compactly into a Block Kit button value (at most 2000 characters).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.answer import Answer
from bot.question import Language
from bot.table import FLAVOURS, FRAMEWORKS, STRATEGIES, Flavour, Framework, Strategy

# Kept short: a question is re-read from this much of its text, enough for any real question.
MAX_TEXT = 1000


@dataclass(frozen=True)
class FollowUp:
    language: Language
    model: str | None = None
    text: str | None = None
    strategies: tuple[Strategy, ...] = ()
    seq_lens: tuple[int, ...] = ()
    frameworks: tuple[Framework, ...] = ()
    flavours: tuple[Flavour, ...] = ()

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

        def pick(key: str, allowed: tuple[str, ...]) -> tuple[str, ...]:
            items = data.get(key) or []
            return tuple(i for i in items if i in allowed) if isinstance(items, list) else ()

        seqs = data.get("q") or []
        return cls(language=data["l"], model=model if isinstance(model, str) else None,
                   text=text[:MAX_TEXT] if isinstance(text, str) else None,
                   strategies=pick("s", STRATEGIES),  # type: ignore[arg-type]
                   seq_lens=tuple(int(q) for q in seqs if isinstance(q, int) and 0 < q < 10**7)
                   if isinstance(seqs, list) else (),
                   frameworks=pick("f", FRAMEWORKS),  # type: ignore[arg-type]
                   flavours=pick("h", FLAVOURS))  # type: ignore[arg-type]
