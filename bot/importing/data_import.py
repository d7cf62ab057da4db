"""Take a new version of the page into a data folder: all of it, or nothing.

The new table and any new catalogue entries are staged in a scratch copy of the folder and loaded
there as the bot would load them; only then are the files replaced, each atomically. An import
that would drop models, entries or columns the folder has stops unless removals are allowed.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from mincards.bot.errors import ImportTableError, MincardsError
from mincards.bot.estimating.calibrate import calibrate
from mincards.bot.estimating.calibration_file import dump_calibration
from mincards.bot.facts.calibration import FILE as CALIBRATION_FILE
from mincards.bot.facts.catalogue import load_catalogue
from mincards.bot.facts.hardware import Hardware, load_hardware
from mincards.bot.facts.knowledge import Knowledge, legacy_framework_names, load_knowledge
from mincards.bot.facts.table import Table, dump_table, load_table, read_text_file
from mincards.bot.facts.vocabulary import Vocabulary, load_vocabulary
from mincards.bot.importing.catalogue_stub import stubs
from mincards.bot.importing.importer import import_table
from mincards.bot.importing.table_diff import TableDiff, diff_tables

TABLE = "table.csv"
CATALOGUE = "models.toml"


@dataclass(frozen=True)
class Import:
    """What an import would write, and what it changes."""

    table: Table
    table_text: str
    catalogue_text: str
    new_catalogue_entries: tuple[str, ...]
    diff: TableDiff | None  # None when the folder had no table to compare with
    hardware: Hardware
    # The estimator calibrated on the new table (data/estimator.toml), and the table's entries
    # its held-out estimate is two steps or more from.
    calibration_text: str = ""
    disputed: tuple[str, ...] = ()


def _read_page(page: Path) -> str:
    try:
        return read_text_file(page)
    except MincardsError as exc:
        raise ImportTableError(str(exc)) from None


def read_page(page: Path, vocabulary: Vocabulary, hardware: Hardware,
              date: dt.date | None = None) -> Table:
    return import_table(_read_page(page), vocabulary, hardware.flavours, date=date)


def plan_import(data_dir: Path, page: Path, *, date: dt.date | None = None,
                allow_removals: bool = False, allow_older: bool = False) -> Import:
    """Read the page against the folder's words and hardware; check everything; write nothing."""
    vocabulary = load_vocabulary(data_dir / "vocabulary.toml")
    hardware = load_hardware(data_dir / "hardware.toml")
    table = read_page(page, vocabulary, hardware, date)
    if table.source.date is None:
        raise ImportTableError("no page date (YYYY-MM-DD) found above the table; give it with "
                               "--date YYYY-MM-DD")
    current_path = data_dir / TABLE
    diff = None
    if current_path.exists():
        current = load_table(current_path, names=legacy_framework_names(vocabulary, hardware))
        older = current.source.date and table.source.date < current.source.date
        if older and not allow_older:
            # Going back in time silently would undo a newer page's corrections.
            raise ImportTableError(
                f"this page is dated {table.source.date_text()}, older than the data's "
                f"{current.source.date_text()}; nothing was written. If you mean to go back to "
                "it, import again with --allow-older.")
        diff = diff_tables(current, table)
        removals = diff.removals()
        if removals and not allow_removals:
            shown = "\n".join(f"  {r}" for r in removals[:50])
            more = f"\n  ... and {len(removals) - 50} more" if len(removals) > 50 else ""
            raise ImportTableError(
                f"this page would remove what {current_path} has:\n{shown}{more}\n"
                "Nothing was written. If the page really drops them, import again with "
                "--allow-removals.")
    catalogue_path = data_dir / CATALOGUE
    catalogue_text = read_text_file(catalogue_path)
    written, unknown = stubs(vocabulary, load_catalogue(catalogue_path).models, table.models())
    if unknown:
        raise ImportTableError(
            f"cannot tell the family of {unknown}: add a [models.\"NAME\"] entry for each to "
            f"{catalogue_path} by hand (and a new family to vocabulary.toml), then import again. "
            "Nothing was written.")
    if written:
        catalogue_text = catalogue_text.rstrip("\n") + "\n" + "".join("\n" + s for s in written)
    plan = Import(table=table, table_text=dump_table(table), catalogue_text=catalogue_text,
                  new_catalogue_entries=tuple(s.splitlines()[0] for s in written), diff=diff,
                  hardware=hardware)
    staged = _check_loads(data_dir, plan)
    # The estimator fitted to the new table and measured with each model held out of the
    # choice of terms as well as the fit (a few seconds).
    calibration = calibrate(staged, nested=True)
    return replace(plan, calibration_text=dump_calibration(calibration),
                   disputed=calibration.disputed)


def _check_loads(data_dir: Path, plan: Import) -> Knowledge:
    """Load the folder as it would be after the import, in a scratch copy."""
    with tempfile.TemporaryDirectory(prefix="mincards-import-") as scratch:
        staged = Path(scratch)
        for path in data_dir.iterdir():
            if path.is_file():
                shutil.copy2(path, staged / path.name)
        (staged / TABLE).write_text(plan.table_text, encoding="utf-8")
        (staged / CATALOGUE).write_text(plan.catalogue_text, encoding="utf-8")
        try:
            return load_knowledge(staged, cached=False)
        except MincardsError as exc:
            message = str(exc).replace(str(staged), str(data_dir))
            raise ImportTableError(f"after this import the data would not load: {message}. "
                                   "Nothing was written.") from None


def replace_atomically(path: Path, text: str) -> None:
    """Write a file so that readers see the old text or the new, never a part."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if path.exists():
            Path(tmp).chmod(path.stat().st_mode & 0o777)
        Path(tmp).replace(path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def apply_import(data_dir: Path, plan: Import) -> list[Path]:
    """Write the planned files; returns those that changed."""
    changed: list[Path] = []
    # The catalogue first: extra entries load with the old table, so every moment between the
    # two replacements is a folder that loads.
    # The calibration last: until it lands, the estimator sees its inputs changed and fits
    # again in the process, so no moment pairs a table with another table's calibration.
    for name, text in ((CATALOGUE, plan.catalogue_text), (TABLE, plan.table_text),
                       (CALIBRATION_FILE, plan.calibration_text)):
        if not text:
            continue
        path = data_dir / name
        if not path.exists() or path.read_text(encoding="utf-8-sig") != text:
            replace_atomically(path, text)
            changed.append(path)
    return changed
