"""An estimate as every surface shows it: labelled "estimate, not the table's", its counts per
framework (a line per strategy, lengths with the same counts together, each with its range),
the method's held-out error in one line, and the page's advice beside it, never folded in."""

from __future__ import annotations

import math

from mincards.bot.answering.answer import Answer
from mincards.bot.estimating.estimate import MEASURABLE_TIMES, Estimate, EstimateCell
from mincards.bot.facts.calibration import Calibration, Tally
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.language import Language
from mincards.bot.replies.i18n import t
from mincards.bot.replies.lead import short_text
from mincards.bot.replies.render_budget import budget_text
from mincards.bot.replies.render_plan import number
from mincards.bot.replies.render_words import amount, seq_short


def percent(share: float) -> int:
    """A share as a whole percentage, rounded down: a method's record is never flattered."""
    return int(share * 100 + 1e-9)


def percent_up(share: float) -> int:
    """A share of misses as a whole percentage, rounded up: never flattered either."""
    return math.ceil(share * 100 - 1e-9)


def heading(estimate: Estimate, language: Language) -> str:
    shape = estimate.shape
    if estimate.lengthened_from:
        asked = max(c.seq_len for c in estimate.cells)
        return t(language, "estimate.heading_length", model=shape.name,
                 asked=seq_short(asked), longest=seq_short(estimate.lengthened_from))
    active = (t(language, "estimate.active", active=number(shape.active_b))
              if shape.active_b is not None and shape.moe else "")
    return t(language, "estimate.heading", model=shape.name, size=number(shape.params_b),
             active=active, source=t(language, f"estimate.source.{shape.source}"))


def cell_amount(knowledge: Knowledge, language: Language, cell: EstimateCell) -> str:
    said = amount(knowledge, language, cell.flavour, cell.count)
    if cell.high > cell.count:
        return t(language, "estimate.possibly", amount=said, high=cell.high)
    return said


def estimate_rows(knowledge: Knowledge, estimate: Estimate, language: Language) -> list[str]:
    """A line per framework and strategy, lengths with the same counts together:
    'MindSpeed-LLM · LoRA · 4K, 8K: Snt9B 8 cards, possibly 16 | Snt9B23 8 DIE, possibly 16'."""
    lines: list[str] = []
    for framework in dict.fromkeys(c.framework for c in estimate.cells):
        cells = [c for c in estimate.cells if c.framework == framework]
        name = knowledge.framework_names.get(framework, framework)
        for strategy in dict.fromkeys(c.strategy for c in cells):
            by_length: dict[int, list[EstimateCell]] = {}
            for c in cells:
                if c.strategy == strategy:
                    by_length.setdefault(c.seq_len, []).append(c)
            said: dict[str, list[int]] = {}
            for seq_len, row in by_length.items():
                text = " | ".join(
                    f"{knowledge.flavour_display(c.flavour)} {cell_amount(knowledge, language, c)}"
                    for c in row)
                said.setdefault(text, []).append(seq_len)
            label = knowledge.strategy_label(strategy, language)
            for text, lengths in said.items():
                lines.append(t(language, "estimate.line", framework=name, strategy=label,
                               counts=text, lengths=t(language, "list_sep").join(
                                   seq_short(n) for n in lengths)))
    return lines


