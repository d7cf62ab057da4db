"""Resolve a read question against the table: pick the intent, the entries and the notes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING

from mincards.bot.answering import budget as budgets
from mincards.bot.answering.answer import Answer, Intent, Note
from mincards.bot.answering.compare import compare
from mincards.bot.answering.matching import Matcher
from mincards.bot.answering.stand_in import StandInFinder, StandInUse
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.facts.sizes import size_value
from mincards.bot.facts.stand_ins import StandIn
from mincards.bot.facts.table import Entry
from mincards.bot.reading.asked import NameParts
from mincards.bot.reading.names import Mention, display_name, kind_of
from mincards.bot.reading.question import Question

if TYPE_CHECKING:
    from mincards.bot.answering.bracket import Bracket, Size
    from mincards.bot.answering.known_sizes import KnownSizeFinder
    from mincards.bot.answering.planning import Planner
    from mincards.bot.estimating.estimate import Estimate
    from mincards.bot.estimating.shape import Shape

MAX_SUGGESTIONS = 3


def _in_order(wanted: Iterable[str], order: Iterable[str]) -> tuple[str, ...]:
    """`wanted` in the order of `order`, then any it lacks, sorted."""
    wanted = set(wanted)
    known = [k for k in order if k in wanted]
    return (*known, *sorted(wanted - set(known)))


def _has(entries: Iterable[Entry]) -> list[tuple[str, list[int]]]:
    """What the table lists for a model: each strategy with its sequence lengths."""
    out: dict[str, list[int]] = {}
    for e in entries:
        out.setdefault(e.strategy, [])
        if e.seq_len not in out[e.strategy]:
            out[e.strategy].append(e.seq_len)
    return [(s, sorted(v)) for s, v in out.items()]


def parts_of(mention: Mention) -> NameParts:
    return NameParts(family=mention.family, versions=frozenset(mention.versions),
                     variants=frozenset(mention.variants), size=mention.size,
                     active=mention.active)


def refine(base: NameParts, change: Mention | NameParts) -> Mention:
    """`base` with what `change` says instead: "the 72b" after Qwen2.5-32B is Qwen2.5-72B."""
    return Mention(family=base.family, versions=set(change.versions or base.versions),
                   variants=set(change.variants or base.variants),
                   size=change.size or base.size, active=change.active or base.active,
                   words=[w for w in (base.family, *sorted(change.versions or base.versions),
                                      change.size or base.size) if w])


def order_caveats(knowledge: Knowledge, model: str, rows: tuple[Entry, ...]) -> list[Note]:
    """Where the table lists a heavier strategy below a lighter one (full below LoRA) at the
    lengths shown: almost surely an error in the source."""
    notes: list[Note] = []
    table = knowledge.table
    all_entries = table.entries_for(model)
    for fw in table.framework_ids:
        for seq in sorted({e.seq_len for e in rows}):
            by = {e.strategy: e for e in all_entries if e.seq_len == seq}
            for lighter, words in knowledge.vocabulary.strategies.items():
                heavier = words.needs_no_more_than
                if not heavier or lighter not in by or heavier not in by:
                    continue
                if any((h := by[heavier].count(fw, fl)) is not None
                       and (li := by[lighter].count(fw, fl)) is not None and h < li
                       for fl in table.flavours):
                    notes.append(Note("suspect_strategy_order", {
                        "model": model, "framework": fw, "seq_len": seq, "heavier": heavier,
                        "lighter": lighter}))
    return notes


def unit_caveats(knowledge: Knowledge, rows: Iterable[Entry]) -> list[Note]:
    """Counts below a flavour's advice (a full node) or its smallest parallel unit (2 DIE)."""
    notes: list[Note] = []
    table = knowledge.table
    lowest: dict[str, int] = {}
    for e in rows:
        for fw in table.framework_ids:
            for fl in table.flavours:
                c = e.count(fw, fl)
                if c is not None and c < lowest.get(fl, c + 1):
                    lowest[fl] = c
    for fl in table.flavours:
        info = knowledge.hardware.flavours[fl]
        if fl not in lowest:
            continue
        if info.advise_node_below and lowest[fl] < info.advise_node_below:
            notes.append(Note("below_node", {"cards": info.advise_node_below, "flavour": fl}))
        if info.min_parallel_unit and lowest[fl] < info.min_parallel_unit:
            notes.append(Note("die_below_unit", {"unit": info.min_parallel_unit,
                                                 "count": lowest[fl], "flavour": fl}))
    return notes


