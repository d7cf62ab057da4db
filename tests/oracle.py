"""Expected answers computed straight from the data files, with none of the bot's code.

Reads data/table.csv with the csv module and hardware.toml / models.toml with tomllib, and does
the budget arithmetic the issue states: N cards are N on a card-counted flavour and N x DIE per
card on a DIE-counted one; N DIE only on DIE-counted flavours; N nodes are N x per_node; an
entry needs at least the flavour's smallest parallel unit.
"""

from __future__ import annotations

import csv
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"
Key = tuple[str, str, int]


@dataclass(frozen=True)
class Row:
    model: str
    strategy: str
    seq_len: int
    counts: dict[tuple[str, str], int | None]

    @property
    def key(self) -> Key:
        return (self.model, self.strategy, self.seq_len)


@cache
def rows() -> tuple[Row, ...]:
    lines = [ln for ln in (DATA / "table.csv").read_text(encoding="utf-8").splitlines()
             if ln.strip() and not ln.startswith("#")]
    out = []
    for record in csv.DictReader(lines):
        counts = {tuple(k.split(".")): None if v == "-" else int(v)
                  for k, v in record.items() if "." in k}
        out.append(Row(record["model"], record["strategy"], int(record["seq_len"]),
                       counts))  # type: ignore[arg-type]
    return tuple(out)


@cache
def flavours() -> dict[str, dict[str, object]]:
    data = tomllib.loads((DATA / "hardware.toml").read_text(encoding="utf-8"))
    return dict(data["flavours"])


@cache
def sizes() -> dict[str, float]:
    models = tomllib.loads((DATA / "models.toml").read_text(encoding="utf-8"))["models"]
    out = {}
    for key, info in models.items():
        m = re.match(r"(?:(\d+)x)?([\d.]+)b", info["size"])
        assert m
        out[key] = float(m.group(2)) * (int(m.group(1)) if m.group(1) else 1)
    return out


def frameworks() -> list[str]:
    return list(dict.fromkeys(fw for fw, _ in rows()[0].counts))


def room(count: float, unit: str, flavour: str | None = None) -> dict[str, int]:
    """A part of a node is that share of the node's whole cards (in DIE: 2 per card)."""
    out = {}
    for name, info in flavours().items():
        if flavour and name != flavour:
            continue
        die = info.get("die_per_card")
        if unit == "card":
            out[name] = count * (int(die) if die else 1)  # type: ignore[call-overload]
        elif unit == "die" and die:
            out[name] = count
        elif unit == "node":
            per_card = int(die) if die else 1  # type: ignore[call-overload]
            cards = int(info["per_node"]) // per_card  # type: ignore[call-overload]
            out[name] = int(count * cards) * per_card
    return out


def fits(row: Row, space: dict[str, int]) -> dict[str, dict[str, bool | None]]:
    def need(count: int, flavour: str) -> int:
        unit = flavours()[flavour].get("min_parallel_unit")
        return max(count, int(unit) if unit else 1)  # type: ignore[call-overload]

    return {fw: {fl: None if (c := row.counts[(fw, fl)]) is None else need(c, fl) <= amount
                 for fl, amount in space.items()} for fw in frameworks()}


@cache
def strategy_order() -> list[str]:
    vocabulary = tomllib.loads((DATA / "vocabulary.toml").read_text(encoding="utf-8"))
    return list(vocabulary["strategies"])


def select(model: str, strategy: str | None = None, seq: int | None = None) -> list[Row]:
    """A model's entries under a strategy and a length (that length, or the next one listed),
    strategy by strategy in the vocabulary's order, shortest length first."""
    own = sorted((r for r in rows() if r.model == model
                  and (strategy is None or r.strategy == strategy)),
                 key=lambda r: (strategy_order().index(r.strategy), r.seq_len))
    if seq is None:
        return own
    out = []
    for s in dict.fromkeys(r.strategy for r in own):
        longer = sorted((r for r in own if r.strategy == s and r.seq_len >= seq),
                        key=lambda r: r.seq_len)
        out += longer[:1]
    return out


def capacity(count: int, unit: str, flavour: str | None = None, strategy: str | None = None,
             seq: int | None = None, only: list[str] | None = None) -> list[Row]:
    """Every entry that fits somewhere the budget covers, biggest model first; a suspect count
    (see `suspect`) never makes it fit."""
    space = room(count, unit, flavour)
    order = list(dict.fromkeys(r.model for r in rows()))
    models = sorted(order, key=lambda m: (-sizes()[m], order.index(m)))
    out = []
    for model in models:
        for row in select(model, strategy, seq):
            got = fits(row, space)
            if any(v and not suspect(row, fw, fl) for fw, by in got.items()
                   if not only or fw in only for fl, v in by.items()):
                out.append(row)
    return out


