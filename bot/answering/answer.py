"""An answer as plain data: which intent, which models and entries, and the notes that apply."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from mincards.bot.answering.budget import Fits
from mincards.bot.answering.compare import Side
from mincards.bot.answering.stand_in import StandInUse
from mincards.bot.facts.table import Entry
from mincards.bot.language import Language
from mincards.bot.reading.asked import Budget, NameParts, Workload

if TYPE_CHECKING:
    # Only named here: their modules load when a bracket or a plan is first worked out, so a
    # start that answers neither does not pay for them.
    from mincards.bot.answering.bracket import Bracket
    from mincards.bot.answering.plan import Plan
    from mincards.bot.estimating.estimate import Estimate

Intent = Literal["lookup", "ambiguous", "not_found", "not_covered", "list", "help", "capacity",
                 "compare", "plan"]
INTENTS: tuple[Intent, ...] = ("lookup", "ambiguous", "not_found", "not_covered", "list", "help",
                               "capacity", "compare", "plan")


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
    # The same name written as the table writes names (Qwen2.5-3B), to show the person.
    asked_display: str = ""
    # The question's own narrowing, kept so a follow-up (a button) can ask again with it.
    strategies: tuple[str, ...] = ()
    seq_lens: tuple[int, ...] = ()
    # Frameworks named, the table's first; a named one the table lacks is kept so a follow-up
    # still says so.
    frameworks: tuple[str, ...] = ()
    flavours: tuple[str, ...] = ()
    budget: Budget | None = None
    # What the budget gives on each flavour it covers, in that flavour's unit.
    room: Mapping[str, int] = field(default_factory=dict)
    # Per row (by its key), whether it fits the budget on each framework and covered flavour.
    fits: Mapping[tuple[str, str, int], Fits] = field(default_factory=dict)
    # The name "which one?" asks about, to be refined by the answer (never the person's words).
    pending: NameParts | None = None
    # What fits a budget, asked as "the largest that fits": the largest is said first.
    largest: bool = False
    # In a comparison that waits on "which one?": the other models, "" where the pick goes.
    compare_with: tuple[str, ...] = ()
    # A comparison's verdicts: per entry and flavour, which model needs fewer.
    comparison: tuple[Side, ...] = ()
    # The table model answering for a model it does not list (same architecture, quantized).
    stand_in: StandInUse | None = None
    # A model the table lacks: the table's nearest smaller and larger models of its kind.
    bracket: Bracket | None = None
    # A model the table lacks by name, with a shape: the estimator's counts for it (never the
    # table's; only ever beside a bracket or a stand-in).
    estimate: Estimate | None = None
    # Where the flavours and frameworks it is narrowed to came from: "settings" (the person's
    # or workspace's preferences), "question", or None (not narrowed).
    filters_from: str | None = None
    # Time and cluster size by the page's formula.
    plan: Plan | None = None
    # What a plan was asked with, kept on any answer (a "which one?" before the plan).
    workload: Workload | None = None

    def shown(self) -> Answer:
        """The answer as its entries are shown: a model of a table model's architecture is
        shown as that model's lookup (its lead says whose entries they are)."""
        if self.intent == "not_found" and self.stand_in and self.stand_in.rows:
            return replace(self, intent="lookup", models=(self.stand_in.model,),
                           rows=self.stand_in.rows)
        return self

    def note(self, kind: str) -> Note | None:
        return next((n for n in self.notes if n.kind == kind), None)
