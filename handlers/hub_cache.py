"""The Hub's answers kept on disk (shapes read, searches made): written whole or not at all,
and bounded: past MAX_FILES the oldest are evicted, so many distinct ids asked (a script, a
hostile client) cannot fill the disk."""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)
# Some 300 bytes each: a few MB at most.
MAX_FILES = 5_000
# Evicted down to this share of MAX_FILES at once, so a full folder is not listed every write.
AFTER_EVICTION = 0.8


def keep(path: Path, text: str) -> None:
    """`text` at `path` (atomically), then the folder pruned if it is over its bound."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=".kept-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        Path(temporary).replace(path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    prune(path.parent)


def prune(folder: Path, bound: int | None = None) -> int:
    """Remove the oldest kept answers while more than `bound` (MAX_FILES) are kept; how many
    went."""
    bound = MAX_FILES if bound is None else bound
    try:
        entries = [(e.stat().st_mtime, e.path) for e in os.scandir(folder)
                   if e.is_file() and e.name.endswith(".json")]
    except OSError:
        return 0
    if len(entries) <= bound:
        return 0
    entries.sort()
    gone = 0
    for _, path in entries[:len(entries) - int(bound * AFTER_EVICTION)]:
        try:
            Path(path).unlink()
            gone += 1
        except OSError:
            pass  # removed meanwhile by another process: the same outcome
    log.info("evicted %d kept Hub answers (over %d in %s)", gone, bound, folder)
    return gone