def caveats(knowledge: Knowledge, model: str, rows: tuple[Entry, ...]) -> list[Note]:
    """The table's caveats that apply to these rows of one model."""
    return order_caveats(knowledge, model, rows) + unit_caveats(knowledge, rows)


@dataclass
class _Scope:
    """What a question narrows to, once checked against the table."""

    frameworks: set[str] = field(default_factory=set)
    refusal: Note | None = None  # the question asks what this table version cannot answer
    notes: list[Note] = field(default_factory=list)


@dataclass
class _Selection:
    rows: list[Entry] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    reason: Note | None = None  # why nothing was selected


class Resolver:
    def __init__(self, knowledge: Knowledge, matcher: Matcher,
                 stand_ins: StandInFinder | None = None,
                 known_sizes: KnownSizeFinder | None = None) -> None:
        self.knowledge = knowledge
        self.matcher = matcher
        self.stand_ins = stand_ins
        self.known_sizes = known_sizes
        self.needs = budgets.Needs(knowledge.table, knowledge.hardware)
        rank = {s: i for i, s in enumerate(knowledge.strategies)}
        # Each model's entries strategy by strategy (full before LoRA), shortest length first.
        self._ordered = {m: sorted(knowledge.table.entries_for(m),
                                   key=lambda e: (rank.get(e.strategy, len(rank)), e.seq_len))
                         for m in knowledge.table.models()}

    @cached_property
    def planner(self) -> Planner:
        # Imported on the first plan: most processes answer none, and start faster without.
        from mincards.bot.answering.planning import Planner

        return Planner(self.knowledge)

    def _base(self, question: Question, intent: Intent,
              frameworks: Iterable[str] | None = None, **kw: object) -> Answer:
        mention = kw.pop("named", question.mention)
        assert mention is None or isinstance(mention, Mention)
        asked = mention.spelled() if mention else ""
        kw["asked_display"] = display_name(self.knowledge.vocabulary, mention) if mention else ""
        if question.workload.said:
            kw.setdefault("workload", question.workload)
        if question.budget and "room" not in kw:
            kw["room"] = self._room(question)
        return Answer(
            intent=intent, language=question.language, asked=asked,
            strategies=_in_order(question.strategies, self.knowledge.strategies),
            seq_lens=tuple(question.seq_lens),
            frameworks=_in_order(question.frameworks if frameworks is None else frameworks,
                                 self.knowledge.framework_names),
            flavours=_in_order(question.flavours, self.knowledge.table.flavours),
            budget=question.budget,
            **kw,  # type: ignore[arg-type]
        )

    def _room(self, question: Question) -> dict[str, int]:
        """What the question's budget gives on each flavour it covers: the flavours it names
        (or its preferences narrowed it to), else every flavour of the table."""
        assert question.budget is not None
        flavours = [f for f in self.knowledge.table.flavours
                    if not question.flavours or f in question.flavours]
        return budgets.capacity(question.budget, self.knowledge.hardware, flavours)

    def _reference(self) -> Note:
        return Note("reference", {"date": self.knowledge.table.source.date_text()})

    def resolve(self, question: Question) -> Answer:
        if question.stand_in and (item := self.knowledge.stand_ins.get(question.stand_in)):
            # A follow-up about a model the table does not list: its stand-in again.
            return self._stand_in(question, item)
        named = self._without_remarks(question.named)
        if not named:
            if question.budget and not question.wants_help:
                return self._capacity(question, self.knowledge.table.models())
            if question.wants_list:
                return self._list(question, self.knowledge.table.models())
            notes = []
            if question.text.strip() and not question.wants_help:
                notes.append(Note("no_model"))
            return self._base(question, "help", notes=tuple(notes))
        if len(named) > 1:
            return self._several(question, named)
        mention = named[0]
        match = self.matcher.match(mention)
        if (question.budget and (question.wants_capacity or question.wants_list)
                and len(match.models) > 1):
            return self._capacity(question, tuple(i.key for i in match.models),
                                  pending=parts_of(mention))
        if (question.wants_list and match.models and not mention.size
                and len(match.models) > 1):
            return self._list(question, tuple(i.key for i in match.models))
        if not match.models:
            return self._unmatched(question, mention)
        if len(match.models) > 1:
            return self._base(question, "ambiguous", pending=parts_of(mention),
                              candidates=tuple(i.key for i in match.models))
        info = match.models[0]
        release = self.stand_ins.find_release(mention) if self.stand_ins else None
        if release is not None and release.model == info.key:
            # A dated re-release the data knows as a model of its own (Qwen3-4B-Instruct-2507):
            # said to be one, with the table model's entries as its reference.
            return self._stand_in(question, release)
        extra: list[Note] = []
        if match.assumed:
            extra.append(Note("assumed", {"model": info.key, "what": list(match.assumed)}))
        return self._one(question, info.key, extra, self._quantized(mention, info.key))

    def _one(self, question: Question, model: str, extra: list[Note],
             stand_in: StandInUse | None = None) -> Answer:
        """One table model: a plan when the question says what to plan with, else a lookup."""
        if question.workload.asks_plan:
            return self._plan(question, model, extra, stand_in)
        answer = self._lookup(question, model, extra, stand_in)
        if question.workload.said and answer.intent == "lookup":
            # Data said beside a lookup ("80k samples, 2 epochs — minimum cards?") is context:
            # one line offers the time estimate, before the footer's reference.
            *notes, last = answer.notes
            offer = Note("plan_offer")
            notes_now = (*notes, offer, last) if last.kind == "reference" else (
                *answer.notes, offer)
            answer = replace(answer, notes=notes_now)
        return answer

    def _without_remarks(self, named: list[Mention]) -> list[Mention]:
        """A family said again without a size, after a name that fits one model, is a remark
        about that name ("qwen2 72b lora (the old qwen2, not 2.5)"), not a second model."""
        kept: list[Mention] = []
        for mention in named:
            if (kept and mention.family and not mention.size and not mention.active
                    and not mention.distinct and any(
                        k.family == mention.family and len(self.matcher.match(k).models) == 1
                        for k in kept)):
                continue
            kept.append(mention)
        return kept

    # --- models the table does not list by name -------------------------------------------

    def _quantized(self, mention: Mention, model: str) -> StandInUse | None:
        """A quantized copy of a table model (AWQ, q4_K_M): that model, said to be so."""
        if not mention.quantized:
            return None
        vocabulary = self.knowledge.vocabulary
        asked = "-".join([display_name(vocabulary, mention),
                          *(q.upper() for q in dict.fromkeys(mention.quantized))])
        return StandInUse(asked=asked, model=model, relation="quantized_copy",
                          source=vocabulary.quantized.source,
                          quantized=tuple(dict.fromkeys(mention.quantized)))

    def _unmatched(self, question: Question, mention: Mention) -> Answer:
        """A name no table model fits: a model of a table model's architecture, else not in
        the table (with the table's models of its size around it)."""
        found = self.stand_ins.find(mention) if self.stand_ins else None
        if found is None:
            return self._not_found(question, mention)
        return self._stand_in(question, found)

    def _stand_in(self, question: Question, item: StandIn) -> Answer:
        """The table model's entries for a model of its architecture, the asked model staying
        "not in the table". A model with a shorter context than an entry's length (Qwen2.5-Math
        reads 4,096 tokens) is answered at the lengths it reads, saying so."""
        notes: list[Note] = []
        asked = question
        if item.context:
            beyond = [n for n in question.seq_lens if n > item.context]
            if beyond:
                notes.append(Note("beyond_context", {"asked": item.display,
                                                     "context": item.context,
                                                     "seq_len": beyond[0]}))
            asked = replace(question, seq_lens=[n for n in question.seq_lens
                                                if n <= item.context])
        use = StandInUse(asked=item.display, model=item.model, relation=item.relation,
                         source=item.source, context=item.context)
        answer = self._one(asked, item.model, notes, use)
        rows = tuple(e for e in answer.rows if not item.context or e.seq_len <= item.context)
        if answer.rows and not rows:
            notes_now = (*answer.notes, Note("beyond_context", {
                "asked": item.display, "context": item.context,
                "seq_len": min(e.seq_len for e in answer.rows)}))
            answer = replace(answer, notes=notes_now)
        use = replace(use, rows=rows)
        # No estimate from the stand-in's shape: it is the table model's own, so the table's
        # counts are the answer and an estimate beside them could only contradict them (the
        # estimate for a length past its rows, the table's own steps, stays).
        if answer.intent == "plan":
            return replace(answer, rows=rows, stand_in=use, seq_lens=tuple(question.seq_lens),
                           asked_display=item.display)
        # Not a table entry of the asked model: no models and no rows of its own.
        return replace(answer, intent="not_found", models=(), rows=(), stand_in=use,
                       seq_lens=tuple(question.seq_lens), asked_display=item.display,
                       candidates=())

    # --- lists, names not found ----------------------------------------------------------

    def _list(self, question: Question, models: tuple[str, ...]) -> Answer:
        return self._base(question, "list", models=models, notes=(self._reference(),))

    def _not_found(self, question: Question, mention: Mention) -> Answer:
        notes = [Note("not_in_table", {"asked": mention.spelled()})]
        absent = self.matcher.match_absent(mention)
        if absent:
            # The catalogue knows it from another version of the page; this one lists it not.
            notes.append(Note("not_in_version", {"models": [i.key for i in absent],
                                                 "date": self.knowledge.table.source.date_text()}))
        elif not mention.family and self.matcher.is_other_family(mention.other_family):
            notes.append(Note("other_family", {"family": mention.other_family}))
        size, display = self._size(mention) if not absent else (None, None)
        around = self._bracket(question, mention, size)
        if around is not None:
            notes.append(self._reference())
        from mincards.bot.answering.estimated import asked_estimate, shape_of

        # A model another version of the page lists keeps its shape in the catalogue; a model
        # the known-models data lists, its own. Neither: no estimate (a size read from a name
        # is not a shape).
        shape = None
        if len(absent) == 1:
            shape = shape_of(self.knowledge, same_as=absent[0].key)
        elif around is not None and not absent and self.known_sizes:
            known = self.known_sizes.find(mention)
            shape = shape_of(self.knowledge, known) if known is not None else None
        estimate = asked_estimate(self.knowledge, shape, question)
        answer = self._base(question, "not_found",
                            candidates=self.matcher.suggest(mention, MAX_SUGGESTIONS),
                            notes=tuple(notes), named=mention, bracket=around,
                            estimate=estimate)
        return replace(answer, asked_display=display) if display else answer

    def pasted(self, question: Question, answer: Answer, config: str) -> Answer:
        """The answer with the estimate for a pasted config.json (see shaped). A config that
        cannot be read is said in the remarks, and nothing is estimated."""
        from mincards.bot.estimating.hf_config import parse_config
        from mincards.bot.estimating.shape import ShapeError

        try:
            shape = parse_config(config, answer.asked_display or "", "config")
        except ShapeError as exc:
            return self.unshaped(question, answer, "", str(exc))
        return self.shaped(question, answer, shape)

    def _about(self, question: Question, answer: Answer, name: str) -> Answer:
        """A not-found answer for `name`, for a question that named no model the reader knows
        (a Hugging Face id, a pasted config)."""
        if answer.intent == "not_found" or not name:
            return answer
        notes = (Note("not_in_table", {"asked": name}), self._reference())
        return replace(self._base(question, "not_found", notes=notes, named=None),
                       asked_display=name)

    def shaped(self, question: Question, answer: Answer, shape: Shape) -> Answer:
        """The answer with the estimate for a shape read since (a pasted config.json, the
        Hugging Face Hub); for a question that named no model, a not-found answer for the model
        the shape is of."""
        from mincards.bot.answering.estimated import with_shape

        return with_shape(self.knowledge, self._about(question, answer, shape.name), shape,
                          question)

    def unshaped(self, question: Question, answer: Answer, name: str, reason: str) -> Answer:
        """Why no shape could be read, in the remarks: never a number."""
        from mincards.bot.answering.estimated import without_estimate

        return without_estimate(self._about(question, answer, name), reason)

    def _size(self, mention: Mention) -> tuple[Size | None, str | None]:
        """(the asked model's size, kind and their source, its display name when known): from
        known_models.toml when it lists the model (Phi-4 is 14.7B; GLM-4V-9B reads images),
        else from its name (mistral-7b)."""
        from mincards.bot.answering.bracket import Size  # on the first name the table lacks

        known = self.known_sizes.find(mention) if self.known_sizes else None
        if known is not None:
            return Size(params_b=known.params_b, kind=known.kind, source=known.source,
                        active_b=known.active_b), known.display
        if not mention.size:
            return None, None
        active = size_value(mention.active) if mention.active else None
        return Size(params_b=size_value(mention.size),
                    kind=kind_of(self.knowledge.vocabulary, mention),
                    source=f"the name {mention.spelled()}", active_b=active), None

    def _bracket(self, question: Question, mention: Mention, size: Size | None
                 ) -> Bracket | None:
        """The table's models of the asked model's kind beside its size (the same size, else
        the nearest smaller and larger), with their entries under the question's filters."""
        if size is None:
            return None
        from mincards.bot.answering.bracket import bracket  # on the first name the table lacks

        scope = self._scope(question)
        architecture = self.matcher.architecture(mention)
        order = self.knowledge.table.models()
        present = [self.knowledge.catalogue[m] for m in order]
        return bracket(present, size=size, family=architecture.family,
                       versions=frozenset(architecture.versions),
                       rows=lambda m: () if scope.refusal else tuple(self._select(question,
                                                                                m).rows))

    # --- what the question narrows to ---------------------------------------------------

    def _stage_frameworks(self, stage: str) -> tuple[list[str], list[str]]:
        """(the table's frameworks for a training stage, the vocabulary's others for it)."""
        stage = stage.lower()
        table = set(self.knowledge.table.framework_ids)
        fits = [key for key, words in self.knowledge.vocabulary.frameworks.items()
                if stage in (s.lower() for s in words.stages)]
        return [k for k in fits if k in table], [k for k in fits if k not in table]

    def _scope(self, question: Question) -> _Scope:
        """The frameworks to answer for, or why this table version cannot answer at all."""
        table = self.knowledge.table
        scope = _Scope(frameworks=set(question.frameworks))
        if question.uncovered_stage:
            present, elsewhere = self._stage_frameworks(question.uncovered_stage)
            # The table has a column for a framework of this stage (VeRL for RL): answer there,
            # and only there; a named framework that does not train this way has no answer.
            narrowed = scope.frameworks & set(present) if scope.frameworks else set(present)
            if not narrowed:
                scope.refusal = Note("stage_not_covered", {
                    "stage": question.uncovered_stage, "strategies": list(table.strategies()),
                    "in_table": present, "frameworks": elsewhere})
                return scope
            scope.frameworks = narrowed
        if question.other_hardware:
            budget = question.other_budget
            scope.notes.append(Note("other_hardware", {
                "hardware": list(question.other_hardware), "flavours": list(table.flavours),
                **({"count": budget[0], "unit": budget[1]} if budget else {})}))
        if question.asks_price:
            scope.notes.append(Note("no_prices", {} if question.price_hours is None
                                    else {"hours": question.price_hours}))
        if question.stage_strategy is not None:
            implied = self.knowledge.vocabulary.stages.implies[question.stage_strategy]
            scope.notes.append(Note("stage_bound" if implied.at_most else "stage_strategy",
                                    {"stage": question.stage_strategy,
                                     "strategy": implied.strategy}))
        if question.refused_budget is not None and question.budget is None:
            count, unit = question.refused_budget
            scope.notes.append(Note("budget_not_positive", {"count": count, "unit": unit}))
        lacking = [fw for fw in scope.frameworks if table.framework(fw) is None]
        if lacking:
            note = Note("framework_not_in_table", {
                "frameworks": list(_in_order(lacking, self.knowledge.framework_names)),
                "has": list(table.framework_ids), "date": table.source.date_text()})
            if len(lacking) == len(scope.frameworks):
                scope.refusal = note
                return scope
            scope.notes.append(note)
        lacking_flavours = [fl for fl in question.flavours if fl not in table.flavours]
        if lacking_flavours:
            scope.refusal = Note("flavour_not_in_table", {
                "flavours": sorted(lacking_flavours), "has": list(table.flavours),
                "date": table.source.date_text()})
        return scope

    def _select(self, question: Question, model: str) -> _Selection:
        """A model's entries under the question's strategy and lengths: a length between two
        listed ones takes the next one up (an upper bound); none longer is known."""
        entries = self._ordered.get(model, ())
        out = _Selection()
        if question.strategies:
            strategies = _in_order(question.strategies, self.knowledge.strategies)
        else:
            strategies = tuple(dict.fromkeys(e.strategy for e in entries))
        listed = [s for s in strategies if any(e.strategy == s for e in entries)]
        if not listed:
            out.reason = Note("strategy_not_listed", {"strategies": list(strategies)})
            return out
        missing = [s for s in strategies if s not in listed]
        if missing:
            out.notes.append(Note("strategy_not_listed", {"strategies": missing}))
        for strategy in listed:
            own = [e for e in entries if e.strategy == strategy]
            if not question.seq_lens:
                out.rows += own
                continue
            for asked in question.seq_lens:
                fit = next((e for e in own if e.seq_len >= asked), None)
                if fit is None:
                    out.notes.append(Note("seq_not_listed", {
                        "strategy": strategy, "seq_len": asked, "longest": own[-1].seq_len}))
                    continue
                if fit.seq_len != asked:
                    out.notes.append(Note("upper_bound", {"asked": asked, "shown": fit.seq_len,
                                                          "strategy": strategy}))
                if fit not in out.rows:
                    out.rows.append(fit)
        if not out.rows:
            out.reason = next(n for n in out.notes if n.kind == "seq_not_listed")
        return out

    def _fits(self, question: Question, rows: Iterable[Entry]
              ) -> dict[tuple[str, str, int], budgets.Fits]:
        if question.budget is None:
            return {}
        room = self._room(question)
        return {e.key: self.needs.fits(e, room) for e in rows}

    def _not_covered(self, question: Question, model: str, reason: Note,
                     frameworks: Iterable[str] | None = None) -> Answer:
        entries = self.knowledge.table.entries_for(model)
        return self._base(question, "not_covered", frameworks=frameworks, models=(model,),
                          notes=(reason, Note("table_has", {"model": model,
                                                            "has": _has(entries)})))

    # --- one model ----------------------------------------------------------------------

    def _lookup(self, question: Question, model: str, extra: list[Note],
                stand_in: StandInUse | None = None) -> Answer:
        scope = self._scope(question)
        if scope.refusal:
            return replace(self._not_covered(question, model, scope.refusal, scope.frameworks),
                           stand_in=stand_in)
        selection = self._select(question, model)
        if selection.reason:
            return replace(self._not_covered(question, model, selection.reason,
                                             scope.frameworks), stand_in=stand_in,
                           estimate=self._longer(question, model, selection.notes))
        rows = tuple(selection.rows)
        notes = [*extra, *scope.notes, *selection.notes]
        longer = self._longer(question, model, selection.notes)
        info = self.knowledge.catalogue[model]
        if info.note:
            notes.append(Note(info.note, {"model": model}))
        notes += caveats(self.knowledge, model, rows)
        notes.append(self._reference())
        return self._base(question, "lookup", frameworks=scope.frameworks, models=(model,),
                          rows=rows, notes=tuple(notes), fits=self._fits(question, rows),
                          stand_in=stand_in, estimate=longer)

    def _longer(self, question: Question, model: str, notes: Iterable[Note]
                ) -> Estimate | None:
        """An estimate, never the table's, at the longest length asked past the model's rows:
        its longest row of each such strategy, grown as the table's own steps grow."""
        from mincards.bot.estimating.lengths import lengthened
        from mincards.bot.estimating.shape import of_table_model

        past = [n for n in notes if n.kind == "seq_not_listed"]
        info = self.knowledge.catalogue.models.get(model)
        shape = of_table_model(info) if info is not None else None
        if not past or shape is None:
            return None
        asked = max(int(n.args["seq_len"]) for n in past)
        # In the notes' order: a set's order changes from one process to the next.
        strategies = dict.fromkeys(str(n.args["strategy"]) for n in past)
        own = self._ordered.get(model, ())
        longest = [max((e for e in own if e.strategy == s), key=lambda e: e.seq_len)
                   for s in strategies if any(e.strategy == s for e in own)]
        return lengthened(self.knowledge, shape, longest, asked,
                          frameworks=question.frameworks, flavours=question.flavours)

    # --- time and cluster size -----------------------------------------------------------

    def _plan(self, question: Question, model: str, extra: list[Note],
              stand_in: StandInUse | None = None) -> Answer:
        """The page's formula over the model's entries: the asked length, else the length
        each sample's tokens need, else every listed length."""
        workload = question.workload
        asked = question
        if not question.seq_lens and workload.sample_tokens:
            asked = replace(question, seq_lens=[workload.sample_tokens])
        looked = self._lookup(asked, model, extra, stand_in)
        if looked.intent != "lookup":
            return looked
        rows = tuple(e for e in looked.rows
                     if not stand_in or not stand_in.context or e.seq_len <= stand_in.context)
        plan, notes = self.planner.plan(asked, model, rows)
        reference = [n for n in looked.notes if n.kind == "reference"]
        kept = []
        for note in looked.notes:
            if note.kind == "reference":
                continue
            if note.kind == "upper_bound" and not question.seq_lens:
                # The length came from each sample's tokens, not from a length asked.
                note = Note("plan_length_from_samples", {
                    "tokens": note.args["asked"], "shown": note.args["shown"],
                    "strategy": note.args["strategy"]})
            kept.append(note)
        return replace(looked, intent="plan", plan=plan, seq_lens=tuple(question.seq_lens),
                       notes=(*kept, *notes, *reference))

    # --- what fits a budget ---------------------------------------------------------------

    def _capacity(self, question: Question, pool: Iterable[str],
                  pending: NameParts | None = None) -> Answer:
        """What fits a budget. The same budget and filters give the same answer every time, so
        it is worked out once (a whole-table pass, the costliest answer there is)."""
        pool = tuple(pool)
        key = ("capacity", question.language, question.budget, frozenset(question.strategies),
               tuple(question.seq_lens), frozenset(question.frameworks),
               frozenset(question.flavours), question.uncovered_stage, pool, pending,
               question.wants_largest)
        return self.knowledge.memoized(key, lambda: self._work_out_capacity(
            question, pool, pending))

    def _work_out_capacity(self, question: Question, pool: Iterable[str],
                           pending: NameParts | None) -> Answer:
        assert question.budget is not None
        room = self._room(question)
        scope = self._scope(question)
        notes = list(scope.notes)
        if scope.refusal:
            return self._base(question, "capacity", frameworks=scope.frameworks, pending=pending,
                              notes=(scope.refusal, self._reference()))
        if not room:
            notes.append(Note("budget_covers_nothing", {
                "unit": question.budget.unit, "flavours": list(self.knowledge.table.flavours)}))
        counting = [f for f in self.knowledge.table.framework_ids
                    if not scope.frameworks or f in scope.frameworks]
        order = {m: i for i, m in enumerate(self.knowledge.table.models())}
        pool = sorted(set(pool), key=lambda m: (
            -size_value(self.knowledge.catalogue[m].size), order.get(m, 0)))
        rows: list[Entry] = []
        fits: dict[tuple[str, str, int], budgets.Fits] = {}
        suspect = self.knowledge.is_suspect
        suspect_models = self.knowledge.suspect_models
        only_suspect: list[Entry] = []
        for model in pool:
            for entry in self._select(question, model).rows:
                entry_fits = self.needs.fits(entry, room)
                # A count the table makes suspect never makes an entry fit.
                clean = entry_fits if entry.model not in suspect_models else {
                    f: {fl: fit and not suspect(entry, f, fl) for fl, fit in by.items()}
                    for f, by in entry_fits.items()}
                if budgets.fits_anywhere({f: clean[f] for f in counting}):
                    rows.append(entry)
                    fits[entry.key] = entry_fits
                elif budgets.fits_anywhere({f: entry_fits[f] for f in counting}):
                    only_suspect.append(entry)
        models = tuple(dict.fromkeys(e.model for e in rows))
        if only_suspect:
            notes.append(Note("suspect_fit", {"entries": [list(e.key) for e in only_suspect]}))
        notes += unit_caveats(self.knowledge, rows)
        notes.append(self._reference())
        return self._base(question, "capacity", frameworks=scope.frameworks, models=models,
                          rows=tuple(rows), fits=fits, room=room, notes=tuple(notes),
                          pending=pending, largest=question.wants_largest)

    # --- several models: a comparison -------------------------------------------------------

    def _several(self, question: Question, named: list[Mention]) -> Answer:
        """Models named side by side. A name without a family takes the one before it
        ("qwen2.5-7b or 72b"); a name that fits several asks which, keeping the others."""
        resolved: list[str | Mention] = []
        previous: NameParts | None = None
        for mention in named:
            if not mention.family and not mention.other_family and previous:
                mention = refine(previous, mention)
            match = self.matcher.match(mention)
            if not match.models:
                return self._unmatched(question, mention)
            resolved.append(match.models[0].key if len(match.models) == 1 else mention)
            previous = parts_of(mention)
        pending = next((m for m in resolved if isinstance(m, Mention)), None)
        if pending is not None:
            others = tuple("" if m is pending else m for m in resolved
                           if isinstance(m, str) or m is pending)
            return self._base(question, "ambiguous", pending=parts_of(pending),
                              compare_with=others, named=pending,
                              candidates=tuple(i.key for i in self.matcher.match(pending).models))
        models = tuple(dict.fromkeys(m for m in resolved if isinstance(m, str)))
        if len(models) == 1:
            return self._one(question, models[0], [])
        return self.compare(question, models)

    def compare(self, question: Question, models: tuple[str, ...]) -> Answer:
        scope = self._scope(question)
        if scope.refusal:
            return self._base(question, "compare", frameworks=scope.frameworks, models=models,
                              notes=(scope.refusal, self._reference()))
        rows: list[Entry] = []
        notes = list(scope.notes)
        for model in models:
            selection = self._select(question, model)
            # A strategy a model lacks is said by the comparison's lead, by name: not again.
            if selection.reason and selection.reason.kind != "strategy_not_listed":
                notes.append(replace(selection.reason, args={**selection.reason.args,
                                                             "model": model}))
            rows += selection.rows
            notes += [replace(n, args={**n.args, "model": model}) for n in selection.notes
                      if n.kind != "strategy_not_listed"]
            notes += caveats(self.knowledge, model, tuple(selection.rows))
        notes.append(self._reference())
        unique = [n for i, n in enumerate(notes) if n not in notes[:i]]
        named = [f for f in scope.frameworks if self.knowledge.table.framework(f)]
        sides = compare(self.knowledge.table, models, rows, named,
                        [f for f in question.flavours if f in self.knowledge.table.flavours],
                        self.knowledge.suspects)
        return self._base(question, "compare", frameworks=scope.frameworks, models=models,
                          rows=tuple(rows), notes=tuple(unique), fits=self._fits(question, rows),
                          comparison=tuple(sides))
