"""The model catalogue: display names and the structured names the parser matches on."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from mincards.bot.errors import DataError
from mincards.bot.facts.datafiles import read_toml, validation_error
from mincards.bot.facts.sizes import normalize_size, normalize_version


class ModelInfo(BaseModel):
    """One table model: its key in the table, how to show it and how people name it."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    key: str
    display: str
    family: str
    versions: tuple[str, ...] = ()
    variant: str | None = None
    size: str
    active: str | None = None
    aliases: tuple[str, ...] = ()
    note: str | None = None

    @field_validator("size", "active")
    @classmethod
    def _size(cls, value: str | None) -> str | None:
        if value is None:
            return None
        normal = normalize_size(value)
        if normal is None:
            raise ValueError(f"{value!r} is not a size like '7b', '0.5b' or '8x7b'")
        return normal

    @field_validator("versions")
    @classmethod
    def _versions(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(normalize_version(v) for v in value)

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
        try:
            models[key] = ModelInfo.model_validate({"key": key, **fields})
        except ValidationError as exc:
            raise validation_error(path, exc, prefix=f"model {key!r}: ") from None
    if not models:
        raise DataError(path, "no [models.\"...\"] entries")
    return Catalogue(models=models)
