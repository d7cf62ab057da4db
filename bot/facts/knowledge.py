"""Everything the answers come from, loaded and cross-checked once: table, catalogue, words."""

from __future__ import annotations

import os
import site
import sysconfig
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any, TypeVar

import mincards.data
from mincards.bot.errors import DataError
from mincards.bot.facts.calibration import FILE as CALIBRATION_FILE
from mincards.bot.facts.calibration import Calibration, load_calibration
from mincards.bot.facts.catalogue import Catalogue, load_catalogue
from mincards.bot.facts.checked_cache import CheckedCache
from mincards.bot.facts.hardware import Hardware, load_hardware
from mincards.bot.facts.known_models import KnownModels, load_known_models
from mincards.bot.facts.stand_ins import StandIns, load_stand_ins
from mincards.bot.facts.suspects import Cell, suspect_cells
from mincards.bot.facts.table import Entry, Table, load_table
from mincards.bot.facts.throughput import Throughputs, load_throughputs
from mincards.bot.facts.vocabulary import Vocabulary, load_vocabulary

DATA_ENV = "MINCARDS_DATA"
MEMO_SIZE = 512
T = TypeVar("T")


# The data the package ships, installed as `mincards.data`; in a checkout, data/ itself (the
# link mincards/data resolved), so that an import into it changes the repository's files.
PACKAGE_DATA = Path(mincards.data.__file__).resolve().parent


def default_data_dir() -> Path:
    """The data folder in use: $MINCARDS_DATA when set, else the one the package ships."""
    override = os.environ.get(DATA_ENV)
    return Path(override) if override else PACKAGE_DATA


def use_data_dir(path: Path) -> None:
    """Make `path` the data folder for this process and any it starts (`serve`'s workers)."""
    if not path.is_dir():
        raise DataError(path, "no such data folder")
    os.environ[DATA_ENV] = str(path.resolve())
    knowledge.cache_clear()


def is_installed_copy(path: Path) -> bool:
    """True for the data an installed package ships (in site-packages): not a place to write."""
    resolved = path.resolve()
    roots = {sysconfig.get_paths()[k] for k in ("purelib", "platlib")}
    roots.update(site.getsitepackages())
    return any(resolved.is_relative_to(Path(root).resolve()) for root in roots)


@dataclass(frozen=True)
class Knowledge:
    table: Table
    catalogue: Catalogue
    vocabulary: Vocabulary
    hardware: Hardware
    stand_ins: StandIns = field(default_factory=StandIns)
    throughputs: Throughputs = field(default_factory=Throughputs)
    known_models: KnownModels = field(default_factory=KnownModels)
    # The estimator's calibration stored with this table (None: not yet made for it).
    calibration: Calibration | None = None
    # Answers and renderings derived from this data alone, kept because the data never changes
    # while it is loaded (what fits a budget is the same every time it is asked).
    _memo: OrderedDict[Hashable, Any] = field(default_factory=OrderedDict, compare=False,
                                              repr=False)
    _memo_lock: threading.Lock = field(default_factory=threading.Lock, compare=False,
                                       repr=False)

    def memoized(self, key: Hashable, make: Callable[[], T]) -> T:
        """`make()`, worked out once per key; the least recently used of many are forgotten."""
        with self._memo_lock:
            if key in self._memo:
                self._memo.move_to_end(key)
                return self._memo[key]
        value = make()
        with self._memo_lock:
            self._memo[key] = value
            while len(self._memo) > MEMO_SIZE:
                self._memo.popitem(last=False)
        return value

    @cached_property
    def framework_names(self) -> dict[str, str]:
        """Every framework a question may name, id -> name: the table's own, in page order, then
        the ones the vocabulary knows that this version of the table lacks."""
        names = {fw.id: fw.name for fw in self.table.frameworks}
        for key, words in self.vocabulary.frameworks.items():
            names.setdefault(key, words.name or key)
        return names

    @cached_property
    def strategies(self) -> tuple[str, ...]:
        """Strategy ids in the vocabulary's order (full before LoRA)."""
        return tuple(self.vocabulary.strategies)

    def strategy_label(self, strategy: str, language: str) -> str:
        return self.vocabulary.strategy_label(strategy, "zh" if language == "zh" else "en")

    def flavour_display(self, flavour: str) -> str:
        return self.hardware.flavours[flavour].display

    @cached_property
    def suspects(self) -> frozenset[Cell]:
        """The table's cells that are likely errors in the source (facts/suspects)."""
        return suspect_cells(self.table, self.vocabulary)

    @cached_property
    def suspect_models(self) -> frozenset[str]:
        """The models with a suspect cell: for every other model (nearly all), one look."""
        return frozenset(cell[0] for cell in self.suspects)

    def is_suspect(self, entry: Entry, framework: str, flavour: str) -> bool:
        return entry.model in self.suspect_models and (
            entry.model, entry.strategy, entry.seq_len, framework, flavour) in self.suspects


