"""Counts the table itself makes suspect: a heavier strategy listed below a lighter one (full
fine-tuning with fewer cards than LoRA) for the same model, length, framework and flavour is
almost surely an error in the source. Such a cell is shown where it belongs, marked, and never
answers: never a lead, a fewest count, a bold cell, a fit or a plan's minimum."""

from __future__ import annotations

from mincards.bot.facts.table import Table
from mincards.bot.facts.vocabulary import Vocabulary

# (model, strategy, seq_len, framework, flavour)
Cell = tuple[str, str, int, str, str]


def suspect_cells(table: Table, vocabulary: Vocabulary) -> frozenset[Cell]:
    """Every cell of a strategy listed below one it needs no more than (the vocabulary's
    `needs_no_more_than`: LoRA needs no more than full)."""
    by_key = {e.key: e for e in table.entries}
    out: set[Cell] = set()
    for lighter, words in vocabulary.strategies.items():
        heavier = words.needs_no_more_than
        if not heavier:
            continue
        for (model, strategy, seq_len), light in by_key.items():
            heavy = by_key.get((model, heavier, seq_len)) if strategy == lighter else None
            if heavy is None:
                continue
            for fw in table.framework_ids:
                for fl in table.flavours:
                    h, li = heavy.count(fw, fl), light.count(fw, fl)
                    if h is not None and li is not None and h < li:
                        out.add((model, heavier, seq_len, fw, fl))
    return frozenset(out)
