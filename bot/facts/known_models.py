"""Sizes of open models the table does not list (data/known_models.toml), with their sources.

They place a model the table lacks among the table's models of its own kind (text, vision,
mixture-of-experts by total size): a bracket of table entries to read, never a card count.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from mincards.bot.facts.datafiles import STRICT_KEYS, load_by_display

Kind = Literal["text", "vl", "moe"]


@dataclass(frozen=True, kw_only=True)
class KnownModel:
    """One model's size: total (and, for a mixture of experts, active) parameters."""

    __pydantic_config__ = STRICT_KEYS
    display: str
    # How people write it (Hugging Face ids, Ollama tags): each is read as a question reads a
    # name, so other spellings of the same parts match too.
    names: tuple[str, ...]
    params_b: float
    active_b: float | None = None
    kind: Kind
    source: str
    # Its repository on the Hub, and its shape as its config.json there says it (the names and
    # values of that file), which the estimator's counter reads as it reads one from the Hub.
    hub_id: str | None = None
    config: dict[str, Any] | None = None
    # Why the counter cannot count this architecture (params_b is then the weights' count).
    uncounted: str | None = None

    def __post_init__(self) -> None:
        if not self.names:
            raise ValueError("names: at least one name")
        if len({n.lower() for n in self.names}) != len(self.names):
            raise ValueError("names: a name given twice")
        if not 0 < self.params_b < 100_000:
            raise ValueError(f"params_b: {self.params_b} is not a size in billions")
        if self.active_b is not None and not 0 < self.active_b <= self.params_b:
            raise ValueError(f"active_b: {self.active_b} is not within 0 and params_b")
        # A vision model may be a mixture of experts too (Qwen3-VL-30B-A3B): it is bracketed
        # among vision models, its active parameters said beside its total.
        if self.kind == "moe" and self.active_b is None:
            raise ValueError("a mixture-of-experts model (kind moe) has active_b")
        if self.kind == "text" and self.active_b is not None:
            raise ValueError("a dense text model has no active_b: a mixture of experts is kind moe")
        if not self.source.strip():
            raise ValueError("source: say where the numbers come from")
        if self.hub_id is not None and self.hub_id.count("/") != 1:
            raise ValueError(f"hub_id: {self.hub_id!r} is not owner/name")


@dataclass(frozen=True)
class KnownModels:
    """The known models by display name, in file order."""

    items: dict[str, KnownModel] = field(default_factory=dict)

    def __iter__(self) -> Iterator[KnownModel]:
        return iter(self.items.values())

    def __len__(self) -> int:
        return len(self.items)


def load_known_models(path: Path) -> KnownModels:
    """The file's models; none when there is no file (a data folder from before it)."""
    return KnownModels(load_by_display(path, "model", KnownModel))
