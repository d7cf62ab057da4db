"""The sentences of budget verdicts, capacity lists and comparisons, for text and Block Kit."""

from __future__ import annotations

from mincards.bot.answering.answer import Answer
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.facts.table import Entry
from mincards.bot.language import Language
from mincards.bot.reading.asked import Budget
from mincards.bot.replies.i18n import t
from mincards.bot.replies.render_words import amount, entry_heading
from mincards.bot.replies.render_words import join_words as _join


def budget_text(knowledge: Knowledge, language: Language, budget: Budget) -> str:
    text = t(language, f"budget.{budget.unit}", count=budget.count,
             cards=t(language, "card" if budget.count == 1 else "cards"),
             nodes=t(language, "node" if budget.count == 1 else "nodes"))
    if budget.flavour and budget.flavour in knowledge.hardware.flavours:
        text = t(language, "budget.on", budget=text,
                 flavour=knowledge.flavour_display(budget.flavour))
    return text


def room_text(knowledge: Knowledge, answer: Answer) -> str:
    """'8 cards on Snt9B, 16 DIE on Snt9B23': what the budget gives on each flavour."""
    lang = answer.language
    return t(lang, "list_sep").join(
        t(lang, "room", flavour=knowledge.flavour_display(fl),
          amount=amount(knowledge, lang, fl, n)) for fl, n in answer.room.items())


def fit_cells(knowledge: Knowledge, answer: Answer, entry: Entry) -> str:
    """The frameworks and flavours an entry fits the budget on, with their counts."""
    lang = answer.language
    named = [f for f in answer.frameworks if knowledge.table.framework(f)]
    cells = []
    for fw, by_flavour in answer.fits.get(entry.key, {}).items():
        if named and fw not in named:
            continue
        fitting = [f"{knowledge.flavour_display(fl)} "
                   f"{amount(knowledge, lang, fl, entry.count(fw, fl) or 0)}"
                   for fl, fit in by_flavour.items() if fit]
        if fitting:
            cells.append(knowledge.framework_names[fw] + t(lang, "colon")
                         + t(lang, "list_sep").join(fitting))
    return " · ".join(cells)


def capacity_head(knowledge: Knowledge, answer: Answer) -> str:
    lang = answer.language
    assert answer.budget is not None
    args = {"budget": budget_text(knowledge, lang, answer.budget),
            "room": room_text(knowledge, answer)}
    if not answer.models:
        return t(lang, "capacity.none", **args)
    return t(lang, "capacity.count", count=len(answer.models),
             total=len(knowledge.table.models()), **args)


def capacity_lines(knowledge: Knowledge, answer: Answer) -> dict[str, list[str]]:
    """Per model, biggest first, a line per entry that fits, with where it fits."""
    key = ("capacity_lines", answer.language, answer.models, tuple(e.key for e in answer.rows),
           tuple(answer.room.items()), answer.frameworks)
    return knowledge.memoized(key, lambda: _capacity_lines(knowledge, answer))


def _capacity_lines(knowledge: Knowledge, answer: Answer) -> dict[str, list[str]]:
    lang = answer.language
    out: dict[str, list[str]] = {m: [] for m in answer.models}
    for e in answer.rows:
        out[e.model].append(entry_heading(knowledge, lang, e) + t(lang, "colon")
                            + fit_cells(knowledge, answer, e))
    return out


def compare_lines(knowledge: Knowledge, answer: Answer) -> list[str]:
    """Entry by entry and flavour by flavour, each model's fewest and which needs fewer."""
    lang = answer.language
    sides = answer.comparison
    if not sides:
        return [t(lang, "compare.none")]
    lines = []
    for side in sides:
        entry = next(e for e in answer.rows if (e.strategy, e.seq_len) == (side.strategy,
                                                                           side.seq_len))
        counts = t(lang, "list_sep").join(
            t(lang, "compare.count", model=knowledge.catalogue[m].display,
              count=t(lang, "not_supported") if f.count is None
              else amount(knowledge, lang, side.flavour, f.count))
            for m, f in side.fewest.items())
        verdict = (t(lang, "compare.same") if len(side.fewer) == len(answer.models)
                   else t(lang, "compare.fewer", model=_join(lang, [
                       knowledge.catalogue[m].display for m in side.fewer])))
        lines.append(t(lang, "compare.side", heading=entry_heading(knowledge, lang, entry),
                       flavour=knowledge.flavour_display(side.flavour), counts=counts,
                       verdict=verdict))
    return lines
