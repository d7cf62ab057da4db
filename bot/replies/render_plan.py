"""A plan in words: the sentence that answers (hours, or the count a deadline needs, per
flavour), then the formula filled in with what was read, so anyone can check it by hand."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from mincards.bot.answering.answer import Answer
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.language import Language
from mincards.bot.reading.asked import Workload
from mincards.bot.replies.i18n import t
from mincards.bot.replies.render_words import (
    amount,
    entry_heading,
    join_words,
    plural,
    seq_short,
)

if TYPE_CHECKING:
    from mincards.bot.answering.plan import FlavourPlan, Plan

Mark = Callable[[str], str]


def number(value: float) -> str:
    """1800 -> '1,800', 0.9 -> '0.9', 17.146 -> '17.15'."""
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def counted(knowledge: Knowledge, language: Language, flavour: str, count: int) -> str:
    """'32 cards (4 nodes)' or '64 DIE (4 nodes)'."""
    nodes = knowledge.hardware.flavours[flavour].nodes(count)
    return t(language, "lead.count", amount=amount(knowledge, language, flavour, count),
             nodes=nodes, nodes_word=plural(language, nodes, "node", "nodes"))


def subject(knowledge: Knowledge, answer: Answer) -> str:
    """'Qwen2.5-72B · LoRA · 4K' for one entry, else the model's name."""
    model = knowledge.catalogue[answer.models[0]].display
    if len(answer.rows) == 1:
        return f"{model} · {entry_heading(knowledge, answer.language, answer.rows[0])}"
    return model


def _inputs(plan: Plan, language: Language) -> str:
    """What the figures were worked out with; a TPS that differs per flavour (recorded in
    data/tps.toml) is said in the formula lines, flavour by flavour."""
    key = "plan.inputs" if plan.tps else "plan.inputs.recorded"
    return t(language, key, tokens=number(plan.tokens or 0),
             tps=number(plan.tps) if plan.tps else "", efficiency=number(plan.efficiency))


def _part(knowledge: Knowledge, language: Language, side: FlavourPlan, strong: Mark) -> str:
    flavour = knowledge.flavour_display(side.flavour)
    if side.count is None:
        return ""
    count = counted(knowledge, language, side.flavour, side.count)
    if side.below_minimum and side.minimum:
        return t(language, "plan.part.below", flavour=flavour, count=count,
                 minimum=strong(counted(knowledge, language, side.flavour,
                                        side.minimum.count)))
    if side.hours is None:
        return ""
    hours = number(side.hours)
    if side.from_deadline:
        return t(language, "plan.part.deadline", flavour=flavour, count=strong(count),
                 hours=hours)
    return t(language, "plan.part.time", flavour=flavour, count=count, hours=strong(hours))


def plan_sentence(knowledge: Knowledge, answer: Answer, strong: Mark, text: Mark) -> str:
    """The lead of a plan."""
    lang = answer.language
    plan = answer.plan
    assert plan is not None
    name = text(subject(knowledge, answer))
    parts = [p for side in plan.flavours if (p := _part(knowledge, lang, side, strong))]
    if not parts:
        return ""
    joined = t(lang, "semicolon").join(parts)
    deadline = answer.workload.deadline_hours if answer.workload else None
    if any(side.from_deadline for side in plan.flavours) and deadline:
        sentence = t(lang, "plan.lead.deadline", subject=name, deadline=number(deadline),
                     parts=joined)
    else:
        sentence = t(lang, "plan.lead.time", subject=name, parts=joined)
    return sentence + text(_inputs(plan, lang))


def plan_needs(answer: Answer) -> str:
    """What a plan lacks to give a time or a count, as a sentence."""
    plan = answer.plan
    assert plan is not None
    lang = answer.language
    needs = [t(lang, f"plan.needs.{m}") for m in plan.missing] or [t(lang, "plan.needs.count")]
    return t(lang, "plan.missing", needs=join_words(lang, needs))


def _tokens_line(plan: Plan, work: Workload, language: Language) -> str:
    if plan.tokens is None:
        if work.samples is not None:
            return t(language, "plan.formula.samples_only", samples=number(work.samples))
        return t(language, "plan.formula.no_tokens")
    factors = []
    if work.tokens is not None:
        factors.append(number(work.tokens))
    else:
        factors += [t(language, "plan.formula.samples", n=number(work.samples or 0)),
                    t(language, "plan.formula.per_sample", n=number(work.sample_tokens or 0))]
    if work.epochs is not None:
        factors.append(t(language, "plan.formula.epochs", n=number(work.epochs)))
    if len(factors) == 1:
        return t(language, "plan.formula.tokens", tokens=number(plan.tokens))
    return t(language, "plan.formula.tokens_from", factors=" × ".join(factors),
             tokens=number(plan.tokens))


def plan_lines(knowledge: Knowledge, answer: Answer) -> list[str]:
    """The formula, filled in per flavour, and the table's minimum the count must reach."""
    lang = answer.language
    plan = answer.plan
    if plan is None:
        return []
    work = answer.workload or Workload()
    lines = [_tokens_line(plan, work, lang)]
    tokens = number(plan.tokens) if plan.tokens is not None else t(lang, "plan.formula.t")
    for side in plan.flavours:
        flavour = knowledge.flavour_display(side.flavour)
        info = knowledge.hardware.flavours[side.flavour]
        tps = number(side.tps) if side.tps else "TPS"
        if side.from_deadline and side.count is not None and work.deadline_hours:
            from mincards.bot.answering.plan import ROUND_ABOVE  # loaded by the plan itself

            rule = t(lang, "plan.formula.rule", above=ROUND_ABOVE)
            if (info.min_parallel_unit or 1) > 1:
                rule += t(lang, "list_sep") + t(lang, "plan.formula.rule_unit",
                                                step=info.min_parallel_unit)
            lines.append(t(lang, "plan.formula.count", flavour=flavour, tokens=tokens,
                           deadline=number(work.deadline_hours), tps=tps,
                           efficiency=number(plan.efficiency), raw=side.raw_count,
                           amount=amount(knowledge, lang, side.flavour, side.count), rule=rule))
        count = number(side.count) if side.count is not None else t(lang, "plan.formula.n")
        hours = number(side.hours) if side.hours is not None else "?"
        lines.append(t(lang, "plan.formula.time", flavour=flavour, tokens=tokens, tps=tps,
                       count=count, efficiency=number(plan.efficiency), hours=hours))
        if side.minimum is not None:
            low = side.minimum
            lines.append(t(lang, "plan.formula.minimum", flavour=flavour,
                           count=counted(knowledge, lang, side.flavour, low.count),
                           framework=knowledge.framework_names.get(low.framework,
                                                                   low.framework),
                           entry=f"{knowledge.strategy_label(low.strategy, lang)} · "
                                 f"{seq_short(low.seq_len)}"))
    if plan.tps_source == "data" and plan.data_source:
        lines.append(t(lang, "plan.formula.tps_data", source=plan.data_source))
    elif "tps" in plan.missing:
        lines.append(t(lang, "plan.formula.tps_where"))
    if work.efficiency is None:
        lines.append(t(lang, "plan.formula.efficiency_default", efficiency=number(
            plan.efficiency)))
    return lines
