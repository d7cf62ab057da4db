"""The model catalogue: display names and the structured names the parser matches on."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from mincards.bot.errors import DataError
from mincards.bot.facts.datafiles import STRICT_KEYS, read_toml, validate
from mincards.bot.facts.sizes import normalize_size, normalize_version

Kind = Literal["text", "vl", "moe"]
KINDS: tuple[Kind, ...] = ("text", "vl", "moe")


def _size(name: str, value: str | None) -> str | None:
    if value is None:
        return None
    normal = normalize_size(value)
    if normal is None:
        raise ValueError(f"{name}: {value!r} is not a size like '7b', '0.5b' or '8x7b'")
    return normal


@dataclass(frozen=True, kw_only=True)
class ModelInfo:
    """One table model: its key in the table, how to show it and how people name it."""

    __pydantic_config__ = STRICT_KEYS
    key: str
    display: str
    family: str
    versions: tuple[str, ...] = ()
    variant: str | None = None
    size: str
    active: str | None = None
    aliases: tuple[str, ...] = ()
    note: str | None = None
    # What sort of model it is, to bracket a model the table lacks by its own sort.
    kind: Kind = "text"
    # Its shape, which calibrates the estimator (bot/estimating): total and active parameters
    # in billions, layers, hidden size, vocabulary. Optional: without it the model is answered
    # from the table as ever and left out of the fit.
    params_b: float | None = None
    active_b: float | None = None
    layers: int | None = None
    hidden: int | None = None
    vocab: int | None = None

    def __post_init__(self) -> None:
        # Written as the parser reads names, so that '0.50B' in the file matches '0.5b' asked.
        object.__setattr__(self, "size", _size("size", self.size))
        object.__setattr__(self, "active", _size("active", self.active))
        object.__setattr__(self, "versions", tuple(normalize_version(v) for v in self.versions))
        for name in ("params_b", "active_b", "layers", "hidden", "vocab"):
            value = getattr(self, name)
            if value is not None and not 0 < value < 1e6:
                raise ValueError(f"{name}: {value} is not a size")
        if self.active_b is not None and (self.params_b is None or self.active_b > self.params_b):
            raise ValueError("active_b: a mixture of experts' active parameters are within its "
                             "params_b")

    @property
    def variants(self) -> frozenset[str]:
        return frozenset({self.variant} if self.variant else ())


@dataclass(frozen=True)
class Catalogue:
    """The table models by key; iterating gives them in catalogue order."""

    models: dict[str, ModelInfo] = field(default_factory=dict)

    def __getitem__(self, key: str) -> ModelInfo:
        return self.models[key]

    def __iter__(self) -> Iterator[ModelInfo]:
        return iter(self.models.values())


def load_catalogue(path: Path) -> Catalogue:
    raw = read_toml(path)
    models: dict[str, ModelInfo] = {}
    for key, fields in (raw.get("models") or {}).items():
        models[key] = validate(path, ModelInfo, {"key": key, **fields},
                               prefix=f"model {key!r}: ")
    if not models:
        raise DataError(path, "no [models.\"...\"] entries")
    return Catalogue(models=models)