def legacy_framework_names(vocabulary: Vocabulary, hardware: Hardware) -> dict[str, str]:
    """Names for a table.csv in the first format, which did not record them."""
    names = {k: w.name for k, w in vocabulary.frameworks.items() if w.name}
    names.update({k: info.display for k, info in hardware.frameworks.items()})
    return names


DATA_FILES = ("table.csv", "models.toml", "vocabulary.toml", "hardware.toml", "stand_ins.toml",
              "tps.toml", "known_models.toml", CALIBRATION_FILE)
# The code that turns those files into facts: when it changes, what it made is made again.
FACTS_CODE = (*sorted(Path(__file__).parent.glob("*.py")),
              *(Path(__file__).parent.parent / name for name in ("errors.py", "language.py")))


def load_knowledge(data_dir: Path | None = None, *, cached: bool = True) -> Knowledge:
    """Load and cross-check every data file; any flaw raises DataError and nothing is served.

    Checked once for given files: a later load of the same bytes comes from facts/checked_cache
    (`cached=False` for a folder loaded once, such as an import's scratch copy)."""
    data_dir = data_dir or default_data_dir()
    if not cached:
        return Knowledge(*_check(data_dir))
    # stand_ins.toml, tps.toml, known_models.toml and estimator.toml may be missing (a folder
    # from before them): the files there are the inputs, so one added later is a change like
    # any other.
    files = [path for f in DATA_FILES if (path := data_dir / f).exists()]
    kept = CheckedCache(str(data_dir.resolve()), [*files, *FACTS_CODE])
    return Knowledge(*kept.value(lambda: _check(data_dir), accept=_is_checked))


_PARTS = (Table, Catalogue, Vocabulary, Hardware, StandIns, Throughputs, KnownModels)


def _is_checked(value: object) -> bool:
    """Whether a recalled value is what `_check` makes: anything else is made again."""
    return (isinstance(value, tuple) and len(value) == len(_PARTS) + 1
            and all(isinstance(v, kind) for v, kind in zip(value, _PARTS, strict=False))
            and (value[-1] is None or isinstance(value[-1], Calibration)))


def _check(data_dir: Path
           ) -> tuple[Table, Catalogue, Vocabulary, Hardware, StandIns, Throughputs,
                      KnownModels, Calibration | None]:
    vocabulary = load_vocabulary(data_dir / "vocabulary.toml")
    hardware_path = data_dir / "hardware.toml"
    hardware = load_hardware(hardware_path)
    table = load_table(data_dir / "table.csv", strategies=tuple(vocabulary.strategies),
                       names=legacy_framework_names(vocabulary, hardware))
    catalogue_path = data_dir / "models.toml"
    catalogue = load_catalogue(catalogue_path)
    undescribed = [fl for fl in table.flavours if fl not in hardware.flavours]
    if undescribed:
        raise DataError(hardware_path, f"the table's flavours {undescribed} have no section "
                        "(add a [flavours.ID] section for each)")
    uncatalogued = [m for m in table.models() if m not in catalogue.models]
    if uncatalogued:
        raise DataError(catalogue_path, f"table models with no catalogue entry: {uncatalogued} "
                        "(add a [models.\"NAME\"] section for each)")
    # Catalogue entries the table lacks are kept on purpose: a model an older or newer version
    # of the page lists is answered as "not in this version of the table".
    unknown_families = {i.family for i in catalogue} - set(vocabulary.families)
    if unknown_families:
        raise DataError(catalogue_path, f"families missing from vocabulary.toml: "
                        f"{sorted(unknown_families)}")
    stand_ins_path = data_dir / "stand_ins.toml"
    stand_ins = load_stand_ins(stand_ins_path)
    # A stand-in whose model this version of the table lacks is kept, unused (as catalogue
    # entries are); one naming no catalogue model is a typo.
    unknown = [s.display for s in stand_ins if s.model not in catalogue.models]
    if unknown:
        raise DataError(stand_ins_path, f"stand-ins whose model is not in models.toml: {unknown}")
    tps_path = data_dir / "tps.toml"
    throughputs = load_throughputs(tps_path)
    for model, measured in throughputs.models.items():
        if model not in table.models():
            raise DataError(tps_path, f"tps for {model!r}, which is not in table.csv")
        strange = [fl for fl in measured.per_flavour if fl not in table.flavours]
        if strange:
            raise DataError(tps_path, f"tps for {model!r} on {strange}: not the table's "
                            f"flavours {list(table.flavours)}")
    known_models = load_known_models(data_dir / "known_models.toml")
    calibration = load_calibration(data_dir / CALIBRATION_FILE)
    return (table, catalogue, vocabulary, hardware, stand_ins, throughputs, known_models,
            calibration)


@cache
def knowledge() -> Knowledge:
    """The process-wide knowledge, loaded on first use."""
    return load_knowledge()
