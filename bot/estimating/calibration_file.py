"""data/estimator.toml written from a Calibration (read back by facts/calibration)."""

from __future__ import annotations

import json
from dataclasses import asdict

from mincards.bot.facts.calibration import Calibration

HEADER = """\
# The estimator's calibration on table.csv (bot/estimating): written by `mincards import-table`
# and `mincards estimate --calibrate`; do not edit. A table, shape or memory that changed since
# (`inputs` differs) is fitted again when loaded. `mincards estimate --validate` prints this.
"""


def _value(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return json.dumps(value, ensure_ascii=False)


def dump_calibration(calibration: Calibration) -> str:
    lines = [HEADER, "[calibration]",
             f"inputs = {_value(calibration.inputs)}",
             f"page_date = {_value(calibration.page_date)}",
             f"terms = {_value(calibration.terms)}",
             f"validation = {_value(asdict(calibration.validation))}",
             f"nested = {_value(calibration.nested)}",
             "policy = ["]
    lines += [f"  {_value(note)}," for note in calibration.policy]
    lines += ["]", "dropped = ["]
    lines += [f"  {_value(note)}," for note in calibration.dropped]
    lines += ["]", "disputed = ["]
    lines += [f"  {_value(note)}," for note in calibration.disputed]
    lines.append("]")
    for group in calibration.groups:
        lines += ["", "[[group]]",
                  f"framework = {_value(group.framework)}",
                  f"strategy = {_value(group.strategy)}",
                  f"bytes_per_param = {_value(group.bytes_per_param)}",
                  f"factors = {_value(group.factors)}",
                  f"kinds = {_value(group.kinds)}",
                  f"seq_lens = {_value(group.seq_lens)}",
                  f"kind_lengths = {_value(group.kind_lengths)}",
                  f"flavours = {_value(group.flavours)}",
                  f"sizes = {_value(group.sizes)}",
                  f"per_doubling = {_value(group.per_doubling)}",
                  f"validation = {_value(asdict(group.validation))}"]
    return "\n".join(lines) + "\n"
