"""Installation by any workspace (HTTP mode): Slack's OAuth flow through Bolt, with each
workspace's installation and the flow's state kept in the same database as the preferences
(slack_sdk's SQLAlchemy stores, on tables the app's migrations make; tokens encrypted at rest,
handlers/token_cipher.py), read through a cache so that answering does not wait on the
database in the common case. When a workspace uninstalls the app or revokes its tokens, its
installation and its preferences are deleted."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.authorization.async_authorize import AsyncInstallationStoreAuthorize
from slack_bolt.context.async_context import AsyncBoltContext
from slack_bolt.listener.async_builtins import AsyncTokenRevocationListeners
from slack_bolt.oauth.async_oauth_settings import AsyncOAuthSettings
from slack_sdk.oauth.installation_store.async_cacheable_installation_store import (
    AsyncCacheableInstallationStore,
)
from slack_sdk.oauth.installation_store.models.bot import Bot
from slack_sdk.oauth.installation_store.models.installation import Installation
from slack_sdk.oauth.installation_store.sqlalchemy import AsyncSQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import AsyncSQLAlchemyOAuthStateStore
from slack_sdk.web.async_client import AsyncWebClient
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from mincards.handlers.preferences_store import PreferenceStore
from mincards.handlers.settings import Settings, SettingsError
from mincards.handlers.slack_tables import BOTS, INSTALLATIONS, SECRET_COLUMNS
from mincards.handlers.token_cipher import KEYS_ENV, TokenCipher, TokenKeyError

EVENTS = ("app_uninstalled", "tokens_revoked")
INSTALL_PATH = "/slack/install"
REDIRECT_PATH = "/slack/oauth_redirect"
# An install link's state lives this long (Slack's own page takes a person a minute or two).
STATE_SECONDS = 600
log = logging.getLogger(__name__)


class SealedInstallationStore(AsyncSQLAlchemyInstallationStore):
    """slack_sdk's store on the app's tables (handlers/slack_tables.py, made by the app's
    migrations), with every token encrypted before it is written and opened when read."""

    def __init__(self, client_id: str, engine: AsyncEngine, cipher: TokenCipher) -> None:
        super().__init__(client_id=client_id, engine=engine, logger=log)
        self._cipher = cipher

    async def async_save(self, installation: Installation) -> None:
        # slack_sdk saves the installation's Bot after it: already sealed, it stays as is.
        await super().async_save(self._cipher.sealed(installation,
                                                     SECRET_COLUMNS[INSTALLATIONS]))

    async def async_save_bot(self, bot: Bot) -> None:
        await super().async_save_bot(self._cipher.sealed(bot, SECRET_COLUMNS[BOTS]))

    async def async_find_bot(self, *, enterprise_id: str | None, team_id: str | None,
                             is_enterprise_install: bool | None = False) -> Bot | None:
        found = await super().async_find_bot(enterprise_id=enterprise_id, team_id=team_id,
                                             is_enterprise_install=is_enterprise_install)
        return None if found is None else self._cipher.opened(found, SECRET_COLUMNS[BOTS])

    async def async_find_installation(self, *, enterprise_id: str | None, team_id: str | None,
                                      user_id: str | None = None,
                                      is_enterprise_install: bool | None = False
                                      ) -> Installation | None:
        found = await super().async_find_installation(
            enterprise_id=enterprise_id, team_id=team_id, user_id=user_id,
            is_enterprise_install=is_enterprise_install)
        return (None if found is None
                else self._cipher.opened(found, SECRET_COLUMNS[INSTALLATIONS]))


def cipher_of(settings: Settings) -> TokenCipher:
    if settings.slack_token_keys is None:
        raise SettingsError(f"installation by any workspace keeps each workspace's tokens "
                            f"encrypted: set {KEYS_ENV} (`mincards db new-key` makes a key)")
    try:
        return TokenCipher(settings.slack_token_keys.get_secret_value())
    except TokenKeyError as exc:
        raise SettingsError(str(exc)) from None


def _stores(settings: Settings, engine: AsyncEngine
            ) -> tuple[SealedInstallationStore, AsyncSQLAlchemyOAuthStateStore]:
    assert settings.slack_client_id
    return (SealedInstallationStore(settings.slack_client_id, engine, cipher_of(settings)),
            AsyncSQLAlchemyOAuthStateStore(expiration_seconds=STATE_SECONDS, engine=engine,
                                           logger=log))


async def reseal(engine: AsyncEngine, cipher: TokenCipher) -> int:
    """Encrypt with the first key every stored secret that is not yet: stored in the clear by
    an earlier mincards, or under a key rotated out. How many rows were rewritten. A value no
    configured key opens stops it, in one line (TokenKeyError)."""
    from mincards.handlers.database import slack_tables

    rewritten = 0
    async with engine.begin() as conn:
        for table in slack_tables:
            columns = SECRET_COLUMNS.get(table.name, ())
            if not columns:
                continue
            rows = await conn.execute(select(table.c.id, *(table.c[c] for c in columns)))
            for row in rows.mappings().all():
                stale = {c: row[c] for c in columns if not cipher.current(row[c])}
                if stale:
                    await conn.execute(update(table).where(table.c.id == row["id"]).values(
                        {c: cipher.encrypt(cipher.decrypt(v)) for c, v in stale.items()}))
                    rewritten += 1
    return rewritten


def oauth_settings(settings: Settings, store: PreferenceStore | None, scopes: list[str],
                   client: AsyncWebClient) -> AsyncOAuthSettings:
    """Bolt's OAuth flow for the app's `scopes` (every surface's), on the database; tokens
    found, and rotated when they near their expiry, through `client` (SLACK_API_URL)."""
    if store is None or settings.slack_client_secret is None or not settings.slack_client_id:
        raise SettingsError("installation by any workspace needs the database (DATABASE_URL)")
    installs, states = _stores(settings, store.engine)
    kept = AsyncCacheableInstallationStore(installs)
    secret = settings.slack_client_secret.get_secret_value()
    oauth = AsyncOAuthSettings(
        client_id=settings.slack_client_id, client_secret=secret, scopes=scopes,
        install_path=INSTALL_PATH, redirect_uri_path=REDIRECT_PATH, installation_store=kept,
        state_store=states, logger=log)
    # Bolt's own would refresh rotating tokens at slack.com whatever SLACK_API_URL says.
    oauth.authorize = AsyncInstallationStoreAuthorize(
        installation_store=kept, client_id=settings.slack_client_id, client_secret=secret,
        client=client, logger=log,
        token_rotation_expiration_minutes=oauth.token_rotation_expiration_minutes)
    return oauth


def register(app: AsyncApp, services: Any) -> None:
    """When a workspace uninstalls the app, or revokes its bot token (the app can no longer
    act there): its installation and its preferences are deleted. A person's revoked user
    token deletes that token alone, as Bolt's own listener does."""
    if app.installation_store is None or app.oauth_flow is None:
        return
    revocations = AsyncTokenRevocationListeners(app.installation_store)

    async def forget_workspace(context: AsyncBoltContext) -> None:
        # Settings first, the installation last: once the installation is gone, so is all
        # of it (a test that waited for the installation to go once read the settings in
        # between, under load).
        team = context.team_id or context.enterprise_id
        if services.preferences is not None and isinstance(team, str) and team:
            await services.preferences.forget_workspace(team)
        await revocations.handle_app_uninstalled_events(context)

    @app.event("app_uninstalled")
    async def uninstalled(context: AsyncBoltContext) -> None:
        await forget_workspace(context)
        log.info("a workspace uninstalled the app: its installation and settings are gone")

    @app.event("tokens_revoked")
    async def revoked(event: dict[str, Any], context: AsyncBoltContext) -> None:
        tokens = event.get("tokens")
        bots = tokens.get("bot") if isinstance(tokens, dict) else None
        if isinstance(bots, list) and bots:
            await forget_workspace(context)
            log.info("a workspace revoked the bot's token: its installation and settings "
                     "are gone")
            return
        await revocations.handle_tokens_revoked_events(event, context)
        log.info("a workspace revoked user tokens: they are deleted")
