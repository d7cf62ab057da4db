"""Reading a TOML data file into a validated model, with errors that name the file and field."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from mincards.bot.errors import DataError

M = TypeVar("M", bound=BaseModel)


def read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DataError(path, f"cannot read: {exc}") from None


def validation_error(path: Path, exc: ValidationError, prefix: str = "") -> DataError:
    err = exc.errors()[0]
    return DataError(path, prefix + err["msg"], field=".".join(str(p) for p in err["loc"]))


def load_toml(path: Path, model: type[M]) -> M:
    try:
        return model.model_validate(read_toml(path))
    except ValidationError as exc:
        raise validation_error(path, exc) from None
