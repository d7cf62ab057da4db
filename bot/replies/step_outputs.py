"""The "Minimum NPUs" Workflow Builder step's outputs: the lead sentence, the fewest count and
nodes per flavour, the verdict when a budget was given, the table's date; or, where the table
has no count for the model asked (a name it lacks, a "which one?", a strategy not covered, an
estimate alone), the reason in one sentence to fail the step with."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mincards.bot.answering.answer import Answer
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.replies.render_json import render_json
from mincards.bot.replies.render_words import seq_short

STEP_CALLBACK_ID = "mincards_min_npus"


@dataclass(frozen=True)
class StepResult:
    outputs: dict[str, Any] = field(default_factory=dict)
    error: str | None = None  # one sentence: why the step failed


def output_names(knowledge: Knowledge) -> tuple[str, ...]:
    """Every output the step can give, as the manifest declares them."""
    per_flavour = [f"{fl}_{what}" for fl in knowledge.table.flavours
                   for what in ("fewest", "nodes")]
    return ("lead", *per_flavour, "verdict", "table_date", "estimated")


def step_result(knowledge: Knowledge, answer: Answer, budget_given: bool) -> StepResult:
    """The step's outputs for an answer, or its failure."""
    said = render_json(knowledge, answer)
    lead = str(said.get("lead") or "")
    # A same-architecture stand-in's numbers are its table model's (the lead says whose).
    shown = said if answer.shown() is answer else render_json(knowledge, answer.shown())
    best = shown.get("best")
    if answer.shown().intent not in ("lookup", "plan") or not isinstance(best, dict) or not best:
        estimated = _estimated(knowledge, answer, lead)
        if estimated is not None:
            return estimated
        return StepResult(error=lead or "The table has no count for this question.")
    outputs: dict[str, Any] = {"lead": lead, "table_date": knowledge.table.source.date_text(),
                               "estimated": False}
    for flavour, cell in best.items():
        if isinstance(cell, dict) and isinstance(cell.get("count"), int):
            outputs[f"{flavour}_fewest"] = cell["count"]
            outputs[f"{flavour}_nodes"] = cell.get("nodes")
    if budget_given and isinstance(shown.get("verdict"), str):
        outputs["verdict"] = _verdict(knowledge, shown)
    return StepResult(outputs=outputs)


def _estimated(knowledge: Knowledge, answer: Answer, lead: str) -> StepResult | None:
    """Where the table has no count but mincards estimates one (a model or a length the table
    lacks): the estimate's fewest per flavour, said as estimated, and the lead sentence with the
    estimate's own label. An extrapolation is no count to put in a workflow: none."""
    estimate = answer.estimate
    if estimate is None or not estimate.cells or estimate.extrapolated:
        return None
    from mincards.bot.replies.render_estimate import short_line

    said = short_line(knowledge, estimate, answer.language) or ""
    outputs: dict[str, Any] = {"lead": f"{lead} {said}".strip(),
                               "table_date": knowledge.table.source.date_text(),
                               "estimated": True}
    for flavour in knowledge.table.flavours:
        counts = [c.count for c in estimate.cells if c.flavour == flavour]
        if counts:
            outputs[f"{flavour}_fewest"] = min(counts)
            outputs[f"{flavour}_nodes"] = knowledge.hardware.flavours[flavour].nodes(min(counts))
    return StepResult(outputs=outputs)


def _verdict(knowledge: Knowledge, shown: dict[str, Any]) -> str:
    """yes, no, or for a mixed verdict where each part holds: "mixed: yes on Snt9B23 for
    full-parameter · 4K; no on Snt9B" (a step that posts it must not tell a Snt9B team yes)."""
    word = str(shown["verdict"])
    if word != "mixed":
        return word
    room = shown.get("budget", {})
    flavours = [f for f in knowledge.table.flavours
                if not isinstance(room, dict) or not room.get("flavour") or room["flavour"] == f]
    parts = []
    for flavour in flavours:
        name = knowledge.flavour_display(flavour)
        fits = [w for w in shown.get("ways", []) if w.get("flavour") == flavour]
        entries = list(dict.fromkeys(f"{knowledge.strategy_label(w['strategy'], 'en')} · "
                                     f"{seq_short(int(w['seq_len']))}" for w in fits))
        parts.append(f"yes on {name} for {', '.join(entries)}" if entries else f"no on {name}")
    return "mixed: " + "; ".join(parts)
