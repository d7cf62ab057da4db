"""Calibrating the estimator on the table in use: leave out what the page set by policy, choose
the terms that lower the error on models held out one at a time, fit, and measure.

Held out one at a time: each of the table's models in turn (all its rows) is predicted by a fit
on the others; every figure the estimator states comes from that, never from a fit that saw the
model it predicts. Nested (`nested=True`): the choice of terms is part of the method, so each
held-out model is predicted with the terms chosen, and the fit made, without it — the figure a
model the page never listed can expect.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from mincards.bot.estimating import policy
from mincards.bot.estimating.fit import TERMS, Coefficients, Sample, cost, fit_group, steps
from mincards.bot.estimating.observations import Observation, inputs_digest, observations, units
from mincards.bot.facts.calibration import Calibration, GroupFit, Tally
from mincards.bot.facts.knowledge import Knowledge

Group = tuple[str, str]
# Terms every group fits wherever it has models they apply to: a mixture of experts differs
# from a dense model of its total size, and a selection that drops the term when one of a
# group's two MoE models is held out predicted the other two steps under (nested check,
# 2025-06-24 table: 6 cells two steps under with selection, none with the term kept).
STRUCTURAL = ("moe",)
# Extra terms a framework and strategy may choose beyond those, by the held-out error. On the
# 2025-06-24 table, measured nested (each model held out of the choice too), choosing one more
# (long, size, vision, or activations and logits added to the parameters) lowered the share
# exact and raised the share under: none is chosen (docs/beyond-the-table.md has the figures).
MAX_TERMS = 0


def tally(step: float) -> Tally:
    exact = abs(step) < 1e-9
    return Tally(held_out=1, exact=int(exact), within_one=int(abs(step) <= 1 + 1e-9),
                 under_one=int(-1 - 1e-9 <= step < -1e-9), under_more=int(step < -1 - 1e-9),
                 over=int(step > 1e-9))


@dataclass(frozen=True)
class HeldOut:
    """Leave-one-model-out over some samples with some terms."""

    tallies: dict[Group, Tally]
    cost: float
    predictions: dict[str, int]  # observation label -> predicted count


def samples_of(found: Iterable[Observation], knowledge: Knowledge) -> list[Sample]:
    filled = units(knowledge)
    found = list(found)
    shortest: dict[Group, int] = {}
    for o in found:
        shortest[o.group] = min(shortest.get(o.group, o.seq_len), o.seq_len)
    return [Sample(o, filled[o.flavour], shortest[o.group]) for o in found]


# Fits already made, by terms and the very samples (their counts and shapes, not only their
# labels): the nested check fits each pair of held-out models twice over (m inside j's loop, j
# inside m's), and every trial fits the same sets again. Bounded: cleared when full.
_FITS: dict[tuple[tuple[str, ...], frozenset[Sample]], dict[Group, Coefficients]] = {}
_FITS_BOUND = 50_000


def fit_all(samples: Sequence[Sample], terms: Sequence[str]) -> dict[Group, Coefficients]:
    key = (tuple(terms), frozenset(samples))
    found = _FITS.get(key)
    if found is None:
        if len(_FITS) >= _FITS_BOUND:
            _FITS.clear()
        found = _FITS[key] = _fit_all(samples, terms)
    return found


def _fit_all(samples: Sequence[Sample], terms: Sequence[str]) -> dict[Group, Coefficients]:
    by_group: dict[Group, list[Sample]] = {}
    for s in samples:
        by_group.setdefault(s.observation.group, []).append(s)
    return {g: fit_group(members, terms)[0] for g, members in by_group.items()}


def predict(coefficients: Coefficients, sample: Sample) -> int:
    o = sample.observation
    return coefficients.count(o.shape, o.seq_len, sample.shortest, sample.unit)


def held_out(samples: Sequence[Sample], terms: Sequence[str]) -> HeldOut:
    tallies: dict[Group, Tally] = {}
    spent = 0.0
    predictions: dict[str, int] = {}
    for model in dict.fromkeys(s.observation.model for s in samples):
        train = [s for s in samples if s.observation.model != model]
        fits = fit_all(train, terms)
        for s in samples:
            o = s.observation
            if o.model != model or o.group not in fits:
                continue  # a group only this model has: nothing to predict it from
            count = predict(fits[o.group], s)
            step = steps(count, o.count)
            predictions[o.label] = count
            tallies[o.group] = tallies.get(o.group, Tally()).plus(tally(step))
            spent += cost(step)
    return HeldOut(tallies, spent, predictions)


@dataclass(frozen=True)
class Trial:
    """One set of terms, measured: the page's advised floors it finds, then each remaining
    model held out in turn."""

    terms: tuple[str, ...]
    advised: dict[str, str]
    usable: list[Sample]
    measured: HeldOut

    @property
    def error(self) -> float:
        """The held-out cost per prediction: what a term must lower to be kept."""
        count = sum(t.held_out for t in self.measured.tallies.values())
        return self.measured.cost / count if count else 0.0


def trial(samples: Sequence[Sample], terms: Sequence[str], advice: dict[str, int]) -> Trial:
    fits = fit_all(samples, terms)
    by_label = {s.observation.label: s for s in samples}
    advised = policy.page_advice((s.observation for s in samples),
                                 lambda o: predict(fits[o.group], by_label[o.label]), advice)
    usable = [s for s in samples if s.observation.label not in advised]
    return Trial(tuple(terms), advised, usable, held_out(usable, terms))


def choose_terms(samples: Sequence[Sample], advice: dict[str, int]) -> tuple[Trial, list[str]]:
    """(the best trial, terms dropped with why): forward selection, a term kept only when it
    lowers the held-out error."""
    # A term that applies to none of the group's models (no mixture of experts, one length)
    # cannot change a prediction: neither fitted nor tried.
    applying = [term for term, applies in TERMS.items()
                if any(applies(s.observation.shape, s.observation.seq_len, s.shortest)
                       for s in samples)]
    base = [term for term in STRUCTURAL if term in applying]
    best = trial(samples, base, advice)
    dropped: list[str] = []
    candidates = [term for term in applying if term not in base]
    while candidates and len(best.terms) - len(base) < MAX_TERMS:
        trials = {term: trial(samples, [*best.terms, term], advice) for term in candidates}
        term = min(trials, key=lambda t: trials[t].error)
        without = best.error
        if trials[term].error < without - 1e-9:
            best = trials[term]
            candidates.remove(term)
            dropped.extend(f"{t}: held-out error {trials[t].error:.3f} against "
                           f"{best.error:.3f} with {term} instead" for t in candidates)
            continue
        dropped.extend(f"{t}: held-out error {trials[t].error:.3f} against {without:.3f} "
                       "without it" for t in candidates)
        break
    return best, dropped


def per_doubling(kept: Sequence[Observation]) -> float:
    """What a doubling of the sequence length multiplies a count by, on the table's own steps:
    for each model and flavour listing two lengths, how many doublings of count each doubling
    of length took (0 when the count stayed, 1 when it doubled), averaged, as a factor. 1 when
    no model lists two lengths."""
    by_cell: dict[tuple[str, str], dict[int, int]] = {}
    for o in kept:
        by_cell.setdefault((o.model, o.flavour), {})[o.seq_len] = o.count
    growth = []
    for counts in by_cell.values():
        lengths = sorted(counts)
        for short, long in itertools.pairwise(lengths):
            growth.append(math.log2(counts[long] / counts[short]) / math.log2(long / short))
    return 2 ** (sum(growth) / len(growth)) if growth else 1.0


def nested_held_out(members: Sequence[Sample], measured: Sequence[Sample],
                    advice: dict[str, int]) -> Tally:
    """Each model of `measured` predicted by terms chosen, and a fit made, on the other models
    of `members` alone (selection and fit both blind to it)."""
    found = Tally()
    for model in dict.fromkeys(s.observation.model for s in measured):
        rest = [s for s in members if s.observation.model != model]
        if not rest:
            continue
        inner, _ = choose_terms(rest, advice)
        fits = fit_all(inner.usable, inner.terms)
        for s in measured:
            o = s.observation
            if o.model == model and o.group in fits:
                found = found.plus(tally(steps(predict(fits[o.group], s), o.count)))
    return found


def calibrate(knowledge: Knowledge, terms: Mapping[str, Sequence[str]] | None = None,
              nested: bool = False) -> Calibration:
    """Fit the estimator to `knowledge`'s table and measure it, framework by framework and
    strategy by strategy (each its own fit, its own terms). `terms`: the extra terms for each
    group ("framework.strategy"); None chooses them (slower: each candidate is held out).
    `nested`: measure with the choice of terms inside the held-out loop (some 30 times slower);
    the figures stated are then the nested ones."""
    found, shapeless = observations(knowledge)
    left_out = {**policy.contradicted(found, knowledge.suspects), **policy.family_runs(found)}
    samples = samples_of((o for o in found if o.label not in left_out), knowledge)
    advice = {fl: info.advise_node_below for fl, info in knowledge.hardware.flavours.items()
              if info.advise_node_below}
    by_group: dict[Group, list[Sample]] = {}
    for s in samples:
        by_group.setdefault(s.observation.group, []).append(s)
    groups = []
    dropped: list[str] = []
    disputed: list[str] = []
    total = Tally()
    for group, members in by_group.items():
        key = ".".join(group)
        if terms is None:
            chosen, why = choose_terms(members, advice)
            dropped += [f"{key} {reason}" for reason in why]
        else:
            chosen = trial(members, [t for t in terms.get(key, ()) if t in TERMS], advice)
        left_out.update(chosen.advised)
        for sample in chosen.usable:
            o = sample.observation
            guess = chosen.measured.predictions.get(o.label)
            if guess is not None and abs(steps(guess, o.count)) >= 2 - 1e-9:
                disputed.append(f"{o.label}: the table lists {o.count}, the estimate {guess}")
        coefficients = fit_all(chosen.usable, chosen.terms)[group]
        measured = chosen.measured.tallies.get(group, Tally())
        if nested and terms is None:
            measured = nested_held_out(members, chosen.usable, advice)
        total = total.plus(measured)
        kept = [o.observation for o in chosen.usable]
        groups.append(GroupFit(
            framework=group[0], strategy=group[1],
            bytes_per_param=round(coefficients.bytes_per_param, 4),
            factors=dict(coefficients.factors),
            kinds=tuple(sorted({o.shape.kind for o in kept})),
            seq_lens=tuple(sorted({o.seq_len for o in found if o.group == group})),
            kind_lengths={kind: tuple(sorted({o.seq_len for o in found
                                              if o.group == group and o.shape.kind == kind}))
                          for kind in sorted({o.shape.kind for o in kept})},
            flavours=tuple(dict.fromkeys(o.flavour for o in kept)),
            sizes=(min(o.shape.params_b for o in kept), max(o.shape.params_b for o in kept))
            if kept else (0.0, 0.0),
            per_doubling=round(per_doubling(kept), 3),
            validation=measured))
    date = knowledge.table.source.date
    notes = [f"{label}: {why}" for label, why in sorted(left_out.items())]
    notes += [f"{model}: no shape in models.toml, not fitted" for model in shapeless]
    used = sorted({term for g in groups for term in g.factors})
    return Calibration(inputs=inputs_digest(found, knowledge),
                       page_date=date.isoformat() if date else "",
                       terms=("bytes_per_param", *used), groups=tuple(groups),
                       # With no choice of terms beyond the structural ones, holding a
                       # model out of the fit is holding it out of the whole method.
                       validation=total, nested=(nested and terms is None) or (
                           MAX_TERMS == 0 and set(used) <= set(STRUCTURAL)),
                       policy=tuple(notes), dropped=tuple(dropped), disputed=tuple(disputed))
