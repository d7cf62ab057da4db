"""Answers as the JSON object of `mincards ask --json` (the contract other tools rely on)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mincards.bot.answering.answer import Answer
from mincards.bot.answering.compare import fewest
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.facts.table import Entry, Table
from mincards.bot.replies.lead import lead
from mincards.bot.replies.render_estimate import estimate_json
from mincards.bot.replies.render_text import render_text
from mincards.bot.replies.render_verdict import overall, ways

if TYPE_CHECKING:
    from mincards.bot.answering.bracket import Neighbour
    from mincards.bot.answering.plan import Plan


def row_json(table: Table, entry: Entry) -> dict[str, Any]:
    """One entry: a key per framework of the loaded table, each {flavour id: count or null}."""
    return {
        "model": entry.model,
        "strategy": entry.strategy,
        "seq_len": entry.seq_len,
        **{fw: {fl: entry.count(fw, fl) for fl in table.flavours} for fw in table.framework_ids},
    }


def table_json(table: Table) -> dict[str, Any]:
    """Which version of the table answered, and its columns."""
    return {"date": table.source.date_text(), "title": table.source.title,
            "frameworks": list(table.framework_ids), "flavours": list(table.flavours)}


def best_json(knowledge: Knowledge, rows: tuple[Entry, ...], frameworks: tuple[str, ...],
              flavours: tuple[str, ...] = ()) -> dict[str, Any]:
    """Per flavour of the table (those asked, when the question, a flag or a setting narrowed
    them, as the text is), the fewest count over the rows and the frameworks asked (all when
    none was named), as the table writes it, its nodes and the frameworks that reach it in page
    order; null where no framework supports the rows on that flavour, or only with a count the
    table makes suspect (`suspect`)."""
    table, hardware = knowledge.table, knowledge.hardware
    named = [f for f in frameworks if table.framework(f)]
    counting = [f for f in table.framework_ids if not named or f in named]
    asked = [f for f in table.flavours if f in flavours]
    out: dict[str, Any] = {}
    for flavour in asked or table.flavours:
        found = [(f.count, f.frameworks) for e in rows
                 if (f := fewest(e, flavour, counting, knowledge.suspects)).count is not None]
        if not found:
            out[flavour] = None
            continue
        low = min(c for c, _ in found)
        reach = {fw for c, fws in found if c == low for fw in fws}
        info = hardware.flavours[flavour]
        out[flavour] = {"count": low, "unit": info.unit.lower(), "nodes": info.nodes(low),
                        "frameworks": [f for f in table.framework_ids if f in reach]}
    return out


def suspect_json(knowledge: Knowledge, rows: tuple[Entry, ...]) -> list[dict[str, Any]]:
    """The rows' counts that are likely errors in the source (facts/suspects), each once."""
    table = knowledge.table
    return [{"model": e.model, "strategy": e.strategy, "seq_len": e.seq_len, "framework": fw,
             "flavour": fl, "count": e.count(fw, fl)}
            for e in rows if e.model in knowledge.suspect_models
            for fw in table.framework_ids for fl in table.flavours
            if knowledge.is_suspect(e, fw, fl)]


# Row lists this long (what fits a budget: a hundred entries) are made once per rows and
# budget, as the capacity answer itself is; the JSON is only ever serialized, never changed.
MEMO_ROWS_FROM = 16


def _rows(knowledge: Knowledge, answer: Answer, rows: tuple[Entry, ...]) -> list[dict[str, Any]]:
    if len(rows) < MEMO_ROWS_FROM:
        return _make_rows(knowledge, answer, rows)
    key = ("rows_json", tuple(e.key for e in rows), answer.budget is not None,
           tuple(answer.room.items()))
    return knowledge.memoized(key, lambda: _make_rows(knowledge, answer, rows))


def _make_rows(knowledge: Knowledge, answer: Answer, rows: tuple[Entry, ...]
               ) -> list[dict[str, Any]]:
    out = []
    for entry in rows:
        row = row_json(knowledge.table, entry)
        if answer.budget is not None:
            row["fits"] = answer.fits.get(entry.key, {})
        out.append(row)
    return out


def _neighbour(knowledge: Knowledge, answer: Answer, near: Neighbour | None
               ) -> dict[str, Any] | None:
    if near is None:
        return None
    return {"model": near.model, "size_b": near.size_b,
            "rows": _rows(knowledge, answer, near.rows)}


