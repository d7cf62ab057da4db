"""slack_sdk's installation and state tables under the app's migrations (issue 39, item 7):
a new database gets them from migration 2; a database of today (schema 1, with the tables an
earlier mincards let slack_sdk `create_all`, VARCHAR(200) tokens, rows in them) is upgraded in
place, its rows kept and its token columns wide enough for encrypted tokens; and slack_sdk's
stores never ask for a column the migrations do not make. On SQLite and a real PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy
from slack_sdk.oauth.installation_store.models.installation import Installation
from slack_sdk.oauth.installation_store.sqlalchemy import (
    AsyncSQLAlchemyInstallationStore,
    SQLAlchemyInstallationStore,
)
from slack_sdk.oauth.state_store.sqlalchemy import (
    AsyncSQLAlchemyOAuthStateStore,
    SQLAlchemyOAuthStateStore,
)
from sqlalchemy import MetaData, inspect, text

from mincards.handlers import database
from mincards.handlers.installs import SealedInstallationStore, reseal
from mincards.handlers.slack_tables import BOTS, INSTALLATIONS, SECRET_COLUMNS, STATES, define
from mincards.handlers.token_cipher import TokenCipher, is_encrypted, new_key
from tests.postgres_process import Postgres, running_postgres

TOKEN = "xoxb-today-1111-do-not-leak"
# A rotating token's refresh token is long; encrypted, it passes VARCHAR(200).
REFRESH = "xoxe-1-" + "r" * 180


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    with running_postgres() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'mincards.db'}"
    pg_url = str(request.getfixturevalue("postgres").url)

    async def clean() -> None:
        engine = database.make_engine(pg_url)
        async with engine.begin() as conn:
            await conn.execute(text(f"DROP TABLE IF EXISTS preferences, mincards_schema, "
                                    f"{INSTALLATIONS}, {BOTS}, {STATES}"))
        await engine.dispose()
    asyncio.run(clean())
    return pg_url


def test_slack_sdks_stores_ask_for_no_column_the_migrations_do_not_make() -> None:
    """When slack_sdk adds a column, this fails: write the migration that adds it."""
    ours = {t.name: {c.name for c in t.columns} for t in define(MetaData())}
    theirs = {
        INSTALLATIONS: SQLAlchemyInstallationStore.build_installations_table(
            MetaData(), INSTALLATIONS),
        BOTS: SQLAlchemyInstallationStore.build_bots_table(MetaData(), BOTS),
        STATES: SQLAlchemyOAuthStateStore.build_oauth_states_table(MetaData(), STATES),
    }
    for name, table in theirs.items():
        missing = {c.name for c in table.columns} - ours[name]
        assert not missing, f"slack_sdk's {name} has columns no migration makes: {missing}"
    assert (AsyncSQLAlchemyInstallationStore.default_installations_table_name,
            AsyncSQLAlchemyInstallationStore.default_bots_table_name) == (INSTALLATIONS, BOTS)


def installation(team: str) -> Installation:
    return Installation(app_id="A1", enterprise_id=None, team_id=team, user_id="U1",
                        bot_token=TOKEN, bot_id="B1", bot_user_id="UBOT",
                        bot_scopes=["chat:write"], bot_refresh_token=REFRESH)


async def columns(engine: sqlalchemy.ext.asyncio.AsyncEngine) -> dict[str, dict[str, str]]:
    async with engine.connect() as conn:
        return await conn.run_sync(lambda c: {
            table: {col["name"]: str(col["type"]).upper()
                    for col in inspect(c).get_columns(table)}
            for table in (INSTALLATIONS, BOTS, STATES)})


def test_a_new_database_gets_the_tables_from_the_migrations(url: str) -> None:
    async def run() -> None:
        engine = database.make_engine(url)
        assert await database.upgrade(engine) == (0, database.VERSION)
        made = await columns(engine)
        for table, secret in SECRET_COLUMNS.items():
            assert all("TEXT" in made[table][c] for c in secret), made[table]
        store = SealedInstallationStore("1111.2222", engine, TokenCipher(new_key()))
        await store.async_save(installation("TN001"))
        found = await store.async_find_installation(enterprise_id=None, team_id="TN001")
        assert found is not None and found.bot_refresh_token == REFRESH
        states = AsyncSQLAlchemyOAuthStateStore(expiration_seconds=60, engine=engine)
        assert await states.async_consume(await states.async_issue())
        await engine.dispose()
    asyncio.run(run())


def test_a_database_of_today_is_upgraded_in_place_and_its_tokens_sealed(url: str) -> None:
    async def run() -> None:
        engine = database.make_engine(url)
        # Today's: schema 1, then slack_sdk's own create_all and a row in the clear.
        async with engine.begin() as conn:
            await conn.run_sync(database.MIGRATIONS[0])
            await conn.execute(database.schema.insert().values(version=1))
        plain = AsyncSQLAlchemyInstallationStore(client_id="1111.2222", engine=engine)
        await plain.create_tables()
        await AsyncSQLAlchemyOAuthStateStore(expiration_seconds=60, engine=engine).create_tables()
        await plain.async_save(Installation(app_id="A1", enterprise_id=None, team_id="TT001",
                                            user_id="U1", bot_token=TOKEN, bot_id="B1",
                                            bot_scopes=["chat:write"]))
        assert await database.upgrade(engine) == (1, database.VERSION)
        made = await columns(engine)
        if engine.dialect.name == "postgresql":  # SQLite keeps no length to widen
            for table, secret in SECRET_COLUMNS.items():
                assert all(made[table][c] == "TEXT" for c in secret), made[table]
        cipher = TokenCipher(new_key())
        assert await reseal(engine, cipher) == 2  # the installation's row and the bot's
        assert await reseal(engine, cipher) == 0
        async with engine.connect() as conn:
            stored = (await conn.execute(text(
                f"SELECT bot_token FROM {BOTS} WHERE team_id = 'TT001'"))).scalar()
        assert isinstance(stored, str) and is_encrypted(stored)
        store = SealedInstallationStore("1111.2222", engine, cipher)
        found = await store.async_find_bot(enterprise_id=None, team_id="TT001")
        assert found is not None and found.bot_token == TOKEN
        # The widened columns hold what VARCHAR(200) would refuse on PostgreSQL.
        await store.async_save(installation("TT001"))
        again = await store.async_find_installation(enterprise_id=None, team_id="TT001")
        assert again is not None and again.bot_refresh_token == REFRESH
        await engine.dispose()
    asyncio.run(run())
