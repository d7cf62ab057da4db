"""What a question asks, as plain data that can be kept between questions (never its text)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

# "ascend": the page's own notation (8*Ascend), each flavour's unit (cards or DIE).
BudgetUnit = Literal["card", "die", "node", "ascend"]
BUDGET_UNITS: tuple[BudgetUnit, ...] = ("card", "die", "node", "ascend")


@dataclass(frozen=True)
class Budget:
    """How much hardware the person has: N cards, N DIE or N nodes, maybe on one flavour. A
    node may be a part of one or more ("half a node", 1.5 nodes): that share of its cards."""

    count: int | float
    unit: BudgetUnit
    flavour: str | None = None

    def json(self) -> dict[str, Any]:
        return {"count": self.count, "unit": self.unit, "flavour": self.flavour}

    @classmethod
    def from_json(cls, data: Any) -> Budget | None:
        if not isinstance(data, dict):
            return None
        count, unit, flavour = data.get("count"), data.get("unit"), data.get("flavour")
        if unit not in BUDGET_UNITS or isinstance(count, bool):
            return None
        # Only nodes come in parts ("half a node", "two thirds of a node").
        if not (type(count) is int or (unit == "node" and type(count) is float)):
            return None
        if not 0 < count < 10**6:
            return None
        return cls(count, unit, flavour if isinstance(flavour, str) else None)


@dataclass(frozen=True)
class NameParts:
    """A model name read into parts (family, versions, variants, size), without its words."""

    family: str | None = None
    versions: frozenset[str] = field(default_factory=frozenset)
    variants: frozenset[str] = field(default_factory=frozenset)
    size: str | None = None
    active: str | None = None

    def json(self) -> dict[str, Any]:
        return {"family": self.family, "versions": sorted(self.versions),
                "variants": sorted(self.variants), "size": self.size, "active": self.active}

    @classmethod
    def from_json(cls, data: Any) -> NameParts | None:
        if not isinstance(data, dict):
            return None

        def text(key: str) -> str | None:
            value = data.get(key)
            return value[:40] if isinstance(value, str) else None

        def words(key: str) -> frozenset[str]:
            value = data.get(key)
            if not isinstance(value, list):
                return frozenset()
            return frozenset(v[:40] for v in value[:10] if isinstance(v, str))

        return cls(text("family"), words("versions"), words("variants"), text("size"),
                   text("active"))


@dataclass(frozen=True)
class Workload:
    """What a plan is asked with: the data (tokens, or samples of so many tokens, for so many
    epochs), a deadline, a throughput (TPS) and a scaling efficiency; None where not said."""

    tokens: int | None = None  # the whole dataset's, said as one count
    samples: int | None = None
    sample_tokens: int | None = None  # each sample's, on average
    epochs: float | None = None
    deadline_hours: float | None = None
    tps: float | None = None
    efficiency: float | None = None  # as said (a percentage already divided by 100)
    asks_time: bool = False  # "how long", "多久"

    _KEYS = ("tokens", "samples", "sample_tokens", "epochs", "deadline_hours", "tps",
             "efficiency")

    @property
    def said(self) -> bool:
        """Whether anything of a plan was said at all."""
        return self.asks_time or any(getattr(self, k) is not None for k in self._KEYS)

    @property
    def asks_plan(self) -> bool:
        """With a table model, a plan rather than a lookup: only when the question asks about
        time ("how long", "多久") or a deadline ("within 2 days", "两天内训完"), the cluster
        size for one. Data, a throughput or epochs said beside a lookup are context: the
        lookup answers, and offers the estimate in one line."""
        return self.asks_time or self.deadline_hours is not None

    def total_tokens(self) -> int | None:
        """Tokens trained on: samples x tokens per sample, or the total said, x epochs."""
        per_pass = self.tokens
        if per_pass is None and self.samples is not None and self.sample_tokens is not None:
            per_pass = self.samples * self.sample_tokens
        if per_pass is None:
            return None
        return round(per_pass * (self.epochs if self.epochs is not None else 1))

    def updated(self, newer: Workload) -> Workload:
        """This workload with what `newer` says instead ("what if TPS is 2500?"); a deadline
        said anew replaces the old one."""
        values = {k: getattr(newer, k) if getattr(newer, k) is not None else getattr(self, k)
                  for k in self._KEYS}
        return Workload(**values, asks_time=self.asks_time or newer.asks_time)

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: getattr(self, k) for k in self._KEYS
                               if getattr(self, k) is not None}
        if self.asks_time:
            out["asks_time"] = True
        return out

    @classmethod
    def from_json(cls, data: Any) -> Workload | None:
        if not isinstance(data, dict):
            return None
        values: dict[str, Any] = {}
        for key in cls._KEYS:
            value = data.get(key)
            if isinstance(value, bool) or not isinstance(value, int | float):
                continue
            if not 0 < value < 10**16:
                continue
            values[key] = int(value) if key in ("tokens", "samples", "sample_tokens") else value
        return cls(**values, asks_time=data.get("asks_time") is True)
