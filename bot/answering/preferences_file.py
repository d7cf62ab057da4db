"""The command line's own preferences: `$XDG_CONFIG_HOME/mincards/config.toml` (default
~/.config/mincards/config.toml), e.g.

    flavours = ["Snt9B23"]
    frameworks = ["Llama-Factory"]
    language = "zh"        # auto, en or zh

Names are read as a question reads them. A file that cannot be read is one line, never a
traceback; no file is no preferences.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from mincards.bot.answering.preferences import LANGUAGES, LENGTHS, Preferences
from mincards.bot.errors import MincardsError

if TYPE_CHECKING:
    from mincards.bot.answering.engine import Engine

CONFIG_ENV = "MINCARDS_CONFIG"
MAX_BYTES = 64_000


def config_path() -> Path:
    if os.environ.get(CONFIG_ENV):
        return Path(os.environ[CONFIG_ENV])
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "mincards" / "config.toml"


def read_names(engine: Engine, values: list[str], kind: str, where: str) -> tuple[str, ...]:
    """Flavour or framework ids (`kind`) from names as a question says them ('Snt9B23',
    'llama factory'); a name that reads as none of the table's is an error naming `where`."""
    out: list[str] = []
    known = (engine.knowledge.table.flavours if kind == "flavours"
             else engine.knowledge.table.framework_ids)
    for value in values:
        read = [x for x in getattr(engine.questions.read(value[:200]), kind) if x in known]
        if not read:
            raise MincardsError(f"{where}: {value[:80]!r} is not one of the table's {kind}")
        out += [x for x in sorted(read) if x not in out]
    return tuple(out)


def load_preferences(engine: Engine) -> Preferences | None:
    path = config_path()
    try:
        if not path.is_file():
            return None
        with path.open("rb") as file:
            raw = file.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            raise MincardsError(f"{path}: over {MAX_BYTES // 1000} KB; a settings file is a "
                                "few lines")
        data = tomllib.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise MincardsError(f"cannot read {path}: {exc}") from None
    unknown = set(data) - {"flavours", "frameworks", "language", "length"}
    if unknown:
        raise MincardsError(f"{path}: unknown settings {sorted(unknown)} (flavours, frameworks, "
                            "language, length)")

    def names(key: str) -> tuple[str, ...]:
        values = data.get(key, [])
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise MincardsError(f"{path}: {key} must be a list of names")
        return read_names(engine, values, key, str(path))

    language = data.get("language", "auto")
    length = data.get("length", "full")
    if language not in LANGUAGES or length not in LENGTHS:
        raise MincardsError(f"{path}: language is one of {list(LANGUAGES)}, length one of "
                            f"{list(LENGTHS)}")
    return Preferences(flavours=names("flavours"), frameworks=names("frameworks"),
                       language=language, length=length)
