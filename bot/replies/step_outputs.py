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

STEP_CALLBACK_ID = "mincards_min_npus"


@dataclass(frozen=True)
class StepResult:
    outputs: dict[str, Any] = field(default_factory=dict)
    error: str | None = None  # one sentence: why the step failed


def output_names(knowledge: Knowledge) -> tuple[str, ...]:
    """Every output the step can give, as the manifest declares them."""
    per_flavour = [f"{fl}_{what}" for fl in knowledge.table.flavours
                   for what in ("fewest", "nodes")]
    return ("lead", *per_flavour, "verdict", "table_date")


def step_result(knowledge: Knowledge, answer: Answer, budget_given: bool) -> StepResult:
    """The step's outputs for an answer, or its failure."""
    said = render_json(knowledge, answer)
    lead = str(said.get("lead") or "")
    # A same-architecture stand-in's numbers are its table model's (the lead says whose).
    shown = said if answer.shown() is answer else render_json(knowledge, answer.shown())
    best = shown.get("best")
    if answer.shown().intent not in ("lookup", "plan") or not isinstance(best, dict) or not best:
        return StepResult(error=lead or "The table has no count for this question.")
    outputs: dict[str, Any] = {"lead": lead, "table_date": knowledge.table.source.date_text()}
    for flavour, cell in best.items():
        if isinstance(cell, dict) and isinstance(cell.get("count"), int):
            outputs[f"{flavour}_fewest"] = cell["count"]
            outputs[f"{flavour}_nodes"] = cell.get("nodes")
    if budget_given and isinstance(shown.get("verdict"), str):
        outputs["verdict"] = shown["verdict"]
    return StepResult(outputs=outputs)
