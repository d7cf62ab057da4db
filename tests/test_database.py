"""The database (handlers/database.py) and the preferences kept in it
(handlers/preferences_store.py), on SQLite in a temporary folder and on a real PostgreSQL server
started on a loopback port: migrations, a person over the workspace, workspaces apart, forget,
concurrent writers from several processes, the cache, and a database that goes down."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import func, select, text, update

from mincards.bot.answering.preferences import Preferences
from mincards.handlers import preferences_store
from mincards.handlers.database import (
    VERSION,
    DatabaseError,
    make_engine,
    preferences,
    schema,
    schema_version,
    upgrade,
)
from mincards.handlers.preferences_store import PreferenceStore
from tests.postgres_process import Postgres, running_postgres
from tests.process_exit import run_to_exit

A3 = Preferences(flavours=("snt9b23",), frameworks=("llama_factory",))


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    with running_postgres() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'mincards.db'}"
    pg_url = request.getfixturevalue("postgres").url
    async def clean() -> None:
        engine = make_engine(pg_url)
        async with engine.begin() as conn:
            await conn.execute(text("DROP TABLE IF EXISTS preferences, mincards_schema, "
                                    "slack_installations, slack_bots, slack_oauth_states"))
        await engine.dispose()
    asyncio.run(clean())
    return str(pg_url)


def test_migrations_make_the_schema_once_and_refuse_a_newer_database(url: str) -> None:
    async def run() -> None:
        engine = make_engine(url)
        assert await schema_version(engine) == 0
        assert await upgrade(engine) == (0, VERSION)
        assert await upgrade(engine) == (VERSION, VERSION)  # nothing to do the second time
        async with engine.begin() as conn:
            await conn.execute(update(schema).values(version=VERSION + 1))
        with pytest.raises(DatabaseError) as caught:
            await upgrade(engine)
        assert "newer than this mincards" in str(caught.value)
        await engine.dispose()
    asyncio.run(run())


def test_preferences_person_over_workspace_and_workspaces_apart(url: str) -> None:
    async def run() -> None:
        engine = make_engine(url)
        await upgrade(engine)
        store = PreferenceStore(engine)
        assert await store.effective("T1", "U1") == Preferences()
        await store.put("T1", "", Preferences(flavours=("snt9b",), language="zh"))
        await store.put("T1", "U1", Preferences(frameworks=("llama_factory",)))
        assert await store.effective("T1", "U1") == Preferences(
            flavours=("snt9b",), frameworks=("llama_factory",), language="zh")
        # Another workspace with the same person id sees none of it.
        assert await store.effective("T2", "U1") == Preferences()
        await store.put("T2", "U1", A3)
        fresh = PreferenceStore(engine)  # another process: from the database, not the cache
        assert await fresh.get("T1", "U1") == Preferences(frameworks=("llama_factory",))
        assert await fresh.get("T2", "U1") == A3
        await store.forget("T1", "U1")
        assert await PreferenceStore(engine).effective("T1", "U1") == Preferences(
            flavours=("snt9b",), language="zh")
        await store.forget_workspace("T1")
        async with engine.connect() as conn:
            teams = (await conn.execute(select(preferences.c.team_id))).scalars().all()
        assert teams == ["T2"]
        await engine.dispose()
    asyncio.run(run())


WRITER = """
import asyncio, sys
from mincards.bot.answering.preferences import Preferences
from mincards.handlers.database import make_engine
from mincards.handlers.preferences_store import PreferenceStore

async def main() -> None:
    engine = make_engine(sys.argv[1])
    store = PreferenceStore(engine)
    mine = Preferences(flavours=(sys.argv[2],))
    for _ in range(25):
        await store.put("T1", "U1", mine)
    await engine.dispose()

asyncio.run(main())
"""


def test_concurrent_writers_in_several_processes_end_in_one_value(url: str) -> None:
    async def prepare() -> None:
        engine = make_engine(url)
        await upgrade(engine)
        await engine.dispose()
    asyncio.run(prepare())
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, url, flavour])
               for flavour in ("snt9b", "snt9b23", "snt9b", "snt9b23")]
    assert [w.wait(timeout=120) for w in writers] == [0, 0, 0, 0]

    async def check() -> None:
        engine = make_engine(url)
        async with engine.connect() as conn:
            count = (await conn.execute(select(func.count()).select_from(preferences))).scalar()
        found = await PreferenceStore(engine).get("T1", "U1")
        assert count == 1 and found.flavours in (("snt9b",), ("snt9b23",))
        await engine.dispose()
    asyncio.run(check())


FIELD_WRITER = """
import asyncio, sys
from dataclasses import replace
from mincards.bot.answering.preferences import Preferences
from mincards.handlers.database import make_engine
from mincards.handlers.preferences_store import PreferenceStore

async def main() -> None:
    engine = make_engine(sys.argv[1])
    store = PreferenceStore(engine)
    field, value = sys.argv[2], sys.argv[3]
    for _ in range(20):
        # As a menu does: the row as read before (the defaults), this one field changed.
        chosen = replace(Preferences(), **{field: tuple(value.split(",")) if field in (
            "flavours", "frameworks") else value})
        await store.put("T1", "U1", chosen, fields=(field,))
    await engine.dispose()

