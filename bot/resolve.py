"""Resolve a read question against the table: pick the intent, the entries and the notes."""

from __future__ import annotations

from collections.abc import Iterable

from bot.answer import Answer, Intent, Note
from bot.knowledge import Knowledge
from bot.matching import Matcher
from bot.names import Mention
from bot.question import Question
from bot.table import FLAVOURS, FRAMEWORKS, STRATEGIES, Entry, Strategy

MAX_SUGGESTIONS = 3


def _base(question: Question, intent: Intent, **kw: object) -> Answer:
    mention = question.mention
    return Answer(
        intent=intent, language=question.language,
        asked=mention.spelled() if mention else "",
        strategies=tuple(s for s in STRATEGIES if s in question.strategies),
        seq_lens=tuple(question.seq_lens),
        frameworks=tuple(f for f in FRAMEWORKS if f in question.frameworks),
        flavours=tuple(f for f in FLAVOURS if f in question.flavours),
        **kw,  # type: ignore[arg-type]
    )


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
    hw = knowledge.hardware
    snt9b, snt9b23 = hw.flavours["snt9b"], hw.flavours["snt9b23"]
    cells = [(fw, e) for e in rows for fw in FRAMEWORKS]
    all_entries = knowledge.table.entries_for(model)
    for fw in FRAMEWORKS:
        for seq in sorted({e.seq_len for e in rows}):
            by = {e.strategy: e.counts(fw) for e in all_entries if e.seq_len == seq}
            full, lora = by.get("full"), by.get("lora")
            if full and lora and any(
                    (a := getattr(full, fl)) is not None and (b := getattr(lora, fl)) is not None
                    and a < b for fl in FLAVOURS):
                notes.append(Note("full_below_lora", {"framework": hw.frameworks[fw].display,
                                                      "seq_len": seq}))
    if snt9b.advise_node_below and any(
            (c := e.counts(fw).snt9b) is not None and c < snt9b.advise_node_below
            for fw, e in cells):
        notes.append(Note("below_node", {"cards": snt9b.advise_node_below}))
    if snt9b23.min_parallel_unit and any(
            (c := e.counts(fw).snt9b23) is not None and c < snt9b23.min_parallel_unit
            for fw, e in cells):
        notes.append(Note("die_below_unit", {"unit": snt9b23.min_parallel_unit}))
    return notes


class Resolver:
    def __init__(self, knowledge: Knowledge, matcher: Matcher) -> None:
        self.knowledge = knowledge
        self.matcher = matcher

    def _reference(self) -> Note:
        return Note("reference", {"date": self.knowledge.table.source.date.isoformat()})

    def resolve(self, question: Question) -> Answer:
        mention = question.mention
        if mention is None:
            if question.wants_list:
                return self._list(question, self.knowledge.table.models())
            notes = []
            if question.text.strip() and not question.wants_help:
                notes.append(Note("no_model"))
            return _base(question, "help", notes=tuple(notes))
        match = self.matcher.match(mention)
        others = [m for m in question.mentions if m is not mention and m.named]
        if (question.wants_list and match.models and not mention.size
                and len(match.models) > 1):
            return self._list(question, tuple(i.key for i in match.models))
        if not match.models:
            return self._not_found(question, mention)
        if len(match.models) > 1:
            return _base(question, "ambiguous",
                         candidates=tuple(i.key for i in match.models))
        info = match.models[0]
        extra: list[Note] = []
        if match.assumed:
            extra.append(Note("assumed", {"model": info.key, "what": list(match.assumed)}))
        if others:
            extra.append(Note("other_mentions", {"names": [m.spelled() for m in others]}))
        return self._lookup(question, info.key, extra)

    def _list(self, question: Question, models: tuple[str, ...]) -> Answer:
        return _base(question, "list", models=models, notes=(self._reference(),))

    def _not_found(self, question: Question, mention: Mention) -> Answer:
        notes = [Note("not_in_table", {"asked": mention.spelled()})]
        if not mention.family and self.matcher.is_other_family(mention.other_family):
            notes.append(Note("other_family", {"family": mention.other_family}))
        return _base(question, "not_found",
                     candidates=self.matcher.suggest(mention, MAX_SUGGESTIONS), notes=tuple(notes))

    def _not_covered(self, question: Question, model: str, reason: Note) -> Answer:
        entries = self.knowledge.table.entries_for(model)
        return _base(question, "not_covered", models=(model,),
                     notes=(reason, Note("table_has", {"model": model, "has": _has(entries)})))

    def _lookup(self, question: Question, model: str, extra: list[Note]) -> Answer:
        entries = self.knowledge.table.entries_for(model)
        if question.uncovered_stage:
            return self._not_covered(question, model,
                                     Note("stage_not_covered", {"stage": question.uncovered_stage}))
        strategies: list[Strategy] = [s for s in STRATEGIES if s in question.strategies] or [
            s for s in STRATEGIES if any(e.strategy == s for e in entries)]
        listed = [s for s in strategies if any(e.strategy == s for e in entries)]
        if not listed:
            return self._not_covered(question, model,
                                     Note("strategy_not_listed", {"strategies": strategies}))
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
            return self._not_covered(question, model, reason)
        rows = tuple(chosen)
        info = self.knowledge.catalogue[model]
        if info.note:
            notes.append(Note(info.note, {"model": model}))
        notes += caveats(self.knowledge, model, rows)
        notes.append(self._reference())
        return _base(question, "lookup", models=(model,), rows=rows, notes=tuple(notes))
