"""Entries the fit leaves out, found rather than listed: counts set by the page's policy and
counts the page contradicts itself on. Each is reported with its reason, never fitted."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from mincards.bot.estimating.observations import Observation

# A family's small models "all say N" when at least this many of them, this far apart in size
# (largest over smallest), list the same count.
RUN_MODELS = 3
RUN_SPAN = 4.0


def contradicted(found: Iterable[Observation],
                 suspects: frozenset[tuple[str, str, int, str, str]]) -> dict[str, str]:
    """Both strategies of a cell where the page lists the heavier one below the lighter (full
    fine-tuning on fewer cards than LoRA): which of the two is wrong, the page does not say."""
    places = {(model, seq, fw, fl) for model, _, seq, fw, fl in suspects}
    return {o.label: "the page lists full fine-tuning below LoRA here"
            for o in found if (o.model, o.seq_len, o.framework, o.flavour) in places}


def family_runs(found: Iterable[Observation]) -> dict[str, str]:
    """A family's smallest models listing one count whatever their size: a floor the page set,
    not memory they fill."""
    groups: dict[tuple[str, str, int, str, str], list[Observation]] = {}
    for o in found:
        groups.setdefault((o.family, o.strategy, o.seq_len, o.framework, o.flavour), []).append(o)
    out: dict[str, str] = {}
    for members in groups.values():
        members.sort(key=lambda o: o.shape.params_b)
        run = [members[0]]
        for o in members[1:]:
            if o.count != run[0].count:
                break
            run.append(o)
        sizes = {o.shape.params_b for o in run}
        if len(sizes) >= RUN_MODELS and max(sizes) >= RUN_SPAN * min(sizes):
            for o in run:
                out[o.label] = (f"the family's {len(run)} smallest models all list "
                                f"{run[0].count}, whatever their size")
    return out


def page_advice(found: Iterable[Observation], predicted: Callable[[Observation], int],
                advice: dict[str, int]) -> dict[str, str]:
    """Rows listing the page's advised floor ("below 8 cards, use 8") where the fit says
    fewer: on an advising flavour, and the row's same count on the others."""
    rows: dict[tuple[str, str, int, str], list[Observation]] = {}
    for o in found:
        rows.setdefault(o.row, []).append(o)
    out: dict[str, str] = {}
    for row in rows.values():
        floors = {o.count for o in row
                  if advice.get(o.flavour) == o.count and predicted(o) < o.count}
        for o in row:
            if o.count in floors:
                out[o.label] = (f"the page's advice (below {o.count}, use {o.count}) where "
                                "the fit says fewer")
    return out