def uncovered_lines(knowledge: Knowledge, estimate: Estimate, language: Language) -> list[str]:
    """What the estimate cannot stand on: frameworks with no model of its kind, and a size
    outside every model it was fitted on."""
    lines = [t(language, "estimate.uncovered", framework=knowledge.framework_names.get(fw, fw),
               kind=t(language, f"estimate.kind.{kind}")) for fw, kind in estimate.uncovered]
    if estimate.lengthened_from:
        used = {(c.framework, c.strategy) for c in estimate.cells}
        growth = t(language, "list_sep").join(
            t(language, "estimate.growth_one", framework=knowledge.framework_names.get(fw, fw),
              strategy=knowledge.strategy_label(strategy, language), factor=f"{factor:.2f}")
            for fw, strategy, factor in estimate.growth if (fw, strategy) in used)
        lines.append(t(language, "estimate.growth", longest=seq_short(estimate.lengthened_from),
                       growth=growth))
        if estimate.too_long:
            lines.append(t(language, "estimate.too_long",
                           asked=seq_short(max(c.seq_len for c in estimate.cells)),
                           times=MEASURABLE_TIMES,
                           longest=seq_short(estimate.lengthened_from)))
    beyond = estimate.beyond
    if beyond:
        size = estimate.shape.params_b
        up = size > beyond[0][2]
        fits = t(language, "list_sep").join(
            t(language, "estimate.fitted_up" if up else "estimate.fitted_down",
              framework=knowledge.framework_names.get(fw, fw),
              size=f"{number(high if up else low)}B") for fw, low, high in beyond)
        lines.append(t(language, "estimate.extrapolated_up" if up
                       else "estimate.extrapolated_down", size=f"{number(size)}B", fits=fits))
    return lines


def record_line(estimate: Estimate, language: Language) -> str | None:
    """The method's held-out record, for an estimate from a shape; a length grown past the
    table has none (no held-out model was ever asked at that length)."""
    if estimate.lengthened_from:
        return None
    return validation_line(estimate.validation, language, estimate.nested)


def validation_line(v: Tally, language: Language, nested: bool = False) -> str:
    """The method's record on models it never saw; nested: they were held out of the choice of
    terms too, and the share under (the costly miss) is said."""
    if nested:
        return t(language, "estimate.validation_nested", exact=percent(v.share(v.exact)),
                 within=percent(v.share(v.within_one)),
                 under=percent_up(v.share(v.under_one + v.under_more)))
    return t(language, "estimate.validation", exact=percent(v.share(v.exact)),
             within=percent(v.share(v.within_one)))


def advice_line(knowledge: Knowledge, estimate: Estimate, language: Language) -> str | None:
    """The page's advice ("below 8 cards, use 8"), said beside an estimate below it, never
    folded into its counts."""
    for cell in estimate.cells:
        floor = knowledge.hardware.flavours[cell.flavour].advise_node_below
        if floor and cell.count < floor:
            return t(language, "note.below_node", cards=floor)
    return None


def fewest(estimate: Estimate) -> EstimateCell | None:
    """The estimate's fewest count on the first flavour (for a one-line answer)."""
    if not estimate.cells:
        return None
    first = estimate.cells[0].flavour
    return min((c for c in estimate.cells if c.flavour == first), key=lambda c: c.count)


def budget_line(knowledge: Knowledge, answer: Answer) -> str | None:
    """A budget judged against the estimate, only ever said as "by estimate": which setups it
    holds, and which it does not with what they need."""
    estimate, room = answer.estimate, answer.room
    if estimate is None or answer.budget is None or not room or estimate.too_long:
        return None  # an extrapolation commits to no verdict
    lang = answer.language
    judged = [c for c in estimate.cells if c.flavour in room]
    if not judged:
        return None

    # Judged per framework and strategy: it holds when every length and flavour asked fits.
    setups: dict[tuple[str, str], list[EstimateCell]] = {}
    for c in judged:
        setups.setdefault((c.framework, c.strategy), []).append(c)

    def what(setup: tuple[str, str]) -> str:
        return (f"{knowledge.framework_names.get(setup[0], setup[0])} · "
                f"{knowledge.strategy_label(setup[1], lang)}")

    budget = budget_text(knowledge, lang, answer.budget)
    fits = [k for k, cells in setups.items() if all(c.count <= room[c.flavour] for c in cells)]
    short = [k for k in setups if k not in fits]
    parts = []
    if fits:
        parts.append(t(lang, "estimate.budget.fits", budget=budget,
                       what=t(lang, "list_sep").join(what(k) for k in fits)))
    if short:
        worst = max((c for k in short for c in setups[k]), key=lambda c: c.count)
        parts.append(t(lang, "estimate.budget.short", budget=budget,
                       what=t(lang, "list_sep").join(what(k) for k in short),
                       need=amount(knowledge, lang, worst.flavour, worst.count)))
    return t(lang, "estimate.budget", verdict=t(lang, "sentence_sep").join(
        p + ("" if i == len(parts) - 1 else t(lang, "estimate.budget.and"))
        for i, p in enumerate(parts)))