@cache
def _suspects() -> frozenset[tuple[str, str, int, str, str]]:
    """Full fine-tuning listed below LoRA for the same model, length, framework and flavour:
    almost surely an error in the source (the issue's rule)."""
    by = {r.key: r for r in rows()}
    out = set()
    for (model, strategy, seq), row in by.items():
        lora = by.get((model, "lora", seq))
        if strategy != "full" or lora is None:
            continue
        for cell, count in row.counts.items():
            other = lora.counts[cell]
            if count is not None and other is not None and count < other:
                out.add((model, strategy, seq, *cell))
    return frozenset(out)


def suspect(row: Row, framework: str, flavour: str) -> bool:
    return (row.model, row.strategy, row.seq_len, framework, flavour) in _suspects()


def fewest(row: Row, flavour: str) -> int | None:
    """The fewest count on a flavour; a suspect count never is it."""
    counts = [c for (fw, fl), c in row.counts.items() if fl == flavour and c is not None
              and not suspect(row, fw, fl)]
    return min(counts) if counts else None


# --- models the table lacks, and plans: the rules, restated -----------------------

@cache
def catalogue() -> dict[str, dict[str, object]]:
    return dict(tomllib.loads((DATA / "models.toml").read_text(encoding="utf-8"))["models"])


def table_models() -> list[str]:
    return list(dict.fromkeys(r.model for r in rows()))


# Sizes within 5% of each other are the same size (the issue: same-size entries come first).
SAME_SIZE = 0.05


def bracket(size: float, kind: str, family: str | None, versions: set[str]
            ) -> tuple[list[str], str | None, str | None]:
    """(same, below, above). The same size first: the table's models of the kind within 5%,
    in the asked family and version if it has some, else the family, else the whole kind (at
    most three, table order); then below and above are None. Else the asked family and version
    if it has models on both sides, else the family, else the whole kind; the largest smaller
    and the smallest larger, ties in table order."""
    same = [m for m in table_models() if catalogue()[m].get("kind", "text") == kind]

    def sides(pool: list[str]) -> tuple[str | None, str | None]:
        smaller = [m for m in pool if sizes()[m] < size]
        larger = [m for m in pool if sizes()[m] > size]
        below = max(smaller, key=lambda m: (sizes()[m], -pool.index(m)), default=None)
        above = min(larger, key=lambda m: (sizes()[m], pool.index(m)), default=None)
        return below, above

    scopes = []
    if family and versions:
        scopes.append([m for m in same if catalogue()[m]["family"] == family
                       and versions & set(catalogue()[m]["versions"])])  # type: ignore[call-overload]
    if family:
        scopes.append([m for m in same if catalogue()[m]["family"] == family])
    for pool in [*scopes, same]:
        alike = [m for m in pool if abs(sizes()[m] - size) <= SAME_SIZE * max(sizes()[m], size)]
        if alike:
            return alike[:3], None, None
    for pool in scopes:
        below, above = sides(pool)
        if below and above:
            return [], below, above
    return [], *sides(same)


@cache
def known_models() -> dict[str, dict[str, object]]:
    """data/known_models.toml by display name."""
    data = tomllib.loads((DATA / "known_models.toml").read_text(encoding="utf-8"))
    return {m["display"]: m for m in data["model"]}


def plan_minimum(selected: list[Row], flavour: str, only: list[str] | None = None) -> int | None:
    """The fewest count over entries and frameworks on a flavour, an entry below the flavour's
    smallest parallel unit counting as that unit."""
    unit = int(flavours()[flavour].get("min_parallel_unit", 1))  # type: ignore[call-overload]
    counts = [max(c, unit) for r in selected for (fw, fl), c in r.counts.items()
              if fl == flavour and c is not None and (not only or fw in only)]
    return min(counts) if counts else None


def plan_hours(tokens: int, tps: float, count: int, efficiency: float = 0.9) -> float:
    """Hours = tokens / (TPS x count x efficiency) / 3600, to 2 decimals."""
    from decimal import ROUND_HALF_EVEN, Decimal

    seconds = Decimal(tokens) / (Decimal(str(tps)) * count * Decimal(str(efficiency)))
    return float((seconds / 3600).quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN))


def plan_count(tokens: int, hours: float, tps: float, flavour: str, minimum: int,
               efficiency: float = 0.9) -> int:
    """n = ceil(tokens / (hours x 3600 x TPS x efficiency)); above 8 up to a multiple of 8; on a
    flavour counted in DIE an odd n up to even; never below the minimum."""
    from decimal import ROUND_CEILING, Decimal

    exact = Decimal(tokens) / (Decimal(str(hours)) * 3600 * Decimal(str(tps))
                               * Decimal(str(efficiency)))
    n = max(1, int(exact.to_integral_value(rounding=ROUND_CEILING)))
    if n > 8:
        n = -(-n // 8) * 8
    if flavours()[flavour].get("die_per_card") and n % 2:
        n += 1
    return max(n, minimum)


def nodes(flavour: str, count: int) -> int:
    return -(-count // int(flavours()[flavour]["per_node"]))  # type: ignore[call-overload]
