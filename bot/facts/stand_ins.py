"""Models the table does not list whose closest reference is a table model (data/stand_ins.toml).

A stand-in is a fact about two published models, kept with its source: a model with a table
model's architecture (Qwen2.5-Coder-32B has Qwen2.5-32B's layers, widths and vocabulary). Its
answer is the table model's entry, offered as exactly that and never as the asked model's own.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from mincards.bot.facts.datafiles import STRICT_KEYS, check_positive, load_by_display

Relation = Literal["same_architecture"]


@dataclass(frozen=True, kw_only=True)
class StandIn:
    """One model the table lacks, the table model standing in for it, and why."""

    __pydantic_config__ = STRICT_KEYS
    display: str
    # How people write it (Hugging Face ids, Ollama tags): each is read as a question reads a
    # name, so other spellings of the same parts match too.
    names: tuple[str, ...]
    model: str
    relation: Relation
    source: str
    # The model's own context window when it is shorter than the table's lengths (Qwen2.5-Math
    # reads 4,096 tokens): entries longer than this are beyond the model.
    context: int | None = None

    def __post_init__(self) -> None:
        check_positive(self, "context")
        if not self.names:
            raise ValueError("names: at least one name")
        if not self.source.strip():
            raise ValueError("source: say where the fact comes from")


@dataclass(frozen=True)
class StandIns:
    """The stand-ins by display name, in file order."""

    items: dict[str, StandIn] = field(default_factory=dict)

    def __iter__(self) -> Iterator[StandIn]:
        return iter(self.items.values())

    def get(self, display: str) -> StandIn | None:
        return self.items.get(display)


def load_stand_ins(path: Path) -> StandIns:
    """The file's stand-ins; none when there is no file (a data folder from before them)."""
    return StandIns(load_by_display(path, "stand_in", StandIn))
