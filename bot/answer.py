"""An answer as plain data: which intent, which models and entries, and the notes that apply."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from bot.language import Language
from bot.table import Entry

Intent = Literal["lookup", "ambiguous", "not_found", "not_covered", "list", "help"]
INTENTS: tuple[Intent, ...] = ("lookup", "ambiguous", "not_found", "not_covered", "list", "help")


@dataclass(frozen=True)
class Note:
    """A caveat or remark; `kind` picks the sentence, `args` fill it in (see bot/i18n.py)."""

    kind: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Answer:
    intent: Intent
    language: Language
    models: tuple[str, ...] = ()
    candidates: tuple[str, ...] = ()
    rows: tuple[Entry, ...] = ()
    notes: tuple[Note, ...] = ()
    # What the person named, as parsed (only [a-z0-9._-]), to say back what was read.
    asked: str = ""
    # The question's own narrowing, kept so a follow-up (a button) can ask again with it.
    strategies: tuple[str, ...] = ()
    seq_lens: tuple[int, ...] = ()
    # Frameworks named, the table's first; a named one the table lacks is kept so a follow-up
    # still says so.
    frameworks: tuple[str, ...] = ()
    flavours: tuple[str, ...] = ()

    def note(self, kind: str) -> Note | None:
        return next((n for n in self.notes if n.kind == kind), None)
