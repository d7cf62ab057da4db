"""A model's shape: what the estimator reads to size its training state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from mincards.bot.facts.catalogue import ModelInfo

Source = Literal["known-models", "config", "hub", "hub-search"]
# Sizes a model can be, in billions of parameters: outside them a shape is a mistake (a config
# read wrongly, a typo), never something to estimate from.
SMALLEST_B = 0.01
LARGEST_B = 10_000.0


class ShapeError(ValueError):
    """A shape that cannot be estimated from; the message is one line for the person."""


@dataclass(frozen=True, kw_only=True)
class Shape:
    name: str
    params_b: float
    active_b: float | None = None      # a mixture of experts' active parameters
    layers: int | None = None
    hidden: int | None = None
    vocab: int | None = None
    vision: bool = False
    source: Source

    def __post_init__(self) -> None:
        if not SMALLEST_B <= self.params_b <= LARGEST_B:
            raise ShapeError(f"{self.params_b:g} billion parameters is not a model size "
                             f"({SMALLEST_B:g} to {LARGEST_B:g} billion)")
        if self.active_b is not None and not 0 < self.active_b <= self.params_b:
            raise ShapeError(f"{self.active_b:g} billion active parameters is not within the "
                             f"{self.params_b:g} billion in all")

    @property
    def moe(self) -> bool:
        return self.active_b is not None and self.active_b < self.params_b

    @property
    def kind(self) -> str:
        """How the table's groups are told apart: text, vision or moe."""
        return "vision" if self.vision else "moe" if self.moe else "text"

    def as_json(self) -> dict[str, object]:
        return {"params_b": round(self.params_b, 3),
                "active_b": round(self.active_b, 3) if self.active_b is not None else None,
                "layers": self.layers, "hidden": self.hidden, "vocab": self.vocab,
                "kind": "vision" if self.vision else "text", "moe": self.moe,
                "source": self.source}


def of_table_model(info: ModelInfo) -> Shape | None:
    """A table model's shape from the catalogue; None when the catalogue has none."""
    if info.params_b is None:
        return None
    return Shape(name=info.display, params_b=info.params_b, active_b=info.active_b,
                 layers=info.layers, hidden=info.hidden, vocab=info.vocab,
                 vision=info.kind == "vl", source="known-models")
