"""What a question asks, as plain data that can be kept between questions (never its text)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

BudgetUnit = Literal["card", "die", "node"]
BUDGET_UNITS: tuple[BudgetUnit, ...] = ("card", "die", "node")


@dataclass(frozen=True)
class Budget:
    """How much hardware the person has: N cards, N DIE or N nodes, maybe on one flavour."""

    count: int
    unit: BudgetUnit
    flavour: str | None = None

    def json(self) -> dict[str, Any]:
        return {"count": self.count, "unit": self.unit, "flavour": self.flavour}

    @classmethod
    def from_json(cls, data: Any) -> Budget | None:
        if not isinstance(data, dict):
            return None
        count, unit, flavour = data.get("count"), data.get("unit"), data.get("flavour")
        if not isinstance(count, int) or not 0 < count < 10**6 or unit not in BUDGET_UNITS:
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