def short_reply(knowledge: Knowledge, answer: Answer) -> str:
    """`--short`: the lead, and after it the estimate's fewest count, labelled."""
    said = short_text(knowledge, answer)
    extra = (short_line(knowledge, answer.estimate, answer.language)
             if answer.estimate is not None else None)
    return said + t(answer.language, "sentence_sep") + extra if extra else said


def markdown_lines(knowledge: Knowledge, estimate: Estimate, language: Language) -> list[str]:
    """`--format markdown`: the estimate as its own table under a quoted label, apart from the
    table's rows."""
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    head = ["framework", "strategy", "seq_len", "flavour", "estimate", "up to"]
    rows = [line([knowledge.framework_names.get(c.framework, c.framework), c.strategy,
                  str(c.seq_len), f"{knowledge.flavour_display(c.flavour)} ({c.unit})",
                  str(c.count), str(c.high)]) for c in estimate.cells]
    return [f"> {heading(estimate, language)}",
            *[f"> {line}" for line in [record_line(estimate, language)] if line], "",
            line(head), "|" + "---|" * len(head), *rows]


def short_line(knowledge: Knowledge, estimate: Estimate, language: Language) -> str | None:
    cell = fewest(estimate)
    if cell is None:
        return None
    where = t(language, "list_sep").join([
        knowledge.framework_names.get(cell.framework, cell.framework),
        f"{knowledge.strategy_label(cell.strategy, language)} · {seq_short(cell.seq_len)}",
        knowledge.flavour_display(cell.flavour)])
    v = estimate.validation
    if estimate.lengthened_from:
        return t(language, "estimate.short_length",
                 amount=t(language, "estimate.short.where", where=where,
                          amount=cell_amount(knowledge, language, cell)),
                 longest=seq_short(estimate.lengthened_from),
                 extrapolated=t(language, "estimate.short_extrapolated")
                 if estimate.too_long else "")
    return t(language, "estimate.short",
             amount=t(language, "estimate.short.where", where=where,
                      amount=cell_amount(knowledge, language, cell)),
             exact=percent(v.share(v.exact)), within=percent(v.share(v.within_one)))


def estimate_lines(knowledge: Knowledge, estimate: Estimate, language: Language,
                   bullet: str = "- ", advice: bool = True, budget: str | None = None
                   ) -> list[str]:
    """The estimate as lines: heading, framework blocks, the method's record, and the page's
    advice (unless the reply says it already)."""
    lines = [heading(estimate, language)]
    lines += [f"{bullet}{line}" for line in estimate_rows(knowledge, estimate, language)]
    if budget:
        lines.append(budget)
    lines += uncovered_lines(knowledge, estimate, language)
    record = record_line(estimate, language)
    if record:
        lines.append(record)
    said = advice_line(knowledge, estimate, language) if advice else None
    if said:
        lines.append(said)
    return lines


def estimate_text(knowledge: Knowledge, estimate: Estimate, language: Language) -> str:
    return "\n".join(estimate_lines(knowledge, estimate, language))


