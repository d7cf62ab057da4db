"""Preferences kept in the database (handlers/database.py), read through a short-lived cache in
the process so that answering does not wait on the database in the common case.

A person's own setting wins over their workspace's (Preferences.over). Every query is keyed by
the workspace the signed request came from: one workspace never reads or changes another's
rows. A database that fails or is slow gives the defaults (said nowhere as settings), counted
and logged once a minute; a write that fails is said to the person who made it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Collection
from dataclasses import dataclass, field

from sqlalchemy import and_, delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine

from mincards.bot.answering.preferences import LANGUAGES, LENGTHS, Preferences
from mincards.handlers import metrics
from mincards.handlers.database import preferences as table
from mincards.handlers.tracing import span

log = logging.getLogger(__name__)
# How long a read is trusted before it is read again (a change in another process shows within
# this long; the process that made it sees it at once).
CACHE_SECONDS = 30.0
# How long answering waits for a read the cache does not have before it goes on with defaults.
READ_TIMEOUT_SECONDS = 0.5
LOG_EVERY_SECONDS = 60.0


def _split(value: str) -> tuple[str, ...]:
    return tuple(v for v in value.split(",") if v)


def _row_preferences(row: object) -> Preferences:
    language = getattr(row, "language", "auto")
    length = getattr(row, "length", "full")
    return Preferences(flavours=_split(getattr(row, "flavours", "")),
                       frameworks=_split(getattr(row, "frameworks", "")),
                       language=language if language in LANGUAGES else "auto",
                       length=length if length in LENGTHS else "full")


@dataclass
class PreferenceStore:
    engine: AsyncEngine
    _cache: dict[tuple[str, str], tuple[float, Preferences]] = field(default_factory=dict)
    failures: int = 0
    _logged_at: float = 0.0
    # Per person: the lock their writes take, and how many writes hold or wait for it.
    _writing: dict[tuple[str, str], tuple[asyncio.Lock, int]] = field(default_factory=dict)

    def _failed(self, what: str, exc: BaseException) -> None:
        self.failures += 1
        metrics.database_error(what)
        now = time.monotonic()
        if now - self._logged_at >= LOG_EVERY_SECONDS:
            self._logged_at = now
            log.warning("database %s failed (%s; %d failures so far): answering with defaults",
                        what, type(exc).__name__, self.failures)

    async def _read(self, team: str, user: str) -> Preferences:
        with span("database.read"):
            return await self._select(team, user)

    async def _select(self, team: str, user: str) -> Preferences:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(table).where(and_(
                table.c.team_id == team, table.c.user_id == user)))).first()
        return _row_preferences(row) if row is not None else Preferences()

    async def get(self, team: str, user: str) -> Preferences:
        """The stored preferences of a person ("" for the workspace), from the cache when it
        is fresh; defaults when the database does not answer in time."""
        key = (team, user)
        cached = self._cache.get(key)
        now = time.monotonic()
        if cached is not None and cached[0] > now:
            return cached[1]
        started = time.monotonic()
        try:
            found = await asyncio.wait_for(self._read(team, user), READ_TIMEOUT_SECONDS)
        except Exception as exc:  # down, locked, slow: answer with what is known
            self._failed("read", exc)
            return cached[1] if cached is not None else Preferences()
        metrics.database("read", time.monotonic() - started)
        self._cache[key] = (now + CACHE_SECONDS, found)
        return found

    def _fresh(self, team: str, user: str) -> Preferences | None:
        cached = self._cache.get((team, user))
        return cached[1] if cached is not None and cached[0] > time.monotonic() else None

    async def effective(self, team: str, user: str) -> Preferences:
        """A person's preferences over their workspace's: from the cache without a task or a
        wait (the common case), else read."""
        cached_mine, cached_workspace = self._fresh(team, user), self._fresh(team, "")
        if cached_mine is not None and cached_workspace is not None:
            return cached_mine.over(cached_workspace)
        mine, workspace = await asyncio.gather(self.get(team, user), self.get(team, ""))
        return mine.over(workspace)

    async def put(self, team: str, user: str, chosen: Preferences,
                  fields: Collection[str] | None = None) -> Preferences:
        """Store the preferences, or only `fields` of them, and give what the row now holds.

        A menu changes one field: writing only that column keeps a change another request made
        to another field meanwhile (two menus changed at once, in one process or two, once lost
        one of them: each wrote back the whole row it had read before)."""
        every = ("flavours", "frameworks", "language", "length")
        written = tuple(f for f in every if fields is None or f in fields)
        values = {"team_id": team, "user_id": user, "flavours": ",".join(chosen.flavours),
                  "frameworks": ",".join(chosen.frameworks), "language": chosen.language,
                  "length": chosen.length, "updated_at": time.time()}
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        statement = dialect.insert(table).values(**values)
        statement = statement.on_conflict_do_update(
            index_elements=[table.c.team_id, table.c.user_id],
            set_={k: statement.excluded[k] for k in (*written, "updated_at")})
        started = time.monotonic()
        # One write at a time per person in this process, so that the row read back last is
        # the one cached.
        key = (team, user)
        lock, queued = self._writing.get(key, (asyncio.Lock(), 0))
        self._writing[key] = (lock, queued + 1)
        try:
            async with lock:
                try:
                    with span("database.write"):
                        async with self.engine.begin() as conn:
                            await conn.execute(statement)
                            row = (await conn.execute(select(table).where(and_(
                                table.c.team_id == team, table.c.user_id == user)))).first()
                except Exception as exc:
                    self._failed("write", exc)
                    raise
                stored = _row_preferences(row) if row is not None else chosen
                self._cache[key] = (time.monotonic() + CACHE_SECONDS, stored)
        finally:
            left = self._writing[key][1] - 1
            if left:
                self._writing[key] = (lock, left)
            else:  # no writer holds or waits for it: kept no longer
                del self._writing[key]
        metrics.database("write", time.monotonic() - started)
        return stored

    async def forget(self, team: str, user: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(delete(table).where(and_(table.c.team_id == team,
                                                        table.c.user_id == user)))
        self._cache.pop((team, user), None)

    async def forget_workspace(self, team: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(delete(table).where(table.c.team_id == team))
        for key in [k for k in self._cache if k[0] == team]:
            self._cache.pop(key, None)
