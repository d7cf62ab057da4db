"""slack_sdk's installation and OAuth-state tables, as this app's migrations make them.

slack_sdk's SQLAlchemy stores can `create_all` their own tables, but then a change slack_sdk
makes to them (a column added, as 3.8 added the refresh tokens) has no upgrade path in an
existing database. So the app's migrations (handlers/database.py) own them: these are the
definitions as of slack_sdk 3.38, frozen here, with one difference: the token columns (and the
incoming webhook's URL, which holds a secret too) are TEXT, not VARCHAR(200), because they hold
tokens encrypted at rest (handlers/token_cipher.py), longer than 200 characters.
`tests/test_slack_tables.py` fails when slack_sdk's stores ask for a column these lack: then
write the migration that adds it.

Names and indexes are slack_sdk's, so its stores read and write these tables as their own.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    DateTime,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    func,
    inspect,
    text,
)

INSTALLATIONS = "slack_installations"
BOTS = "slack_bots"
STATES = "slack_oauth_states"
# The columns that hold secrets: TEXT, encrypted by the installation store.
SECRET_COLUMNS = {
    INSTALLATIONS: ("bot_token", "bot_refresh_token", "user_token", "user_refresh_token",
                    "incoming_webhook_url"),
    BOTS: ("bot_token", "bot_refresh_token"),
}


def define(metadata: MetaData) -> tuple[Table, Table, Table]:
    installations = Table(
        INSTALLATIONS, metadata,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("client_id", String(32), nullable=False),
        Column("app_id", String(32), nullable=False),
        Column("enterprise_id", String(32)),
        Column("enterprise_name", String(200)),
        Column("enterprise_url", String(200)),
        Column("team_id", String(32)),
        Column("team_name", String(200)),
        Column("bot_token", Text),
        Column("bot_id", String(32)),
        Column("bot_user_id", String(32)),
        Column("bot_scopes", String(1000)),
        Column("bot_refresh_token", Text),
        Column("bot_token_expires_at", DateTime),
        Column("user_id", String(32), nullable=False),
        Column("user_token", Text),
        Column("user_scopes", String(1000)),
        Column("user_refresh_token", Text),
        Column("user_token_expires_at", DateTime),
        Column("incoming_webhook_url", Text),
        Column("incoming_webhook_channel", String(200)),
        Column("incoming_webhook_channel_id", String(200)),
        Column("incoming_webhook_configuration_url", String(200)),
        Column("is_enterprise_install", Boolean, default=False, nullable=False),
        Column("token_type", String(32)),
        Column("installed_at", DateTime, nullable=False, default=func.now()),
        Index(f"{INSTALLATIONS}_idx", "client_id", "enterprise_id", "team_id", "user_id",
              "installed_at"),
    )
    bots = Table(
        BOTS, metadata,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("client_id", String(32), nullable=False),
        Column("app_id", String(32), nullable=False),
        Column("enterprise_id", String(32)),
        Column("enterprise_name", String(200)),
        Column("team_id", String(32)),
        Column("team_name", String(200)),
        Column("bot_token", Text),
        Column("bot_id", String(32)),
        Column("bot_user_id", String(32)),
        Column("bot_scopes", String(1000)),
        Column("bot_refresh_token", Text),
        Column("bot_token_expires_at", DateTime),
        Column("is_enterprise_install", Boolean, default=False, nullable=False),
        Column("installed_at", DateTime, nullable=False, default=func.now()),
        Index(f"{BOTS}_idx", "client_id", "enterprise_id", "team_id", "installed_at"),
    )
    states = Table(
        STATES, metadata,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("state", String(200), nullable=False),
        Column("expire_at", DateTime, nullable=False),
    )
    return installations, bots, states


def adopt(connection: Connection, tables: tuple[Table, ...]) -> None:
    """Make the tables that are missing; where an earlier mincards let slack_sdk make them
    (VARCHAR(200) tokens), widen the secret columns to TEXT. SQLite keeps no length, so there
    the existing tables already hold anything."""
    existing = set(inspect(connection).get_table_names())
    for table in tables:
        if table.name not in existing:
            table.create(connection)
        elif connection.dialect.name == "postgresql":
            for column in SECRET_COLUMNS.get(table.name, ()):
                connection.execute(text(
                    f'ALTER TABLE "{table.name}" ALTER COLUMN "{column}" TYPE TEXT'))
