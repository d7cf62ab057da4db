"""Answers as the JSON object of `mincards ask --json` (the contract other tools rely on)."""

from __future__ import annotations

from typing import Any

from mincards.bot.answering.answer import Answer
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.facts.table import Entry, Table
from mincards.bot.replies.lead import lead
from mincards.bot.replies.render_text import render_text


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


def render_json(knowledge: Knowledge, answer: Answer) -> dict[str, Any]:
    table = knowledge.table
    rows = []
    for entry in answer.rows:
        row = row_json(table, entry)
        if answer.budget is not None:
            row["fits"] = answer.fits.get(entry.key, {})
        rows.append(row)
    out: dict[str, Any] = {
        "intent": answer.intent,
        "models": list(answer.models),
        "candidates": list(answer.candidates),
        "rows": rows,
        "lead": lead(knowledge, answer),
        "text": render_text(knowledge, answer),
        "language": answer.language,
        "notes": [{"kind": n.kind, **n.args} for n in answer.notes],
        "table": table_json(table),
    }
    if answer.budget is not None:
        out["budget"] = answer.budget.json()
    if answer.intent == "compare":
        out["comparison"] = [
            {"strategy": s.strategy, "seq_len": s.seq_len, "flavour": s.flavour,
             "fewest": {m: f.count for m, f in s.fewest.items()}, "fewer": list(s.fewer)}
            for s in answer.comparison]
    return out
