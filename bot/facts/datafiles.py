"""Reading a TOML data file into frozen dataclasses, validated, with errors naming file and field.

The facts are plain dataclasses, so that answering never needs pydantic: it validates a file
into them (a `TypeAdapter` per dataclass) only when the file is read, which a start with a
warm cache (facts/checked_cache.py) skips. What a type cannot say (a count above 0, ids, names
that must refer to each other) each dataclass checks in `__post_init__`.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from mincards.bot.errors import DataError
from mincards.bot.facts.data_bytes import read_bounded

if TYPE_CHECKING:
    from _typeshed import DataclassInstance
    from pydantic import TypeAdapter, ValidationError

T = TypeVar("T")
# Set as `__pydantic_config__` on every dataclass a data file is read into: a key the file
# should not have is a typo, and is refused rather than silently dropped.
STRICT_KEYS: dict[str, Any] = {"extra": "forbid"}


def read_toml(path: Path) -> dict[str, Any]:
    import tomllib  # here: a start with checked facts kept reads no TOML

    try:
        return tomllib.loads(read_bounded(path).decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DataError(path, f"cannot read: {exc}") from None


def check_positive(facts: DataclassInstance, *names: str) -> None:
    """For `__post_init__`: each named field (every field, when none is named) is None or a
    whole number above 0."""
    for name in names or tuple(f.name for f in dataclasses.fields(facts)):
        value = getattr(facts, name)
        if value is not None and value <= 0:
            raise ValueError(f"{name} must be a whole number above 0 (got {value})")


_ADAPTERS: dict[type, Any] = {}


def _adapter(kind: type[T]) -> TypeAdapter[T]:
    """Built once per dataclass, on first use: building one is most of pydantic's cost."""
    if kind not in _ADAPTERS:
        from pydantic import TypeAdapter

        _ADAPTERS[kind] = TypeAdapter(kind)
    adapter: TypeAdapter[T] = _ADAPTERS[kind]
    return adapter


def _where(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(p) for p in loc)


def _validation_error(path: Path, exc: ValidationError, prefix: str = "") -> DataError:
    """The first problem as the field; the next few said too (a misspelt key is a missing
    key and an unexpected one, and the fix needs both)."""
    first, *more = exc.errors()
    also = "".join(f"; also {_where(e['loc'])!r}: {e['msg']}" for e in more[:2])
    return DataError(path, prefix + first["msg"] + also, field=_where(first["loc"]))


def validate(path: Path, kind: type[T], raw: Any, prefix: str = "") -> T:
    """`raw` (parsed from `path`) as a `kind`, or a DataError naming the file and field."""
    from pydantic import ValidationError

    try:
        return _adapter(kind).validate_python(raw)
    except ValidationError as exc:
        raise _validation_error(path, exc, prefix) from None


def load_toml(path: Path, kind: type[T]) -> T:
    return validate(path, kind, read_toml(path))


def load_by_display(path: Path, table: str, kind: type[T]) -> dict[str, T]:
    """A file's `[[table]]` items as `kind`s by their `display` names, in file order; {} when
    there is no file (a data folder from before it). A display name listed twice is an error."""
    if not path.exists():
        return {}
    items: dict[str, T] = {}
    for index, fields in enumerate(read_toml(path).get(table) or []):
        item = validate(path, kind, fields, prefix=f"{table} #{index + 1}: ")
        display = getattr(item, "display", "")
        if display in items:
            raise DataError(path, f"{table} {display!r} is listed twice")
        items[display] = item
    return items
