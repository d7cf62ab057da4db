"""The small family of errors meant for a person, turned into a message at the edge."""

from __future__ import annotations

from pathlib import Path


class MincardsError(Exception):
    """An error whose message is fit to show the person who ran the command."""


class DataError(MincardsError):
    """A data file is malformed; names the file, the line and the field."""

    def __init__(self, path: Path | str, message: str, line: int | None = None,
                 field: str | None = None) -> None:
        self.path = str(path)
        self.message = message
        self.line = line
        self.field = field
        where = self.path + (f", line {line}" if line is not None else "")
        what = f"field {field!r}: " if field else ""
        super().__init__(f"{where}: {what}{message}")


class ImportTableError(MincardsError):
    """The table text given to `mincards import-table` cannot be read as the doc's table."""
