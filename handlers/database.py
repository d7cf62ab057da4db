"""The database what must last lives in (preferences; installations and the OAuth flow's
state): SQLAlchemy 2's asyncio engine on SQLite (aiosqlite, a file, WAL) by default, PostgreSQL
(asyncpg) when DATABASE_URL says so.

The schema is versioned by the app itself (a one-row `mincards_schema` table and a list of
migrations, each a few statements): simpler to live with than Alembic for a handful of tables,
and the same code on both databases. Start-up applies what is missing; `mincards db upgrade`
does the same by hand; a database newer than the code is refused in one line.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    Connection,
    Float,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    event,
    select,
)
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from mincards.bot.errors import MincardsError
from mincards.handlers.slack_tables import adopt, define

DATABASE_ENV = "DATABASE_URL"
# How long bringing the schema up may take before the start gives up, in one line.
UPGRADE_SECONDS = 30.0
FILE_NAME = "mincards.db"

metadata = MetaData()
schema = Table("mincards_schema", metadata, Column("version", Integer, nullable=False))
# A person's preferences (user_id) or their workspace's (user_id ""). Slack ids and the chosen
# values only: never message text.
preferences = Table(
    "preferences", metadata,
    Column("team_id", String(32), nullable=False),
    Column("user_id", String(32), nullable=False),
    Column("flavours", String(200), nullable=False, default=""),
    Column("frameworks", String(400), nullable=False, default=""),
    Column("language", String(8), nullable=False, default="auto"),
    Column("length", String(8), nullable=False, default="full"),
    Column("updated_at", Float, nullable=False),
    PrimaryKeyConstraint("team_id", "user_id"),
)
slack_tables = define(metadata)


def _preferences(connection: Connection) -> None:
    metadata.create_all(connection, tables=[schema, preferences])


def _slack_sdk_tables(connection: Connection) -> None:
    """slack_sdk's installation and state tables under these migrations (handlers/
    slack_tables.py): made, or adopted from the create_all of an earlier mincards."""
    adopt(connection, slack_tables)


# Each migration brings the schema from its index to the next version, in one transaction.
MIGRATIONS: tuple[Callable[[Connection], None], ...] = (_preferences, _slack_sdk_tables)
VERSION = len(MIGRATIONS)


class DatabaseError(MincardsError):
    """The database cannot be used as it is: one line, said at start-up."""


def default_path() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "mincards" / FILE_NAME


def database_url(configured: str | None = None) -> str:
    """DATABASE_URL (postgresql+asyncpg://..., sqlite+aiosqlite:///...), else the SQLite file
    under the state folder."""
    url = configured if configured is not None else os.environ.get(DATABASE_ENV, "")
    if url:
        if url.startswith(("postgres://", "postgresql://")):
            url = "postgresql+asyncpg://" + url.split("://", 1)[1]
        return url
    path = default_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{path}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL: readers never wait for the writer; a writer waits up to 5 s for another.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=5000")  # first: switching to WAL may wait on a lock
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()


def scrubbed(message: str, url: str) -> str:
    """`message` without the URL's password, wherever it appears (errors quote URLs)."""
    try:
        secret = make_url(url).password
    except Exception:  # not a URL at all: say nothing of it
        return message.replace(url, "DATABASE_URL")
    return message.replace(str(secret), "***") if secret else message


@dataclass(frozen=True)
class Pool:
    """Connections each process holds to the database (DATABASE_POOL_SIZE, _MAX_OVERFLOW,
    _TIMEOUT): with many replicas, their sum must stay under the server's max_connections."""

    size: int = 5
    max_overflow: int = 10
    timeout: float = 30.0


def make_engine(url: str, pool: Pool | None = None) -> AsyncEngine:
    pool = pool or Pool()
    # An in-memory SQLite database lives in one connection (SQLAlchemy's StaticPool): no pool.
    sized = {} if url.endswith(":memory:") else {
        "pool_size": pool.size, "max_overflow": pool.max_overflow, "pool_timeout": pool.timeout}
    try:
        engine = create_async_engine(url, pool_pre_ping=True, **sized)
    except ModuleNotFoundError as exc:
        raise DatabaseError(f"DATABASE_URL needs the driver {exc.name!r}, which is not "
                            "installed (postgresql+asyncpg:// and sqlite+aiosqlite:// are)"
                            ) from None
    except Exception as exc:  # a URL SQLAlchemy cannot read
        raise DatabaseError(f"DATABASE_URL cannot be used ({type(exc).__name__}; e.g. "
                            "postgresql+asyncpg://user:password@host/db)") from None
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


async def schema_version(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        exists = await conn.run_sync(lambda c: c.dialect.has_table(c, "mincards_schema"))
        if not exists:
            return 0
        found = (await conn.execute(select(schema.c.version))).scalar()
        return int(found or 0)


async def upgrade(engine: AsyncEngine) -> tuple[int, int]:
    """Apply the missing migrations, in one transaction each; (from, to). A database newer
    than this code is refused."""
    current = await schema_version(engine)
    if current > VERSION:
        raise DatabaseError(f"the database's schema is version {current}, newer than this "
                            f"mincards (version {VERSION}): upgrade mincards first")
    for version in range(current, VERSION):
        async with engine.begin() as conn:
            await conn.run_sync(MIGRATIONS[version])
            await conn.execute(schema.delete())
            await conn.execute(schema.insert().values(version=version + 1))
    return current, VERSION


def upgrade_now(url: str, also: Callable[[AsyncEngine], Awaitable[None]] | None = None
                ) -> tuple[int, int]:
    """`upgrade` the database at `url` (and then `also`, e.g. the installation tables) from
    synchronous code: `mincards db upgrade`, and `serve` before it listens. Any failure is one
    DatabaseError line without the URL's password."""

    async def run() -> tuple[int, int]:
        engine = make_engine(url)
        try:
            made = await upgrade(engine)
            if also is not None:
                await also(engine)
            return made
        finally:
            await engine.dispose()

    async def bounded() -> tuple[int, int]:
        return await asyncio.wait_for(run(), UPGRADE_SECONDS)

    try:
        return asyncio.run(bounded())
    except MincardsError:
        raise
    except TimeoutError:
        raise DatabaseError(f"the database did not answer within {UPGRADE_SECONDS:g} s "
                            "(locked by another program, or unreachable)") from None
    except Exception as exc:  # the server down, a wrong password
        raise DatabaseError(scrubbed(f"the database cannot be reached: {type(exc).__name__}: "
                                     f"{str(exc)[:160]}", url)) from None
