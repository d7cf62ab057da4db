"""Follow-ups: what a conversation (a DM, a thread) asked last, and how a new question continues it.

The context is the parsed question, never the person's text: model keys, name parts, strategy,
lengths, filters, budget. It lives behind `ContextStore`; `MemoryContexts` keeps it in this
process, bounded in count and age. A store shared by several processes implements the same two
methods and keeps `Context.json()`.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from mincards.bot.answering.answer import Answer
from mincards.bot.answering.matching import Matcher
from mincards.bot.answering.resolve import refine
from mincards.bot.facts.table import is_id
from mincards.bot.language import LANGUAGES, Language
from mincards.bot.reading.asked import Budget, NameParts, Workload
from mincards.bot.reading.names import Mention
from mincards.bot.reading.question import Question

Kind = Literal["lookup", "compare", "capacity", "ambiguous", "plan"]
KINDS: tuple[Kind, ...] = ("lookup", "compare", "capacity", "ambiguous", "plan")
# A conversation left this long is a new one; this many are kept at most (oldest go first).
KEEP_SECONDS = 6 * 3600
MAX_CONTEXTS = 10_000
_QUANT_WORD = re.compile(r"[a-z0-9_]{1,12}")
# How a reply names other hardware ("A100", "RTX 4090", "Ascend 910A"): a stored context
# holding anything else is not shown back.
_HARDWARE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 .]{0,29}")


@dataclass(frozen=True)
class Context:
    kind: Kind
    language: Language
    models: tuple[str, ...] = ()
    pending: NameParts | None = None  # the name "which one?" asked about
    compare_with: tuple[str, ...] = ()
    strategies: tuple[str, ...] = ()
    seq_lens: tuple[int, ...] = ()
    frameworks: tuple[str, ...] = ()
    flavours: tuple[str, ...] = ()
    budget: Budget | None = None
    # A plan's inputs, kept so "what if TPS is 2500?" changes only that.
    workload: Workload | None = None
    # The model the table does not list that the answer stood in for (stand_ins.toml's display
    # name), and the quantization a quantized copy was named with.
    stand_in: str | None = None
    quantized: tuple[str, ...] = ()
    # What fits a budget, asked as "the largest that fits".
    largest: bool = False
    # Hardware the table has no figures for that the thread asked about ("A100"): its
    # follow-ups are still read as that hardware's, and told so.
    other_hardware: tuple[str, ...] = ()

    def json(self) -> dict[str, Any]:
        return {"kind": self.kind, "language": self.language, "models": list(self.models),
                "pending": self.pending.json() if self.pending else None,
                "compare_with": list(self.compare_with), "strategies": list(self.strategies),
                "seq_lens": list(self.seq_lens), "frameworks": list(self.frameworks),
                "flavours": list(self.flavours),
                "budget": self.budget.json() if self.budget else None,
                "workload": self.workload.json() if self.workload else None,
                "stand_in": self.stand_in, "quantized": list(self.quantized),
                "largest": self.largest, "other_hardware": list(self.other_hardware)}

    @classmethod
    def from_json(cls, data: Any) -> Context | None:
        """None for anything that is not a context this code wrote."""
        if not isinstance(data, dict) or data.get("kind") not in KINDS or data.get(
                "language") not in LANGUAGES:
            return None

        def texts(key: str, check: Any = is_id) -> tuple[str, ...]:
            value = data.get(key)
            if not isinstance(value, list):
                return ()
            return tuple(v for v in value[:10] if isinstance(v, str) and len(v) <= 80
                         and (check is None or check(v)))

        lengths = data.get("seq_lens")
        return cls(kind=data["kind"], language=data["language"],
                   models=texts("models", None), pending=NameParts.from_json(data.get("pending")),
                   compare_with=texts("compare_with", None), strategies=texts("strategies"),
                   seq_lens=tuple(n for n in lengths[:10] if type(n) is int and 0 < n < 10**7)
                   if isinstance(lengths, list) else (),
                   frameworks=texts("frameworks"), flavours=texts("flavours"),
                   budget=Budget.from_json(data.get("budget")),
                   workload=Workload.from_json(data.get("workload")),
                   stand_in=stand_in if isinstance(stand_in := data.get("stand_in"), str)
                   and len(stand_in) <= 80 else None,
                   quantized=texts("quantized", _QUANT_WORD.fullmatch),
                   largest=data.get("largest") is True,
                   other_hardware=texts("other_hardware", _HARDWARE_NAME.fullmatch))


class ContextStore(Protocol):
    """Where contexts live between questions, by conversation key."""

    def get(self, key: str) -> Context | None: ...

    def put(self, key: str, context: Context | None) -> None:
        """Keep `context` for `key`; None forgets it."""


@dataclass
class MemoryContexts:
    """Contexts in this process: at most `max_contexts`, each for `keep_seconds`; thread-safe."""

    keep_seconds: float = KEEP_SECONDS
    max_contexts: int = MAX_CONTEXTS
    _items: OrderedDict[str, tuple[float, Context]] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def get(self, key: str) -> Context | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            if item[0] < time.monotonic() - self.keep_seconds:
                del self._items[key]
                return None
            return item[1]

    def put(self, key: str, context: Context | None) -> None:
        with self._lock:
            self._items.pop(key, None)
            if context is None:
                return
            self._items[key] = (time.monotonic(), context)
            while len(self._items) > self.max_contexts:
                self._items.popitem(last=False)


def context_of(answer: Answer) -> Context:
    """The parsed question an answer answered; for a name the table lacks, its narrowing alone
    (a suggestion button picks the model)."""
    kind: Kind = {"not_covered": "lookup", "compare": "compare", "capacity": "capacity",
                  "lookup": "lookup", "plan": "plan"}.get(
        answer.intent, "ambiguous")  # type: ignore[assignment]
    use = answer.stand_in
    models = answer.models
    stand_in: str | None = None
    if use is not None and use.relation == "same_architecture":
        kind = "plan" if answer.intent == "plan" else "lookup"
        models, stand_in = (use.model,), use.asked
    quantized = use.quantized if use is not None else ()
    # Filters a person's settings supplied are not the question's: they are applied afresh to
    # each question and button (so a changed setting, or "Show all", holds for what follows).
    settings = answer.note("from_settings")
    taken = settings.args if settings is not None else {}
    other = answer.note("other_hardware")
    return Context(kind=kind, language=answer.language, models=models,
                   pending=answer.pending, compare_with=answer.compare_with,
                   strategies=answer.strategies, seq_lens=answer.seq_lens,
                   frameworks=() if "frameworks" in taken else answer.frameworks,
                   flavours=() if "flavours" in taken else answer.flavours,
                   budget=answer.budget,
                   workload=answer.workload,
                   stand_in=stand_in, quantized=quantized, largest=answer.largest,
                   other_hardware=tuple(other.args["hardware"]) if other is not None else ())


def context_after(answer: Answer, previous: Context | None) -> Context | None:
    """What to remember after an answer: help and lists keep the conversation as it was, a name
    the table lacks ends it, anything else is the new context."""
    if answer.intent in ("help", "list"):
        return previous
    if answer.intent == "not_found" and answer.stand_in is None:
        return None
    return context_of(answer)


def _changes(question: Question) -> bool:
    return bool(question.strategies or question.seq_lens or question.frameworks
                or question.flavours or question.budget or question.uncovered_stage
                or question.named or question.loose or question.workload.said)


def _stands_alone(question: Question) -> bool:
    """Help, the model list and a new "what fits" question start afresh. A question that names
    its own model does not: it replaces the model, and what the thread set (strategy, length,
    budget, flavour, framework) stays until the person changes it."""
    named = question.named
    if question.wants_help or (question.wants_list and not question.budget):
        return True
    return bool(question.wants_capacity and question.budget and not named)


def _names_its_own(question: Question, matcher: Matcher, base: NameParts | None) -> bool:
    """Whether the question names its models by themselves ("and qwen2.5-72b?", "same for
    mixtral?", "那 llama3.1-70b 呢"), rather than a part of the thread's model ("the 72b?")."""
    named = question.named
    if len(named) > 1:
        return True
    if not named:
        return False
    mention = named[0]
    if mention.other_family or (mention.family and base is not None
                                and mention.family != base.family):
        return True
    return bool(mention.family and len(matcher.match(mention).models) == 1)


def _parts(matcher: Matcher, model: str) -> NameParts | None:
    if model not in matcher.catalogue.models:
        return None
    info = matcher.catalogue[model]
    return NameParts(family=info.family, versions=frozenset(info.versions),
                     variants=frozenset(info.variants), size=info.size, active=info.active)


def _naming(matcher: Matcher, model: str) -> Mention:
    parts = _parts(matcher, model)
    return refine(parts, NameParts()) if parts else Mention()


def _mentions(question: Question, previous: Context, matcher: Matcher) -> list[Mention] | None:
    """The models the continued question is about: its own when it names them, else the
    thread's, refined by what it says ("the 72b?"); None when there is nothing to refine."""
    change: Mention | NameParts | None = question.mention or question.loose
    if previous.kind == "capacity":
        # What fits a budget, over the table or over a family: a new family narrows it.
        if isinstance(change, Mention):
            return [change]
        return [refine(previous.pending, change or NameParts())] if previous.pending else []
    single = _parts(matcher, previous.models[0]) if len(previous.models) == 1 else None
    base = previous.pending or single
    if _names_its_own(question, matcher, base):
        return list(question.named)
    if change is None:
        if previous.kind == "ambiguous" and previous.pending:
            change = NameParts()
        else:
            return [_naming(matcher, m) for m in previous.models]
    if base is None:
        return None  # nothing to refine: a question of its own
    refined = refine(base, change)
    if previous.kind == "ambiguous" and previous.compare_with:
        return [refined if m == "" else _naming(matcher, m) for m in previous.compare_with]
    return [refined]


def continue_question(question: Question, previous: Context, matcher: Matcher
                      ) -> Question | None:
    """The question as a continuation of `previous` (what it does not change is kept), or None
    when it stands on its own."""
    if _stands_alone(question) or not _changes(question):
        return None
    mentions = _mentions(question, previous, matcher)
    if mentions is None:
        return None
    budget = question.budget or previous.budget
    workload = question.workload
    if previous.workload is not None:
        workload = previous.workload.updated(workload)
        # A plan's count comes from a budget or a deadline: the one said last wins.
        if question.workload.deadline_hours is not None and question.budget is None:
            budget = None
        elif question.budget is not None and question.workload.deadline_hours is None:
            workload = replace(workload, deadline_hours=None)
        if previous.kind == "plan" and not workload.asks_plan:
            # A plan's follow-up ("what about 32 cards?") asks the plan again.
            workload = replace(workload, asks_time=True)
    if budget is not None and len(question.flavours) == 1:
        budget = Budget(budget.count, budget.unit, next(iter(question.flavours)))
    same_model = question.mention is None and question.loose is None
    return Question(
        text=question.text, language=question.language,
        mentions=[_quantized(m, previous) if same_model else m for m in mentions if m.named],
        wants_capacity=previous.kind == "capacity",
        wants_largest=question.wants_largest or (previous.kind == "capacity" and previous.largest),
        strategies=question.strategies or set(previous.strategies),
        seq_lens=question.seq_lens or list(previous.seq_lens),
        frameworks=question.frameworks or set(previous.frameworks),
        flavours=question.flavours or set(previous.flavours),
        uncovered_stage=question.uncovered_stage, stage_strategy=question.stage_strategy,
        other_hardware=question.other_hardware or list(previous.other_hardware),
        budget=budget, workload=workload,
        stand_in=previous.stand_in if same_model else None)


def _quantized(mention: Mention, previous: Context) -> Mention:
    """The same quantized copy as before, when the follow-up keeps the model."""
    if previous.quantized:
        mention.quantized = list(previous.quantized)
    return mention


def replay(context: Context, matcher: Matcher, pick: str | None = None) -> Question:
    """The question a context holds, asked again; `pick` answers its "which one?"."""
    if pick is not None:
        slots = context.compare_with or ("",)
        mentions = [_naming(matcher, pick if m == "" else m) for m in slots]
    else:
        mentions = _mentions(Question(text="", language=context.language), context,
                             matcher) or []
    return Question(
        text="", language=context.language,
        mentions=[m if pick else _quantized(m, context) for m in mentions if m.named],
        wants_capacity=context.kind == "capacity", wants_largest=context.largest,
        strategies=set(context.strategies),
        seq_lens=list(context.seq_lens), frameworks=set(context.frameworks),
        flavours=set(context.flavours), budget=context.budget,
        workload=context.workload or Workload(),
        stand_in=None if pick else context.stand_in)