asyncio.run(main())
"""

CHANGES = {"flavours": "snt9b23", "frameworks": "llama_factory", "language": "zh",
           "length": "short"}


def test_menus_changed_at_once_in_several_processes_lose_none(url: str) -> None:
    # Each process writes one field over a stale read of the whole row: a write of the whole
    # row once lost the other fields' changes (two menus changed at once kept one of them).
    async def prepare() -> None:
        engine = make_engine(url)
        await upgrade(engine)
        await engine.dispose()
    asyncio.run(prepare())
    writers = [subprocess.Popen([sys.executable, "-c", FIELD_WRITER, url, field, value])
               for field, value in CHANGES.items()]
    assert [w.wait(timeout=120) for w in writers] == [0, 0, 0, 0]

    async def check() -> None:
        engine = make_engine(url)
        found = await PreferenceStore(engine).get("T1", "U1")
        assert found == Preferences(flavours=("snt9b23",), frameworks=("llama_factory",),
                                    language="zh", length="short")
        await engine.dispose()
    asyncio.run(check())


def test_menus_changed_at_once_in_one_process_lose_none_and_cache_the_row(url: str) -> None:
    async def run() -> None:
        engine = make_engine(url)
        await upgrade(engine)
        store = PreferenceStore(engine)
        stale = Preferences()
        written = await asyncio.gather(
            store.put("T1", "U1", replace(stale, flavours=("snt9b23",)), fields=("flavours",)),
            store.put("T1", "U1", replace(stale, language="zh"), fields=("language",)),
            store.put("T1", "U1", replace(stale, length="short"), fields=("length",)))
        both = Preferences(flavours=("snt9b23",), language="zh", length="short")
        assert written[-1] == both
        # The cache holds the row as the last write left it, not one write's stale copy.
        assert await store.get("T1", "U1") == both
        assert await PreferenceStore(engine).get("T1", "U1") == both
        assert not store._writing  # nothing kept per person once the writes are done
        await engine.dispose()
    asyncio.run(run())


def test_reads_are_cached_briefly(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    async def run() -> None:
        engine = make_engine(url)
        await upgrade(engine)
        writer, reader = PreferenceStore(engine), PreferenceStore(engine)
        await writer.put("T1", "U1", A3)
        assert await reader.get("T1", "U1") == A3
        await writer.forget("T1", "U1")
        assert await reader.get("T1", "U1") == A3  # the reader's cache, within its expiry
        monkeypatch.setattr(preferences_store, "CACHE_SECONDS", 0.0)
        reader._cache.clear()
        assert await reader.get("T1", "U1") == Preferences()
        await engine.dispose()
    asyncio.run(run())


def test_a_database_that_goes_down_gives_defaults_fast_and_comes_back(
        postgres: Postgres) -> None:
    pg_url = postgres.url

    async def prepare() -> PreferenceStore:
        engine = make_engine(pg_url)
        await upgrade(engine)
        return PreferenceStore(engine)

    async def run() -> None:
        store = await prepare()
        await store.put("T9", "U9", A3)
        store._cache.clear()
        postgres.stop()
        started = time.monotonic()
        assert await store.get("T9", "U9") == Preferences()  # defaults, not an error
        assert time.monotonic() - started < 2.0
        assert store.failures >= 1
        postgres.start()
        for _ in range(50):
            if await store.get("T9", "U9") == A3:
                break
            await asyncio.sleep(0.1)
        assert await store.get("T9", "U9") == A3
        await store.engine.dispose()
    asyncio.run(run())


def test_db_upgrade_on_the_command_line(tmp_path: Path) -> None:
    import os

    mincards = Path(sys.executable).with_name("mincards")

    def run(**env: str) -> subprocess.CompletedProcess[str]:
        return run_to_exit([str(mincards), "db", "upgrade"], capture_output=True, text=True,
                           check=False,
                           env={**os.environ, "XDG_STATE_HOME": str(tmp_path), **env})

    first, second = run(), run()
    assert first.returncode == 0 and f"0 -> version {VERSION}" in first.stdout
    assert second.returncode == 0 and f"already at version {VERSION}" in second.stdout
    assert (tmp_path / "mincards" / "mincards.db").is_file()  # the default file, made once
    for url in ("postgresql://u:hunter2@127.0.0.1:1/db", "mysql://u:hunter2@h/d",
                "not a url hunter2"):
        failed = run(DATABASE_URL=url)
        assert failed.returncode == 2 and failed.stderr.count("\n") == 1, failed.stderr
        assert "hunter2" not in failed.stderr and "Traceback" not in failed.stderr


def test_database_calls_and_failures_are_measured(tmp_path: Path) -> None:
    from prometheus_client import REGISTRY

    def seen(name: str, operation: str) -> float:
        return REGISTRY.get_sample_value(name, {"operation": operation}) or 0.0

    async def run() -> None:
        engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'm.db'}")
        await upgrade(engine)
        store = PreferenceStore(engine)
        writes, reads = (seen("mincards_database_seconds_count", "write"),
                         seen("mincards_database_seconds_count", "read"))
        await store.put("T1", "U1", A3)
        store._cache.clear()
        await store.get("T1", "U1")
        assert seen("mincards_database_seconds_count", "write") == writes + 1
        assert seen("mincards_database_seconds_count", "read") == reads + 1
        failed = seen("mincards_database_errors_total", "read")
        await engine.dispose()
        # A server that is not there (refused at once; asyncpg needs no thread).
        broken = PreferenceStore(make_engine("postgresql+asyncpg://u@127.0.0.1:1/db"))
        assert await broken.get("T1", "U1") == Preferences()
        assert seen("mincards_database_errors_total", "read") == failed + 1
        await broken.engine.dispose()
    asyncio.run(run())