def estimate_json(estimate: Estimate) -> dict[str, object]:
    return {"model": estimate.shape.name, "shape": estimate.shape.as_json(),
            "label": "estimate, not the table's",
            "estimates": [c.as_json() for c in estimate.cells],
            "uncovered": [{"framework": fw.replace("_", "-"), "kind": kind}
                          for fw, kind in estimate.uncovered],
            "extrapolated": estimate.extrapolated,
            "lengthened_from": estimate.lengthened_from or None,
            "growth_per_doubling": [{"framework": fw.replace("_", "-"), "strategy": s,
                                     "factor": f} for fw, s, f in estimate.growth],
            "fitted_sizes_b": {fw.replace("_", "-"): [low, high]
                               for fw, low, high in estimate.fitted_sizes},
            "validation": {**_tally_json(estimate.validation), "nested": estimate.nested},
            "calibrated_on": estimate.calibrated_on}


def _tally_row(name: str, v: Tally) -> str:
    def cell(n: int) -> str:
        return f"{n:4d} {percent(v.share(n)):3d}%"
    return (f"{name:22s} {v.held_out:5d}  {cell(v.exact)}  {cell(v.within_one)}  "
            f"{cell(v.under_one)}  {cell(v.under_more)}  {cell(v.over)}")


def validation_report(calibration: Calibration) -> str:
    """`mincards estimate --validate`: each of the table's models held out in turn, by
    framework and strategy and in total, with the terms kept and dropped and what was left out."""
    how = ("the terms chosen and the fit made on the rest (nested)" if calibration.nested
           else "fitted on the rest, with the terms chosen on all")
    lines = [f"Held out one model at a time (all its rows), {how}; table of "
             f"{calibration.page_date or 'no date'}.",
             f"{'':22s} {'rows':>5s}  {'exact':>9s}  {'within 1':>9s}  {'under 1':>9s}  "
             f"{'under >1':>9s}  {'over':>9s}"]
    for group in calibration.groups:
        lines.append(_tally_row(f"{group.framework} {group.strategy}", group.validation))
    lines.append(_tally_row("total", calibration.validation))
    lines.append("")
    lines.append("Fitted (GB of training state per billion parameters = bytes per parameter; "
                 "a unit's memory from hardware.toml):")
    for group in calibration.groups:
        factors = ", ".join(f"{term} ×{factor:g}" for term, factor in group.factors.items())
        lines.append(f"  {group.framework} {group.strategy}: {group.bytes_per_param:.1f} bytes "
                     f"per parameter{'; ' + factors if factors else ''}")
    if calibration.dropped:
        lines.append("Terms tried and not kept (held-out error with each, against the group's "
                     "best):")
        lines += [f"  {why}" for why in calibration.dropped]
    if calibration.disputed:
        lines.append("Table entries two steps or more from the held-out estimate (worth checking "
                     "against the source):")
        lines += [f"  {d}" for d in calibration.disputed]
    left = [p for p in calibration.policy if "no shape" not in p]
    lines.append(f"Left out of fit and measure: {len(left)} entries set by the page's policy or "
                 "contradicting the page itself:")
    lines += [f"  {p}" for p in calibration.policy]
    return "\n".join(lines)


def _tally_json(v: Tally) -> dict[str, object]:
    return {"held_out": v.held_out, "exact": round(v.share(v.exact), 3),
            "within_one_step": round(v.share(v.within_one), 3),
            "under_by_one": round(v.share(v.under_one), 3),
            "under_more_than_one": round(v.share(v.under_more), 3),
            "over": round(v.share(v.over), 3)}


def validation_json(calibration: Calibration) -> dict[str, object]:
    return {"calibrated_on": calibration.page_date, "nested": calibration.nested,
            "total": _tally_json(calibration.validation),
            "groups": [{"framework": g.framework.replace("_", "-"), "strategy": g.strategy,
                        "bytes_per_param": g.bytes_per_param, "factors": g.factors,
                        **_tally_json(g.validation)} for g in calibration.groups],
            "left_out": list(calibration.policy), "dropped": list(calibration.dropped),
            "disputed": list(calibration.disputed)}