def plan_json(plan: Plan) -> dict[str, Any]:
    """The plan's figures: per flavour the count, its unit and nodes, the hours at it (2
    decimals) and the table's minimum; what is missing to say more."""
    flavours: dict[str, Any] = {}
    for side in plan.flavours:
        low = side.minimum
        flavours[side.flavour] = {
            "count": side.count, "unit": side.unit, "nodes": side.nodes, "hours": side.hours,
            "minimum": None if low is None else {
                "count": low.count, "framework": low.framework, "strategy": low.strategy,
                "seq_len": low.seq_len}}
    return {"tokens": plan.tokens, "tps": plan.tps, "tps_source": plan.tps_source,
            "efficiency": plan.efficiency, "flavours": flavours, "missing": list(plan.missing)}


# The JSON's version: adding keys keeps it; renaming or removing one, or changing what a key
# means, makes the next number (README, "The JSON contract").
SCHEMA = 1


def verdict_json(knowledge: Knowledge, answer: Answer) -> tuple[str, list[dict[str, Any]]]:
    """("yes" when every asked entry fits with some framework on some flavour the budget covers,
    "no" when none does, else "mixed"; every way it fits, in row then page order)."""
    found = ways(knowledge, answer)
    return overall(answer, found), [
        {"model": w.entry.model, "strategy": w.entry.strategy, "seq_len": w.entry.seq_len,
         "framework": w.framework, "flavour": w.flavour, "count": w.count} for w in found]


def render_json(knowledge: Knowledge, answer: Answer, question: str | None = None
                ) -> dict[str, Any]:
    """The answer as the JSON object; `question`, the line asked, is echoed when given."""
    table = knowledge.table
    rows = _rows(knowledge, answer, answer.rows)
    opening = lead(knowledge, answer)
    out: dict[str, Any] = {
        "schema": SCHEMA,
        **({"question": question} if question is not None else {}),
        "intent": answer.intent,
        "models": list(answer.models),
        "candidates": list(answer.candidates),
        "rows": rows,
        "lead": opening,
        "text": render_text(knowledge, answer, opening),
        "language": answer.language,
        "notes": [{"kind": n.kind, **n.args} for n in answer.notes],
        "table": table_json(table),
    }
    if answer.intent in ("lookup", "plan"):
        out["best"] = best_json(knowledge, answer.rows, answer.frameworks, answer.flavours)
    shown = (*answer.rows, *(answer.stand_in.rows if answer.stand_in else ()))
    if suspects := suspect_json(knowledge, shown):
        out["suspect"] = suspects
    if answer.stand_in is not None:
        use = answer.stand_in
        stand_in: dict[str, Any] = {"asked": use.asked, "model": use.model,
                                    "relation": use.relation, "source": use.source}
        if use.relation == "same_architecture":
            stand_in["rows"] = _rows(knowledge, answer, use.rows)
            stand_in["best"] = best_json(knowledge, use.rows, answer.frameworks,
                                         answer.flavours)
            if use.context:
                stand_in["context"] = use.context
        out["stand_in"] = stand_in
    if answer.bracket is not None:
        around = answer.bracket
        out["bracket"] = {"size_b": around.size_b, "kind": around.kind,
                          "same": [_neighbour(knowledge, answer, n) for n in around.same],
                          "below": _neighbour(knowledge, answer, around.below),
                          "above": _neighbour(knowledge, answer, around.above)}
        if around.size is not None:
            out["bracket"]["size"] = {"params_b": around.size.params_b,
                                      "active_b": around.size.active_b,
                                      "kind": around.size.kind, "source": around.size.source}
    if answer.estimate is not None:
        out["estimate"] = estimate_json(answer.estimate)
    if answer.plan is not None:
        out["plan"] = plan_json(answer.plan)
    out["filters_from"] = answer.filters_from
    # What `best` (and the text) was narrowed to; `rows` stay the table's whole rows.
    narrowed = {k: [x for x in order if x in chosen] for k, order, chosen in (
        ("flavours", table.flavours, answer.flavours),
        ("frameworks", table.framework_ids, answer.frameworks)) if chosen}
    if narrowed and answer.intent in ("lookup", "plan"):
        out["narrowed_to"] = narrowed
    if answer.budget is not None:
        out["budget"] = answer.budget.json()
        if answer.intent == "lookup":
            out["verdict"], out["ways"] = verdict_json(knowledge, answer)
    if answer.intent == "compare":
        out["comparison"] = [
            {"strategy": s.strategy, "seq_len": s.seq_len, "flavour": s.flavour,
             "fewest": {m: f.count for m, f in s.fewest.items()}, "fewer": list(s.fewer)}
            for s in answer.comparison]
    return out
