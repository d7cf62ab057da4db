"""The sentences of budget verdicts, capacity lists and comparisons, for text and Block Kit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from mincards.bot.answering.answer import Answer, Note
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.facts.sizes import size_value
from mincards.bot.facts.table import Entry
from mincards.bot.language import Language
from mincards.bot.reading.asked import Budget
from mincards.bot.replies.i18n import t
from mincards.bot.replies.render_words import amount, entry_heading, seq_short
from mincards.bot.replies.render_words import join_words as _join


def budget_text(knowledge: Knowledge, language: Language, budget: Budget) -> str:
    # A part of a node reads as people write it: 0.5, 0.67.
    count = budget.count if isinstance(budget.count, int) else f"{budget.count:.2f}".rstrip("0")
    text = t(language, f"budget.{budget.unit}", count=count,
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
                   for fl, fit in by_flavour.items()
                   if fit and not knowledge.is_suspect(entry, fw, fl)]
        if fitting:
            cells.append(knowledge.framework_names[fw] + t(lang, "colon")
                         + t(lang, "list_sep").join(fitting))
    return " · ".join(cells)


def _counting(knowledge: Knowledge, answer: Answer) -> list[str]:
    named = [f for f in answer.frameworks if knowledge.table.framework(f)]
    return [f for f in knowledge.table.framework_ids if not named or f in named]


def _fit_pass(knowledge: Knowledge, answer: Answer
              ) -> tuple[dict[str, dict[str, int]], dict[tuple[str, str], set[str]]]:
    """One pass over the rows that fit a budget: per model and flavour, the fewest count that
    fits (as the table writes it) and the strategies that fit; a suspect count never fits.
    Worked out once per answer's rows and budget (a whole-table pass)."""
    key = ("fit_pass", answer.models, tuple(e.key for e in answer.rows),
           tuple(answer.room.items()), answer.frameworks)
    return knowledge.memoized(key, lambda: _work_out_fits(knowledge, answer))


def _work_out_fits(knowledge: Knowledge, answer: Answer
                   ) -> tuple[dict[str, dict[str, int]], dict[tuple[str, str], set[str]]]:
    counting = _counting(knowledge, answer)
    fewest: dict[str, dict[str, int]] = {m: {} for m in answer.models}
    strategies: dict[tuple[str, str], set[str]] = {}
    suspect_models = knowledge.suspect_models
    for entry in answer.rows:
        by_framework = answer.fits.get(entry.key, {})
        maybe_suspect = entry.model in suspect_models
        low = fewest[entry.model]
        for framework in counting:
            for flavour, fit in by_framework.get(framework, {}).items():
                if not fit or (maybe_suspect
                               and knowledge.is_suspect(entry, framework, flavour)):
                    continue
                count = entry.count(framework, flavour)
                if count is None:
                    continue
                low[flavour] = count if flavour not in low else min(low[flavour], count)
                strategies.setdefault((entry.model, flavour), set()).add(entry.strategy)
    return fewest, strategies


def fewest_fitting(knowledge: Knowledge, answer: Answer) -> dict[str, dict[str, int]]:
    """Per model (biggest first), per flavour, the fewest count among its entries and
    frameworks that fit the budget there (as the table writes it); a flavour where none fits
    is left out."""
    return _fit_pass(knowledge, answer)[0]


def shown_notes(knowledge: Knowledge, answer: Answer, models: Sequence[str]) -> Answer:
    """A capacity answer keeping only the unit caveats (below a full node, below the 2-DIE
    unit) that the counts shown for `models` call for: a page of 16-card models says nothing
    about 1-card ones."""
    fewest = fewest_fitting(knowledge, answer)
    lowest: dict[str, int] = {}
    for m in models:
        for fl, count in fewest.get(m, {}).items():
            lowest[fl] = min(count, lowest.get(fl, count))
    notes: list[Note] = []
    for note in answer.notes:
        low = lowest.get(note.args.get("flavour", ""))
        if note.kind == "below_node" and (low is None or low >= note.args["cards"]):
            continue
        if note.kind == "die_below_unit":
            if low is None or low >= note.args["unit"]:
                continue
            note = Note(note.kind, {**note.args, "count": low})
        notes.append(note)
    return replace(answer, notes=tuple(notes))


