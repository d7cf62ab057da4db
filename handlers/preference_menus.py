"""Settings: the menus on the Home tab and in the `/mincards settings` modal, saved as each
changes; `/mincards forget me`. A workspace's defaults are changed only by its admins or owners,
checked with users.info at the time of the change (never trusted from the payload), and only in
the workspace the signed request came from."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from mincards.bot.answering.answer import Answer
from mincards.bot.answering.preferences import Preferences
from mincards.bot.language import Language
from mincards.bot.replies.i18n import t
from mincards.bot.replies.render_settings import (
    ACTION_PREFIX,
    FIELDS,
    WORKSPACE_PART,
    chosen_from,
    field_of,
    settings_blocks,
    settings_modal,
)
from mincards.bot.replies.render_views import home_view
from mincards.handlers.people import SCOPES as PEOPLE_SCOPES
from mincards.handlers.people import is_admin_of
from mincards.handlers.services import Services, workspace_of

SCOPES: tuple[str, ...] = PEOPLE_SCOPES
ADMIN_SECONDS = 3.0
log = logging.getLogger(__name__)


async def is_admin(client: AsyncWebClient, user: str) -> bool | None:
    """Whether Slack says the person is an admin or owner of the workspace, now; None when
    Slack did not say (users.info slow, rate-limited or refused): never taken for a yes."""
    try:
        response = await asyncio.wait_for(client.users_info(user=user), ADMIN_SECONDS)
    except Exception as exc:  # slow, refused: not known, so no workspace default changes
        log.warning("users.info failed (%s); a workspace default was not changed",
                    type(exc).__name__)
        return None
    return is_admin_of(response.get("user"))


async def settings_of(services: Services, client: AsyncWebClient, team: str, user: str
                      ) -> tuple[Preferences, Preferences | None]:
    """(the person's own, the workspace's when they are an admin: as their language lookup
    found them, else asked now)."""
    assert services.preferences is not None
    mine = await services.preferences.get(team, user)
    seen = services.locales.admins.get(user)
    admin = seen if seen is not None else await is_admin(client, user)
    return mine, (await services.preferences.get(team, "") if admin else None)


async def home_with_settings(services: Services, client: AsyncWebClient, team: str | None,
                             user: str, language: Language, problem: str | None = None,
                             picked: Answer | None = None) -> dict[str, Any]:
    """The Home tab with the person's Settings section (and their workspace's, for admins)."""
    knowledge = services.engine.knowledge
    if services.preferences is None or team is None:
        return home_view(knowledge, language, picked)
    mine, workspace = await settings_of(services, client, team, user)
    return home_view(knowledge, language, picked, settings=settings_blocks(
        knowledge, language, mine, workspace, problem))


def register(app: AsyncApp, services: Services) -> None:
    knowledge = services.engine.knowledge

    @app.action(re.compile("^" + ACTION_PREFIX + "(" + WORKSPACE_PART + ")?(" +
                           "|".join(FIELDS) + ")$"))
    @services.inflight.track
    async def change_setting(ack: AsyncAck, body: dict[str, Any], action: dict[str, Any],
                             client: AsyncWebClient, context: AsyncBoltContext) -> None:
        await ack()
        store, team = services.preferences, workspace_of(context)
        who = body.get("user")
        user = who.get("id") if isinstance(who, dict) else None
        which = field_of(str(action.get("action_id", "")))
        if store is None or team is None or not isinstance(user, str) or which is None:
            return
        field, for_workspace = which
        language = await services.language_for(client, context, user)
        target = "" if for_workspace else user
        problem = None
        admin = await is_admin(client, user) if for_workspace else None
        if for_workspace and not admin:
            problem = t(language, "settings.not_admin" if admin is False
                        else "settings.admin_unknown")
        else:
            changed = chosen_from(field, action, await store.get(team, target), knowledge)
            if changed is None:
                log.warning("ignored a settings change this bot did not offer")
                return
            try:
                await store.put(team, target, changed, fields=(field,))
            except Exception as exc:  # the database down: said to the person, nothing else
                log.warning("a setting was not saved (%s)", type(exc).__name__)
                problem = t(language, "settings.not_saved")
            else:  # a new language setting shows at once
                language = await services.language_for(client, context, user)
        view = body.get("view")
        if isinstance(view, dict) and view.get("type") == "modal" and view.get("id"):
            mine, workspace = await settings_of(services, client, team, user)
            await client.views_update(view_id=view["id"], view=settings_modal(
                knowledge, language, mine, workspace, problem))
        else:
            await client.views_publish(user_id=user, view=await home_with_settings(
                services, client, team, user, language, problem))


async def open_settings(services: Services, client: AsyncWebClient, context: AsyncBoltContext,
                        command: dict[str, Any], language: Language) -> str | None:
    """`/mincards settings`: the modal; a line to say instead when there is none to open."""
    team, user = workspace_of(context), command.get("user_id")
    trigger = command.get("trigger_id")
    if (services.preferences is None or team is None or not isinstance(user, str)
            or not isinstance(trigger, str)):
        return t(language, "settings.none")
    mine, workspace = await settings_of(services, client, team, user)
    await client.views_open(trigger_id=trigger, view=settings_modal(
        services.engine.knowledge, language, mine, workspace))
    return None


async def forget_me(services: Services, context: AsyncBoltContext, command: dict[str, Any],
                    language: Language) -> str:
    """`/mincards forget me`: the person's own settings deleted (the workspace's stay)."""
    team, user = workspace_of(context), command.get("user_id")
    if services.preferences is None or team is None or not isinstance(user, str):
        return t(language, "settings.none")
    try:
        await services.preferences.forget(team, user)
    except Exception as exc:
        log.warning("forget me failed (%s)", type(exc).__name__)
        return t(language, "settings.not_saved")
    return t(language, "settings.forgotten")
