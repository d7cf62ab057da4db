"""Example questions to click, made from the loaded table so they always have an answer.

Taken from the table rather than written down: a new page version that drops a model must not
leave help offering a question about it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.facts.sizes import size_value
from mincards.bot.language import Language
from mincards.bot.replies.i18n import t
from mincards.bot.replies.render_words import seq_short


def examples(knowledge: Knowledge, language: Language) -> list[str]:
    """A lookup with strategy and length, a budget, a comparison and a capacity question."""
    key = ("examples", language)
    return knowledge.memoized(key, lambda: _examples(knowledge, language))


def _newest(versions: Iterable[str]) -> float:
    return max((float(v) for v in versions if v.replace(".", "", 1).isdigit()), default=0.0)


def _examples(knowledge: Knowledge, language: Language) -> list[str]:
    table = knowledge.table
    cat = knowledge.catalogue
    models = list(table.models())
    if not models:
        return []
    strategies = {m: {e.strategy for e in table.entries_for(m)} for m in models}
    # The usual question: a model listed with every strategy, from the family the table lists
    # most of, listed most fully, the biggest of those.
    families = Counter(cat[m].family for m in models)
    model = max(models, key=lambda m: (len(strategies[m]), families[cat[m].family],
                                       len(table.entries_for(m)), size_value(cat[m].size),
                                       _newest(cat[m].versions)))
    entries = table.entries_for(model)
    last = knowledge.strategies[-1] if knowledge.strategies else entries[0].strategy
    entry = max((e for e in entries if e.strategy == last), key=lambda e: e.seq_len,
                default=entries[0])
    out = [t(language, "example.lookup", model=cat[model].display,
             strategy=knowledge.strategy_label(entry.strategy, language),
             seq=seq_short(entry.seq_len))]
    first = knowledge.hardware.flavours[table.flavours[0]]
    out.append(t(language, "example.budget", model=cat[model].display, count=first.per_node))
    # Its nearest neighbour in the same family and version, for a comparison.
    family = [m for m in models if m != model and cat[m].family == cat[model].family
              and cat[m].versions == cat[model].versions and cat[m].variant == cat[model].variant]
    if family:
        other = min(family, key=lambda m: abs(size_value(cat[m].size)
                                              - size_value(cat[model].size)))
        out.append(t(language, "example.compare", a=cat[other].display, b=cat[model].display))
    out.append(t(language, "example.capacity", count=2))
    return out