def fitting_strategies(knowledge: Knowledge, answer: Answer) -> dict[str, dict[str, str]]:
    """Per model and flavour, when only some of the strategies asked about fit there, those
    ("LoRA only"); a model all of whose strategies fit on a flavour has none there. So that
    "Qwen2.5-72B: Snt9B 16 cards" never hides that only LoRA fits."""
    key = ("fitting_strategies", answer.language, answer.models,
           tuple(e.key for e in answer.rows), tuple(answer.room.items()), answer.frameworks,
           answer.strategies)
    return knowledge.memoized(key, lambda: _fitting_strategies(knowledge, answer))


def _fitting_strategies(knowledge: Knowledge, answer: Answer) -> dict[str, dict[str, str]]:
    lang = answer.language
    fitting = _fit_pass(knowledge, answer)[1]
    out: dict[str, dict[str, str]] = {}
    for model in answer.models:
        listed = {e.strategy for e in knowledge.table.entries_for(model)}
        asked = set(answer.strategies) & listed if answer.strategies else listed
        for flavour in answer.room:
            fit = fitting.get((model, flavour), set())
            if fit and fit < asked:
                names = _join(lang, [knowledge.strategy_label(s, lang)
                                     for s in knowledge.strategies if s in fit], "or")
                out.setdefault(model, {})[flavour] = t(lang, "capacity.only", strategies=names)
    return out


def _filters(knowledge: Knowledge, answer: Answer) -> str:
    """The question's own narrowing, in words: 'full-parameter at 4K with MindSpeed-LLM'."""
    lang = answer.language
    parts = []
    if answer.strategies:
        parts.append(_join(lang, [knowledge.strategy_label(s, lang) for s in answer.strategies],
                           "or"))
    if answer.seq_lens:
        parts.append(t(lang, "capacity.at", lengths=_join(lang, [
            seq_short(n) for n in answer.seq_lens], "or")))
    named = [f for f in answer.frameworks if knowledge.table.framework(f)]
    if named:
        parts.append(t(lang, "capacity.with", frameworks=_join(
            lang, [knowledge.framework_names[f] for f in named], "or")))
    if not parts:
        return ""
    # "for" goes before a strategy ("for LoRA at 8K"); "at 8K" and "with X" stand alone.
    key = "capacity.filters" if answer.strategies else "capacity.filters.bare"
    return t(lang, key, filters=" ".join(parts))


def _pool(knowledge: Knowledge, answer: Answer) -> list[str]:
    """The models asked about: the table's, or those of the family named ("which qwen")."""
    models = list(knowledge.table.models())
    asked = answer.pending
    if asked is None or not asked.family:
        return models
    return [m for m in models if (info := knowledge.catalogue[m]).family == asked.family
            and asked.versions <= set(info.versions)]


def capacity_head(knowledge: Knowledge, answer: Answer) -> str:
    """How many models fit, flavour by flavour, under the question's own filters; the few
    that fit nowhere, by name."""
    key = ("capacity_head", answer.language, answer.budget, answer.models,
           tuple(e.key for e in answer.rows), tuple(answer.room.items()), answer.frameworks,
           answer.strategies, answer.seq_lens, answer.pending)
    return knowledge.memoized(key, lambda: _capacity_head(knowledge, answer))


def _capacity_head(knowledge: Knowledge, answer: Answer) -> str:
    lang = answer.language
    assert answer.budget is not None
    if not answer.models:
        return t(lang, "capacity.none", budget=budget_text(knowledge, lang, answer.budget),
                 room=room_text(knowledge, answer))
    fewest = fewest_fitting(knowledge, answer)
    parts = [t(lang, "capacity.on", flavour=knowledge.flavour_display(fl),
               amount=amount(knowledge, lang, fl, n),
               count=sum(1 for by in fewest.values() if fl in by))
             for fl, n in answer.room.items()]
    pool = _pool(knowledge, answer)
    family = answer.pending.family if answer.pending else None
    said = t(lang, "capacity.count.family" if family else "capacity.count", total=len(pool),
             filters=_filters(knowledge, answer), parts=t(lang, "capacity.join").join(parts),
             family=family_name(knowledge, answer))
    missing = [m for m in pool if m not in fewest]
    if 0 < len(missing) <= MAX_NAMED_MISSES:
        said += t(lang, "sentence_sep") + t(lang, "capacity.misses", names=_join(
            lang, [knowledge.catalogue[m].display for m in missing]))
    if answer.largest:
        return _largest(knowledge, answer, fewest, family) + t(lang, "sentence_sep") + said
    return said


