"""What changed between two versions of the table: frameworks, models, entries and numbers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mincards.bot.facts.table import Table

EntryKey = tuple[str, str, int]


@dataclass(frozen=True)
class Change:
    """One number that differs for an entry, framework and flavour both versions have."""

    model: str
    strategy: str
    seq_len: int
    framework: str
    flavour: str
    old: int | None
    new: int | None


@dataclass(frozen=True)
class TableDiff:
    old: Table
    new: Table
    added_models: tuple[str, ...]
    removed_models: tuple[str, ...]
    added_frameworks: tuple[str, ...]
    removed_frameworks: tuple[str, ...]
    added_flavours: tuple[str, ...]
    removed_flavours: tuple[str, ...]
    added_entries: tuple[EntryKey, ...]
    removed_entries: tuple[EntryKey, ...]
    changed: tuple[Change, ...]

    @property
    def empty(self) -> bool:
        return not (self.added_models or self.removed_models or self.added_frameworks
                    or self.removed_frameworks or self.added_flavours or self.removed_flavours
                    or self.added_entries or self.removed_entries or self.changed)

    def removals(self) -> list[str]:
        """What the new version drops, one line each: the models, the entries of models it
        keeps, the framework and flavour columns."""
        gone = set(self.removed_models)
        out = [f"model {m}" for m in self.removed_models]
        out += [f"entry {m} · {s} · {n}" for m, s, n in self.removed_entries if m not in gone]
        out += [f"framework {f}" for f in self.removed_frameworks]
        out += [f"flavour {f}" for f in self.removed_flavours]
        return out

    def json(self) -> dict[str, Any]:
        return {
            "old": {"date": self.old.source.date_text()},
            "new": {"date": self.new.source.date_text()},
            "added_models": list(self.added_models),
            "removed_models": list(self.removed_models),
            "added_frameworks": list(self.added_frameworks),
            "removed_frameworks": list(self.removed_frameworks),
            "added_flavours": list(self.added_flavours),
            "removed_flavours": list(self.removed_flavours),
            "changed": [{"model": c.model, "strategy": c.strategy, "seq_len": c.seq_len,
                         "framework": c.framework, "flavour": c.flavour, "old": c.old,
                         "new": c.new} for c in self.changed],
            "added_entries": len(self.added_entries),
            "removed_entries": len(self.removed_entries),
        }


def _added(old: tuple[Any, ...], new: tuple[Any, ...]) -> tuple[Any, ...]:
    kept = set(old)
    return tuple(x for x in new if x not in kept)


def diff_tables(old: Table, new: Table) -> TableDiff:
    old_entries = {e.key: e for e in old.entries}
    new_entries = {e.key: e for e in new.entries}
    frameworks = [f for f in old.framework_ids if f in set(new.framework_ids)]
    flavours = [f for f in old.flavours if f in set(new.flavours)]
    changed = tuple(
        Change(*key, framework=fw, flavour=fl, old=a, new=b)
        for key, entry in new_entries.items() if key in old_entries
        for fw in frameworks for fl in flavours
        if (a := old_entries[key].count(fw, fl)) != (b := entry.count(fw, fl)))
    return TableDiff(
        old=old, new=new,
        added_models=_added(old.models(), new.models()),
        removed_models=_added(new.models(), old.models()),
        added_frameworks=_added(old.framework_ids, new.framework_ids),
        removed_frameworks=_added(new.framework_ids, old.framework_ids),
        added_flavours=_added(old.flavours, new.flavours),
        removed_flavours=_added(new.flavours, old.flavours),
        added_entries=_added(tuple(old_entries), tuple(new_entries)),
        removed_entries=_added(tuple(new_entries), tuple(old_entries)),
        changed=changed)


def _count(value: int | None) -> str:
    return "-" if value is None else str(value)


def diff_text(diff: TableDiff, flavour_names: Mapping[str, str] | None = None) -> str:
    """The diff for a person: a few lines, every changed number on its own line."""
    names = {**{f.id: f.name for f in diff.old.frameworks},
             **{f.id: f.name for f in diff.new.frameworks}}
    flavours = flavour_names or {}

    def listing(label: str, items: tuple[str, ...], shown: Mapping[str, str] | None = None
                ) -> str:
        if not items:
            return f"{label}: none"
        words = [f"{shown[i]} ({i})" if shown and i in shown else i for i in items]
        return f"{label} ({len(items)}): " + ", ".join(words)

    lines = [f"table {diff.old.source.date_text()} -> {diff.new.source.date_text()}: "
             f"{len(diff.old.models())} -> {len(diff.new.models())} models, "
             f"{len(diff.old.entries)} -> {len(diff.new.entries)} entries"]
    if diff.empty:
        return "\n".join([*lines, "no differences"])
    lines += [listing("frameworks added", diff.added_frameworks, names),
              listing("frameworks removed", diff.removed_frameworks, names)]
    if diff.added_flavours or diff.removed_flavours:
        lines += [listing("flavours added", diff.added_flavours, flavours),
                  listing("flavours removed", diff.removed_flavours, flavours)]
    lines += [listing("models added", diff.added_models),
              listing("models removed", diff.removed_models),
              f"entries: {len(diff.added_entries)} added, {len(diff.removed_entries)} removed",
              f"numbers changed: {len(diff.changed)}"]
    lines += [f"  {c.model} · {c.strategy} · {c.seq_len} · {names.get(c.framework, c.framework)}"
              f" · {flavours.get(c.flavour, c.flavour)}: {_count(c.old)} -> {_count(c.new)}"
              for c in diff.changed]
    return "\n".join(lines)
