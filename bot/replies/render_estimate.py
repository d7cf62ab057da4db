"""An estimate as every surface shows it: labelled "estimate, not the table's", its counts per
framework (a line per strategy, lengths with the same counts together, each with its range),
the method's held-out error in one line, and the page's advice beside it, never folded in."""

from __future__ import annotations

from mincards.bot.estimating.estimate import Estimate, EstimateCell
from mincards.bot.facts.calibration import Calibration, Tally
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.language import Language
from mincards.bot.replies.i18n import t
from mincards.bot.replies.render_plan import number
from mincards.bot.replies.render_words import amount, seq_short


def percent(share: float) -> int:
    """A share as a whole percentage, rounded down: a method's record is never flattered."""
    return int(share * 100 + 1e-9)


def heading(estimate: Estimate, language: Language) -> str:
    shape = estimate.shape
    active = (t(language, "estimate.active", active=number(shape.active_b))
              if shape.active_b is not None and shape.moe else "")
    return t(language, "estimate.heading", model=shape.name, size=number(shape.params_b),
             active=active, source=t(language, f"estimate.source.{shape.source}"))


def cell_amount(knowledge: Knowledge, language: Language, cell: EstimateCell) -> str:
    said = amount(knowledge, language, cell.flavour, cell.count)
    if cell.high > cell.count:
        return t(language, "estimate.possibly", amount=said, high=cell.high)
    return said


def framework_lines(knowledge: Knowledge, estimate: Estimate, language: Language
                    ) -> list[tuple[str, list[str]]]:
    """(framework name, its lines): 'LoRA · 4K, 8K: Snt9B 8 cards, possibly 16 | Snt9B23 ...'."""
    out: list[tuple[str, list[str]]] = []
    frameworks = list(dict.fromkeys(c.framework for c in estimate.cells))
    for framework in frameworks:
        lines: list[str] = []
        cells = [c for c in estimate.cells if c.framework == framework]
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
                lines.append(f"{label} · {', '.join(seq_short(n) for n in lengths)}: {text}")
        out.append((knowledge.framework_names.get(framework, framework), lines))
    return out


def uncovered_lines(knowledge: Knowledge, estimate: Estimate, language: Language) -> list[str]:
    return [t(language, "estimate.uncovered", framework=knowledge.framework_names.get(fw, fw),
              kind=t(language, f"estimate.kind.{kind}")) for fw, kind in estimate.uncovered]


def validation_line(calibration: Calibration, language: Language) -> str:
    v = calibration.validation
    return t(language, "estimate.validation", exact=percent(v.share(v.exact)),
             within=percent(v.share(v.within_one)))


def advice_line(knowledge: Knowledge, language: Language) -> str | None:
    floors = [info.advise_node_below for info in knowledge.hardware.flavours.values()
              if info.advise_node_below]
    return t(language, "estimate.advice", n=floors[0]) if floors else None


def fewest(estimate: Estimate) -> EstimateCell | None:
    """The estimate's fewest count on the first flavour (for a one-line answer)."""
    if not estimate.cells:
        return None
    first = estimate.cells[0].flavour
    return min((c for c in estimate.cells if c.flavour == first), key=lambda c: c.count)


def short_line(knowledge: Knowledge, estimate: Estimate, language: Language) -> str | None:
    cell = fewest(estimate)
    if cell is None:
        return None
    what = (f"{knowledge.framework_names.get(cell.framework, cell.framework)}, "
            f"{knowledge.strategy_label(cell.strategy, language)} · {seq_short(cell.seq_len)}, "
            f"{knowledge.flavour_display(cell.flavour)}")
    return t(language, "estimate.short",
             amount=f"{cell_amount(knowledge, language, cell)} ({what})")


def estimate_text(knowledge: Knowledge, estimate: Estimate, calibration: Calibration,
                  language: Language) -> str:
    """The estimate as plain text: heading, framework blocks, the method's record, advice."""
    lines = [heading(estimate, language)]
    for name, body in framework_lines(knowledge, estimate, language):
        lines.append(name)
        lines += [f"- {line}" for line in body]
    lines += uncovered_lines(knowledge, estimate, language)
    lines.append(validation_line(calibration, language))
    advice = advice_line(knowledge, language)
    if advice:
        lines.append(advice)
    return "\n".join(lines)


def estimate_json(estimate: Estimate, calibration: Calibration) -> dict[str, object]:
    return {"model": estimate.shape.name, "shape": estimate.shape.as_json(),
            "label": "estimate, not the table's",
            "estimates": [c.as_json() for c in estimate.cells],
            "uncovered": [{"framework": fw.replace("_", "-"), "kind": kind}
                          for fw, kind in estimate.uncovered],
            "validation": _tally_json(calibration.validation),
            "calibrated_on": calibration.page_date}


def _tally_row(name: str, v: Tally) -> str:
    def cell(n: int) -> str:
        return f"{n:4d} {percent(v.share(n)):3d}%"
    return (f"{name:22s} {v.held_out:5d}  {cell(v.exact)}  {cell(v.within_one)}  "
            f"{cell(v.under_one)}  {cell(v.under_more)}  {cell(v.over)}")


def validation_report(calibration: Calibration) -> str:
    """`mincards estimate --validate`: each of the table's models held out in turn, by
    framework and strategy and in total, with the terms kept and dropped and what was left out."""
    lines = [f"Held out one model at a time (all its rows), fitted on the rest; table of "
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
        lines.append("Terms tried and dropped (they did not lower the held-out error):")
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
    return {"calibrated_on": calibration.page_date, "total": _tally_json(calibration.validation),
            "groups": [{"framework": g.framework.replace("_", "-"), "strategy": g.strategy,
                        "bytes_per_param": g.bytes_per_param, "factors": g.factors,
                        **_tally_json(g.validation)} for g in calibration.groups],
            "left_out": list(calibration.policy), "dropped": list(calibration.dropped),
            "disputed": list(calibration.disputed)}
