"""The "Minimum NPUs" step for Workflow Builder (a custom step: `functions` in the manifest,
`function_runtime: remote`, Bolt's app.function): inputs the model as text, an optional
strategy, sequence length and budget; completes with the lead sentence, the fewest count and
nodes per flavour and the verdict, or fails with the reason in one sentence."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.context.complete.async_complete import AsyncComplete
from slack_bolt.context.fail.async_fail import AsyncFail

from mincards.bot.answering.engine import Engine
from mincards.bot.facts.links import model_sites
from mincards.bot.reading.model_links import read_link
from mincards.bot.replies.i18n import t
from mincards.bot.replies.render_words import seq_short
from mincards.bot.replies.step_outputs import STEP_CALLBACK_ID, StepResult, step_result
from mincards.handlers import metrics
from mincards.handlers.services import Services

EVENTS = ("function_executed",)
MAX_MODEL_CHARS = 300
MAX_SEQ_LEN = 10_000_000
log = logging.getLogger(__name__)


def _text(inputs: dict[str, Any], name: str) -> str:
    value = inputs.get(name)
    return value.strip() if isinstance(value, str) else ""


def step_question(engine: Engine, inputs: Any) -> tuple[str, bool] | str:
    """(the question the step's inputs ask, whether a budget was given), or why they ask
    nothing the table can answer (one sentence)."""
    inputs = inputs if isinstance(inputs, dict) else {}
    model = _text(inputs, "model")
    if not model or len(model) > MAX_MODEL_CHARS:
        return t("en", "step.no_model")
    link = read_link(model, model_sites())
    parts = [link.name if link is not None else model]
    strategy = _text(inputs, "strategy")
    if strategy:
        if not engine.questions.read(strategy).strategies:
            return t("en", "step.strategy", strategy=strategy[:40])
        parts.append(strategy)
    seq = inputs.get("seq_len")
    if seq not in (None, ""):
        number = seq if type(seq) is int else (int(seq) if isinstance(seq, str)
                                              and seq.strip().isdecimal() else None)
        if number is None or not 0 < number < MAX_SEQ_LEN:
            return t("en", "step.seq_len")
        parts.append(seq_short(number))
    budget = _text(inputs, "budget")
    if budget:
        problem = engine.budget_problem(budget)
        if problem is not None:
            reason, count = problem
            return t("en", f"modal.budget.{reason}", count=count)
        parts.append(f"on {budget}")
    return " ".join(parts), bool(budget)


def register(app: AsyncApp, services: Services) -> None:
    engine = services.engine

    async def finish(complete: AsyncComplete, fail: AsyncFail, result: StepResult) -> None:
        try:
            if result.error is not None:
                await fail(error=result.error)
            else:
                await complete(outputs=result.outputs)
        except ValueError:  # Bolt's: a payload without a function_execution_id
            log.warning("a workflow step event without its execution id; nothing to complete")
            metrics.surface_result("workflow_step", "malformed")
            return
        metrics.surface_result("workflow_step",
                               "failed" if result.error is not None else "completed")

    @app.function(STEP_CALLBACK_ID)
    @services.inflight.track
    async def minimum_npus(inputs: dict[str, Any], complete: AsyncComplete,
                           fail: AsyncFail) -> None:
        asked = await services.answering.run(lambda: step_question(engine, inputs))
        if isinstance(asked, str):
            await finish(complete, fail, StepResult(error=asked))
            return
        question, budget_given = asked
        answer = await services.answering.answer(lambda: engine.recall(question), question)
        await finish(complete, fail, step_result(engine.knowledge, answer, budget_given))
