"""Resolve a read question against the table: pick the intent, the entries and the notes."""

from __future__ import annotations

from collections.abc import Iterable

from bot.answer import Answer, Intent, Note
from bot.knowledge import Knowledge
from bot.matching import Matcher
from bot.names import Mention
from bot.question import Question
from bot.table import Entry

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


def caveats(knowledge: Knowledge, model: str, rows: tuple[Entry, ...]) -> list[Note]:
    """The table's caveats that apply to these rows."""
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
                        "framework": fw, "seq_len": seq, "heavier": heavier,
                        "lighter": lighter}))
    counts = [(fl, c) for e in rows for fw in table.framework_ids for fl in table.flavours
              if (c := e.count(fw, fl)) is not None]
    for fl in table.flavours:
        info = knowledge.hardware.flavours[fl]
        below = [c for f, c in counts if f == fl]
        if info.advise_node_below and any(c < info.advise_node_below for c in below):
            notes.append(Note("below_node", {"cards": info.advise_node_below, "flavour": fl}))
        if info.min_parallel_unit and any(c < info.min_parallel_unit for c in below):
            notes.append(Note("die_below_unit", {"unit": info.min_parallel_unit,
                                                 "count": min(below), "flavour": fl}))
    return notes


class Resolver:
    def __init__(self, knowledge: Knowledge, matcher: Matcher) -> None:
        self.knowledge = knowledge
        self.matcher = matcher

    def _base(self, question: Question, intent: Intent,
              frameworks: Iterable[str] | None = None, **kw: object) -> Answer:
        mention = question.mention
        return Answer(
            intent=intent, language=question.language,
            asked=mention.spelled() if mention else "",
            strategies=_in_order(question.strategies, self.knowledge.strategies),
            seq_lens=tuple(question.seq_lens),
            frameworks=_in_order(question.frameworks if frameworks is None else frameworks,
                                 self.knowledge.framework_names),
            flavours=_in_order(question.flavours, self.knowledge.table.flavours),
            **kw,  # type: ignore[arg-type]
        )

    def _reference(self) -> Note:
        return Note("reference", {"date": self.knowledge.table.source.date_text()})

    def resolve(self, question: Question) -> Answer:
        mention = question.mention
        if mention is None:
            if question.wants_list:
                return self._list(question, self.knowledge.table.models())
            notes = []
            if question.text.strip() and not question.wants_help:
                notes.append(Note("no_model"))
            return self._base(question, "help", notes=tuple(notes))
        match = self.matcher.match(mention)
        others = [m for m in question.mentions if m is not mention and m.named]
        if (question.wants_list and match.models and not mention.size
                and len(match.models) > 1):
            return self._list(question, tuple(i.key for i in match.models))
        if not match.models:
            return self._not_found(question, mention)
        if len(match.models) > 1:
            return self._base(question, "ambiguous",
                              candidates=tuple(i.key for i in match.models))
        info = match.models[0]
        extra: list[Note] = []
        if match.assumed:
            extra.append(Note("assumed", {"model": info.key, "what": list(match.assumed)}))
        if others:
            extra.append(Note("other_mentions", {"names": [m.spelled() for m in others]}))
        return self._lookup(question, info.key, extra)

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
        return self._base(question, "not_found",
                          candidates=self.matcher.suggest(mention, MAX_SUGGESTIONS),
                          notes=tuple(notes))

    def _not_covered(self, question: Question, model: str, reason: Note,
                     frameworks: Iterable[str] | None = None) -> Answer:
        entries = self.knowledge.table.entries_for(model)
        return self._base(question, "not_covered", frameworks=frameworks, models=(model,),
                          notes=(reason, Note("table_has", {"model": model,
                                                            "has": _has(entries)})))

    def _stage_frameworks(self, stage: str) -> tuple[list[str], list[str]]:
        """(the table's frameworks for a training stage, the vocabulary's others for it)."""
        stage = stage.lower()
        table = set(self.knowledge.table.framework_ids)
        fits = [key for key, words in self.knowledge.vocabulary.frameworks.items()
                if stage in (s.lower() for s in words.stages)]
        return [k for k in fits if k in table], [k for k in fits if k not in table]

    def _lookup(self, question: Question, model: str, extra: list[Note]) -> Answer:
        table = self.knowledge.table
        entries = table.entries_for(model)
        frameworks = set(question.frameworks)
        if question.uncovered_stage:
            present, elsewhere = self._stage_frameworks(question.uncovered_stage)
            # The table has a column for a framework of this stage (VeRL for RL): answer there,
            # and only there; a named framework that does not train this way has no answer.
            narrowed = frameworks & set(present) if frameworks else set(present)
            if not narrowed:
                return self._not_covered(question, model, Note("stage_not_covered", {
                    "stage": question.uncovered_stage, "strategies": list(table.strategies()),
                    "in_table": present, "frameworks": elsewhere}))
            frameworks = narrowed
        lacking = [fw for fw in frameworks if table.framework(fw) is None]
        if lacking:
            note = Note("framework_not_in_table", {
                "frameworks": list(_in_order(lacking, self.knowledge.framework_names)),
                "has": list(table.framework_ids), "date": table.source.date_text()})
            if len(lacking) == len(frameworks):
                return self._not_covered(question, model, note, frameworks)
            extra = [*extra, note]
        lacking_flavours = [fl for fl in question.flavours if fl not in table.flavours]
        if lacking_flavours:
            return self._not_covered(question, model, Note("flavour_not_in_table", {
                "flavours": sorted(lacking_flavours), "has": list(table.flavours),
                "date": table.source.date_text()}), frameworks)
        strategies = _in_order(question.strategies, self.knowledge.strategies) or tuple(
            s for s in self.knowledge.strategies if any(e.strategy == s for e in entries))
        listed = [s for s in strategies if any(e.strategy == s for e in entries)]
        if not listed:
            return self._not_covered(question, model,
                                     Note("strategy_not_listed", {"strategies": list(strategies)}),
                                     frameworks)
        notes = list(extra)
        missing = [s for s in strategies if s not in listed]
        if missing:
            notes.append(Note("strategy_not_listed", {"strategies": missing}))
        chosen: list[Entry] = []
        for strategy in listed:
            own = sorted((e for e in entries if e.strategy == strategy), key=lambda e: e.seq_len)
            if not question.seq_lens:
                chosen += own
                continue
            for asked in question.seq_lens:
                # The next listed length up bounds a shorter one from above; none longer is known.
                fit = next((e for e in own if e.seq_len >= asked), None)
                if fit is None:
                    notes.append(Note("seq_not_listed", {"strategy": strategy, "seq_len": asked,
                                                         "longest": own[-1].seq_len}))
                    continue
                if fit.seq_len != asked:
                    notes.append(Note("upper_bound", {"asked": asked, "shown": fit.seq_len,
                                                      "strategy": strategy}))
                if fit not in chosen:
                    chosen.append(fit)
        if not chosen:
            reason = next(n for n in notes if n.kind == "seq_not_listed")
            return self._not_covered(question, model, reason, frameworks)
        rows = tuple(chosen)
        info = self.knowledge.catalogue[model]
        if info.note:
            notes.append(Note(info.note, {"model": model}))
        notes += caveats(self.knowledge, model, rows)
        notes.append(self._reference())
        return self._base(question, "lookup", frameworks=frameworks, models=(model,), rows=rows,
                          notes=tuple(notes))
