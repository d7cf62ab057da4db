"""Installation by any workspace (HTTP mode): Slack's OAuth flow through Bolt, with each
workspace's installation and the flow's state kept in the same database as the preferences
(slack_sdk's SQLAlchemy stores), read through a cache so that answering does not wait on the
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
from slack_sdk.oauth.installation_store.sqlalchemy import AsyncSQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import AsyncSQLAlchemyOAuthStateStore
from slack_sdk.web.async_client import AsyncWebClient
from sqlalchemy.ext.asyncio import AsyncEngine

from mincards.handlers.preferences_store import PreferenceStore
from mincards.handlers.settings import Settings, SettingsError

EVENTS = ("app_uninstalled", "tokens_revoked")
INSTALL_PATH = "/slack/install"
REDIRECT_PATH = "/slack/oauth_redirect"
# An install link's state lives this long (Slack's own page takes a person a minute or two).
STATE_SECONDS = 600
log = logging.getLogger(__name__)


def _stores(settings: Settings, engine: AsyncEngine
            ) -> tuple[AsyncSQLAlchemyInstallationStore, AsyncSQLAlchemyOAuthStateStore]:
    assert settings.slack_client_id
    return (AsyncSQLAlchemyInstallationStore(client_id=settings.slack_client_id, engine=engine,
                                             logger=log),
            AsyncSQLAlchemyOAuthStateStore(expiration_seconds=STATE_SECONDS, engine=engine,
                                           logger=log))


async def create_tables(settings: Settings, engine: AsyncEngine) -> None:
    installs, states = _stores(settings, engine)
    await installs.create_tables()
    await states.create_tables()


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
