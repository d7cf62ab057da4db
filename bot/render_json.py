"""Answers as the JSON object of `mincards ask --json` (the contract other tools rely on)."""

from __future__ import annotations

from typing import Any

from bot.answer import Answer
from bot.knowledge import Knowledge
from bot.render_text import render_text
from bot.table import FLAVOURS, FRAMEWORKS, Entry


def row_json(entry: Entry) -> dict[str, Any]:
    return {
        "model": entry.model,
        "strategy": entry.strategy,
        "seq_len": entry.seq_len,
        **{fw: {fl: getattr(entry.counts(fw), fl) for fl in FLAVOURS} for fw in FRAMEWORKS},
    }


def render_json(knowledge: Knowledge, answer: Answer) -> dict[str, Any]:
    return {
        "intent": answer.intent,
        "models": list(answer.models),
        "candidates": list(answer.candidates),
        "rows": [row_json(e) for e in answer.rows],
        "text": render_text(knowledge, answer),
        "language": answer.language,
        "notes": [{"kind": n.kind, **n.args} for n in answer.notes],
    }
