"""A plan worked out for one model's selected entries: per flavour the count (from a budget or a
deadline), the hours at it, the table's minimum, and what is missing to say more."""

from __future__ import annotations

from collections.abc import Sequence

from mincards.bot.answering import budget as budgets
from mincards.bot.answering.answer import Note
from mincards.bot.answering.plan import (
    DEFAULT_EFFICIENCY,
    FlavourPlan,
    Plan,
    count_for,
    hours_for,
    minimum,
    raw_count,
)
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.facts.table import Entry
from mincards.bot.reading.question import Question


class Planner:
    def __init__(self, knowledge: Knowledge) -> None:
        self.knowledge = knowledge

    def plan(self, question: Question, model: str, rows: Sequence[Entry]
             ) -> tuple[Plan, list[Note]]:
        """The plan for `model`'s `rows` under the question's frameworks, flavours and budget."""
        known = self.knowledge
        table, hardware = known.table, known.hardware
        workload = question.workload
        notes: list[Note] = []
        efficiency = workload.efficiency
        if efficiency is None:
            efficiency = DEFAULT_EFFICIENCY
        elif not 0 < efficiency <= 1:
            notes.append(Note("plan_efficiency_out_of_range", {
                "given": efficiency, "used": DEFAULT_EFFICIENCY}))
            efficiency = DEFAULT_EFFICIENCY
        tokens = workload.total_tokens()
        named = [f for f in question.frameworks if table.framework(f)]
        frameworks = [f for f in table.framework_ids if not named or f in named]
        flavours = [f for f in table.flavours if not question.flavours or f in question.flavours]
        room = (budgets.capacity(question.budget, hardware, table.flavours)
                if question.budget else None)
        if room is not None:
            flavours = [f for f in flavours if f in room]
        deadline = workload.deadline_hours
        per: list[FlavourPlan] = []
        sources: set[str] = set()
        for flavour in flavours:
            info = hardware.flavours[flavour]
            low = minimum(rows, frameworks, info, flavour, self.knowledge.suspects)
            tps = workload.tps
            if tps is None and (recorded := known.throughputs.tps(model, flavour)):
                tps, source = recorded
                sources.add(source)
            count: int | None = None
            raw: int | None = None
            from_deadline = False
            if room is not None:
                count = room[flavour]
            elif deadline and tokens and tps:
                raw = raw_count(tokens, deadline, tps, efficiency)
                count = count_for(tokens, deadline, tps, efficiency, info.min_parallel_unit or 1)
                if low and count < low.count:
                    count = low.count
                from_deadline = True
            below = bool(count and low and count < low.count)
            hours = (hours_for(tokens, tps, count, efficiency)
                     if count and tokens and tps and not below else None)
            if below and low and count:
                notes.append(Note("plan_below_minimum", {
                    "flavour": flavour, "count": count, "minimum": low.count,
                    "framework": low.framework, "strategy": low.strategy,
                    "seq_len": low.seq_len}))
            if hours is not None and deadline and not from_deadline and hours > deadline:
                notes.append(Note("plan_misses_deadline", {
                    "flavour": flavour, "hours": hours, "deadline": deadline}))
            per.append(FlavourPlan(flavour=flavour, unit=info.unit.lower(), count=count,
                                   nodes=info.nodes(count) if count else None, hours=hours,
                                   minimum=low, tps=tps, from_deadline=from_deadline,
                                   raw_count=raw))
        missing = []
        if tokens is None:
            missing.append("tokens")
        if not any(p.tps for p in per):
            missing.append("tps")
        if room is None and deadline is None:
            missing.append("count_or_deadline")
        figures = {p.tps for p in per if p.tps}
        shared_tps = workload.tps or (figures.pop() if len(figures) == 1 else None)
        plan = Plan(tokens=tokens, tps=shared_tps,
                    tps_source="question" if workload.tps else ("data" if sources else None),
                    data_source="; ".join(sorted(sources)) or None, efficiency=efficiency,
                    flavours=tuple(per), missing=tuple(missing))
        return plan, notes
