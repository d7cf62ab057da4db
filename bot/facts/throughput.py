"""Measured training throughput (TPS: tokens per second per card, or per DIE) a team records in
data/tps.toml, for plans asked without one. The page does not publish TPS: it says each model's
figure comes from Huawei's benchmark table, measured at a fixed sequence length."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mincards.bot.facts.datafiles import STRICT_KEYS, read_toml, validate


@dataclass(frozen=True, kw_only=True)
class Throughput:
    """One model's TPS per flavour id, and where the figure comes from."""

    __pydantic_config__ = STRICT_KEYS
    per_flavour: dict[str, float]
    source: str

    def __post_init__(self) -> None:
        bad = {fl: v for fl, v in self.per_flavour.items() if not v > 0}
        if bad:
            raise ValueError(f"TPS must be above 0: {bad}")
        if not self.source.strip():
            raise ValueError("source: say who measured it, how and when")


@dataclass(frozen=True)
class Throughputs:
    """TPS by table model key."""

    models: dict[str, Throughput] = field(default_factory=dict)

    def tps(self, model: str, flavour: str) -> tuple[float, str] | None:
        """(TPS, source) recorded for a model on a flavour, or None."""
        found = self.models.get(model)
        if found is None or flavour not in found.per_flavour:
            return None
        return found.per_flavour[flavour], found.source


def load_throughputs(path: Path) -> Throughputs:
    """`[tps."MODEL"] snt9b = 1800.0, snt9b23 = 1800.0, source = "..."`; none without a file."""
    if not path.exists():
        return Throughputs()
    raw = read_toml(path)
    models: dict[str, Throughput] = {}
    for model, fields in (raw.get("tps") or {}).items():
        if not isinstance(fields, dict):
            fields = {}
        source = fields.get("source")
        per = {k: v for k, v in fields.items() if k != "source"}
        models[model] = validate(path, Throughput, {"per_flavour": per, "source": source},
                                 prefix=f"tps {model!r}: ")
    return Throughputs(models)
