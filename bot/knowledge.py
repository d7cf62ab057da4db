"""Everything the answers come from, loaded and cross-checked once: table, catalogue, words."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bot.catalogue import Catalogue, load_catalogue
from bot.errors import DataError
from bot.hardware import Hardware, load_hardware
from bot.table import Table, load_table
from bot.vocabulary import Vocabulary, load_vocabulary

DATA_ENV = "MINCARDS_DATA"


def default_data_dir() -> Path:
    override = os.environ.get(DATA_ENV)
    return Path(override) if override else Path(__file__).resolve().parent.parent / "data"


@dataclass(frozen=True)
class Knowledge:
    table: Table
    catalogue: Catalogue
    vocabulary: Vocabulary
    hardware: Hardware


def load_knowledge(data_dir: Path | None = None) -> Knowledge:
    """Load and cross-check every data file; any flaw raises DataError and nothing is served."""
    data_dir = data_dir or default_data_dir()
    table = load_table(data_dir / "table.csv")
    catalogue_path = data_dir / "models.toml"
    catalogue = load_catalogue(catalogue_path)
    vocabulary = load_vocabulary(data_dir / "vocabulary.toml")
    hardware = load_hardware(data_dir / "hardware.toml")
    uncatalogued = [m for m in table.models() if m not in catalogue.models]
    if uncatalogued:
        raise DataError(catalogue_path, f"table models with no catalogue entry: {uncatalogued} "
                        "(add a [models.\"NAME\"] section for each)")
    orphans = [m for m in catalogue.models if m not in set(table.models())]
    if orphans:
        raise DataError(catalogue_path, f"catalogue entries not in the table: {orphans}")
    unknown_families = {i.family for i in catalogue} - set(vocabulary.families)
    if unknown_families:
        raise DataError(catalogue_path, f"families missing from vocabulary.toml: "
                        f"{sorted(unknown_families)}")
    return Knowledge(table=table, catalogue=catalogue, vocabulary=vocabulary, hardware=hardware)


@cache
def knowledge() -> Knowledge:
    """The process-wide knowledge, loaded on first use."""
    return load_knowledge()
