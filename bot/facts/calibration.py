"""The estimator's calibration on the table in use (data/estimator.toml): what was fitted, and
how well it does on the table's own models held out one at a time.

Written by `mincards import-table` (and `mincards estimate --calibrate`) with the page it was
fitted on; made by bot/estimating, read here as any other data file. `inputs` is a digest of what
the fit read (the table's counts, the models' shapes, the units' memory): a calibration whose
digest is not that of the loaded facts is stale, and the estimator fits again in the process.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mincards.bot.errors import DataError
from mincards.bot.facts.datafiles import STRICT_KEYS, read_toml, validate


@dataclass(frozen=True, kw_only=True)
class Tally:
    """Held-out predictions by how far they fell from the table, in power-of-two steps."""

    __pydantic_config__ = STRICT_KEYS
    held_out: int = 0
    exact: int = 0
    within_one: int = 0   # exact included
    under_one: int = 0
    under_more: int = 0
    over: int = 0

    def share(self, count: int) -> float:
        return count / self.held_out if self.held_out else 0.0

    def plus(self, other: Tally) -> Tally:
        return Tally(held_out=self.held_out + other.held_out, exact=self.exact + other.exact,
                     within_one=self.within_one + other.within_one,
                     under_one=self.under_one + other.under_one,
                     under_more=self.under_more + other.under_more, over=self.over + other.over)


@dataclass(frozen=True, kw_only=True)
class GroupFit:
    """The fit for one framework and strategy."""

    __pydantic_config__ = STRICT_KEYS
    framework: str
    strategy: str
    # GB of training state per billion parameters, i.e. bytes per parameter.
    bytes_per_param: float
    # Each surviving extra term's multiplier (e.g. "moe": a mixture of experts' state costs
    # this many times a dense model's of the same total size).
    factors: dict[str, float] = field(default_factory=dict)
    kinds: tuple[str, ...] = ()        # kinds of model the table has here: text, vision, moe
    seq_lens: tuple[int, ...] = ()     # the lengths the table lists here
    # The lengths it lists for each kind of model (a vision model's 1K is not a text model's).
    kind_lengths: dict[str, tuple[int, ...]] = field(default_factory=dict)
    flavours: tuple[str, ...] = ()     # the flavours with counts here
    # The smallest and largest model fitted here (total parameters, billions): an estimate
    # outside them is an extrapolation the held-out check never measured.
    sizes: tuple[float, float] = (0.0, 0.0)
    # What each doubling of the sequence length multiplies the training state by, fitted on the
    # table's own steps between lengths (4K to 8K; 1K to 4K for one model): how a length past
    # the table is estimated from its longest row. 1 where the table lists a single length.
    per_doubling: float = 1.0
    validation: Tally = field(default_factory=Tally)

    @property
    def key(self) -> str:
        return f"{self.framework}.{self.strategy}"


@dataclass(frozen=True, kw_only=True)
class Calibration:
    __pydantic_config__ = STRICT_KEYS
    inputs: str
    page_date: str = ""
    terms: tuple[str, ...] = ("bytes_per_param",)
    groups: tuple[GroupFit, ...] = ()
    validation: Tally = field(default_factory=Tally)
    # Whether the figures held each model out of the choice of terms too (nested), not only
    # out of the fit.
    nested: bool = False
    # Entries set by the page's policy or contradicting the page itself, left out of the fit:
    # "model · strategy · seq_len · framework.flavour: why".
    policy: tuple[str, ...] = ()
    # Terms tried and dropped, with what they did to the held-out error.
    dropped: tuple[str, ...] = ()
    # Table entries the held-out estimate is two steps or more from: worth checking against
    # the source ("label: the table lists N, the estimate M").
    disputed: tuple[str, ...] = ()

    def group(self, framework: str, strategy: str) -> GroupFit | None:
        return next((g for g in self.groups
                     if g.framework == framework and g.strategy == strategy), None)


FILE = "estimator.toml"


def load_calibration(path: Path) -> Calibration | None:
    """The file's calibration; None when there is none (a folder from before the estimator)."""
    if not path.exists():
        return None
    raw = read_toml(path)
    if not isinstance(raw.get("calibration"), dict):
        raise DataError(path, "no [calibration] table")
    return validate(path, Calibration, {**raw["calibration"], "groups": raw.get("group", [])})
