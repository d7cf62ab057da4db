"""The estimate that goes beside a bracket or a stand-in: the model's shape (from the
known-models data, else the same-architecture table model's), estimated for what was asked."""

from __future__ import annotations

from dataclasses import replace

from mincards.bot.answering.answer import Answer, Note
from mincards.bot.estimating.estimate import Estimate, estimator
from mincards.bot.estimating.hf_config import of_known_model
from mincards.bot.estimating.shape import Shape, of_table_model
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.facts.known_models import KnownModel
from mincards.bot.reading.question import Question


def shape_of(knowledge: Knowledge, known: KnownModel | None = None,
             same_as: str | None = None, name: str = "") -> Shape | None:
    """A known model's shape; else, for a model of a table model's architecture, that model's
    shape under the asked name."""
    if known is not None:
        return of_known_model(known)
    info = knowledge.catalogue.models.get(same_as or "")
    shape = of_table_model(info) if info is not None else None
    return replace(shape, name=name or shape.name) if shape is not None else None


def asked_estimate(knowledge: Knowledge, shape: Shape | None, question: Question
                   ) -> Estimate | None:
    """The estimate for `shape`, narrowed to the strategies, lengths, frameworks and flavours
    asked (a length the table never lists is not estimated: no fit covers it)."""
    if shape is None:
        return None
    whole = estimator(knowledge).estimate(shape)
    cells = tuple(
        c for c in whole.cells
        if (not question.strategies or c.strategy in question.strategies)
        and (not question.seq_lens or c.seq_len in question.seq_lens)
        and (not question.frameworks or c.framework in question.frameworks)
        and (not question.flavours or c.flavour in question.flavours))
    if not cells and not whole.uncovered:
        return None
    return replace(whole, cells=cells)


def with_shape(knowledge: Knowledge, answer: Answer, shape: Shape, question: Question
               ) -> Answer:
    """A not-found answer with the estimate for a shape read since (a pasted config.json, the
    Hugging Face Hub)."""
    return replace(answer, estimate=asked_estimate(knowledge, shape, question))


def without_estimate(answer: Answer, reason: str) -> Answer:
    """Why no estimate could be made, said in the reply's remarks, never a number."""
    return replace(answer, notes=(*answer.notes, Note("no_estimate", {"reason": reason[:300]})))


def wants_shape(answer: Answer) -> bool:
    """An answer that a shape read from elsewhere could add an estimate to: a model the table
    and the known-models data lack, named or pasted."""
    return (answer.intent in ("not_found", "help") and not answer.models
            and answer.estimate is None and answer.stand_in is None
            and answer.note("not_in_version") is None)