def _largest(knowledge: Knowledge, answer: Answer, fewest: dict[str, dict[str, int]],
             family: str | None) -> str:
    """'The largest Qwen3 model that fits, for full-parameter: Qwen3-8B on Snt9B (8 cards);
    Qwen3-32B on Snt9B23 (16 DIE).' Flavour by flavour (the same budget holds different
    models on each); models of the same size share the place."""
    lang = answer.language
    # The largest models on each flavour; flavours with the same ones said together.
    places: dict[tuple[str, ...], list[str]] = {}
    for flavour in answer.room:
        fitting = [m for m in answer.models if flavour in fewest.get(m, {})]
        if not fitting:
            continue
        top = max(size_value(knowledge.catalogue[m].size) for m in fitting)
        largest = tuple(m for m in fitting if size_value(knowledge.catalogue[m].size) == top)
        needs = _join(lang, sorted({amount(knowledge, lang, flavour, fewest[m][flavour])
                                    for m in largest}), "or")
        places.setdefault(largest, []).append(t(lang, "verdict.room", amount=needs,
                                                flavour=knowledge.flavour_display(flavour)))
    parts = [t(lang, "capacity.largest.on", rooms=_join(lang, rooms),
               models=_join(lang, [knowledge.catalogue[m].display for m in largest]))
             for largest, rooms in places.items()]
    key = "capacity.largest.family" if family else "capacity.largest"
    return t(lang, key, family=family_name(knowledge, answer), filters=_filters(
        knowledge, answer), places=t(lang, "semicolon").join(parts))


def family_name(knowledge: Knowledge, answer: Answer) -> str:
    """The family a capacity question narrowed to, as named: 'Qwen3', 'Llama', ''."""
    asked = answer.pending
    if asked is None or not asked.family:
        return ""
    words = knowledge.vocabulary.families.get(asked.family)
    if words is None:
        return asked.family
    return words.display + (words.version_sep + "/".join(sorted(asked.versions))
                            if asked.versions else "")


# The models that fit nowhere are named when they are this few.
MAX_NAMED_MISSES = 3


def capacity_summary_of(knowledge: Knowledge, answer: Answer) -> dict[str, str]:
    """Per model, biggest first, its line: 'Qwen2.5-72B: Snt9B 16 cards (LoRA only) · Snt9B23
    16 DIE'; a flavour it does not fit on says 'over budget' ("-" is the source's "not
    supported")."""
    key = ("capacity_summary", answer.language, answer.models,
           tuple(e.key for e in answer.rows), tuple(answer.room.items()), answer.frameworks)
    return knowledge.memoized(key, lambda: _capacity_summary(knowledge, answer))


def _capacity_summary(knowledge: Knowledge, answer: Answer) -> dict[str, str]:
    lang = answer.language
    lines = {}
    only = fitting_strategies(knowledge, answer)
    for model, by in fewest_fitting(knowledge, answer).items():
        cells = [f"{knowledge.flavour_display(fl)} " + (
            t(lang, "cell.none_fits") if fl not in by
            else t(lang, "capacity.cell.only", amount=amount(knowledge, lang, fl, by[fl]),
                   only=only[model][fl]) if fl in only.get(model, {})
            else amount(knowledge, lang, fl, by[fl])) for fl in answer.room]
        lines[model] = knowledge.catalogue[model].display + t(lang, "colon") + " · ".join(cells)
    return lines


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


def compare_rows(answer: Answer) -> tuple[Entry, ...]:
    """The entries a comparison shows below its lead: those where the models differ, those the
    question asked for by strategy and length, and those only one model lists; where they
    need the same, the lead's one line says it all."""
    differ = {(s.strategy, s.seq_len) for s in answer.comparison if not s.tie}
    compared = {(s.strategy, s.seq_len) for s in answer.comparison}
    asked = bool(answer.strategies and answer.seq_lens)
    return tuple(e for e in answer.rows if (e.strategy, e.seq_len) in differ
                 or (e.strategy, e.seq_len) not in compared
                 or (asked and e.strategy in answer.strategies
                     and e.seq_len in answer.seq_lens))
