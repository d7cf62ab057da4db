"""App Home: per person, in their Slack language, with a model menu whose pick answers there.
The Messages tab opened, on the agent view: the table's suggested prompts."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt.app.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from mincards.bot.answering.followup import FollowUp
from mincards.bot.language import LANGUAGES
from mincards.bot.replies.assistant_prompts import suggested_prompts
from mincards.bot.replies.i18n import t
from mincards.bot.replies.render_views import HOME_CHOOSE_ACTION, home_view
from mincards.handlers import metrics
from mincards.handlers.direct_messages import quietly
from mincards.handlers.people import SCOPES as PEOPLE_SCOPES
from mincards.handlers.preference_menus import home_with_settings
from mincards.handlers.services import Services, workspace_of

EVENTS = ("app_home_opened",)
SCOPES: tuple[str, ...] = PEOPLE_SCOPES
log = logging.getLogger(__name__)


def register(app: AsyncApp, services: Services) -> None:
    knowledge = services.engine.knowledge
    # The table does not change while the process runs: one plain Home per language.
    views = {lang: home_view(knowledge, lang) for lang in LANGUAGES}

    async def offer_prompts(client: AsyncWebClient, context: AsyncBoltContext,
                            user: str) -> None:
        """The agent view's DM opened (it replaces assistant_thread_started there): the
        table's suggested prompts in the person's language, for their flavour, above the
        composer. Nothing is posted: a greeting on every open would fill the DM."""
        prompts_of = context.get("set_suggested_prompts")
        if not services.agent_view or prompts_of is None:
            return
        language = await services.language_for(client, context, user)
        chosen = await services.preferences_of(context, user)
        flavour = chosen.flavours[0] if chosen is not None and len(chosen.flavours) == 1 \
            else None
        prompts = suggested_prompts(knowledge, language, flavour)
        if prompts:
            await quietly(prompts_of(prompts=[p.json() for p in prompts],
                                     title=t(language, "assistant.prompts.title")),
                          "suggested prompts")
            metrics.surface_result("agent", "prompts")

    @app.event("app_home_opened")
    @services.inflight.track
    async def publish_home(event: dict[str, Any], client: AsyncWebClient,
                           context: AsyncBoltContext) -> None:
        user = event.get("user")
        if not isinstance(user, str):
            return
        if event.get("tab") == "messages":
            await offer_prompts(client, context, user)
            return
        if event.get("tab") != "home":
            return
        language = await services.language_for(client, context, user)
        if services.preferences is None:
            await client.views_publish(user_id=user, view=views[language])
            return
        await client.views_publish(user_id=user, view=await home_with_settings(
            services, client, workspace_of(context), user, language))

    @app.action(HOME_CHOOSE_ACTION)
    @services.inflight.track
    async def answer_on_home(ack: AsyncAck, body: dict[str, Any], action: dict[str, Any],
                             client: AsyncWebClient, context: AsyncBoltContext) -> None:
        await ack()
        selected = action.get("selected_option")
        value = selected.get("value") if isinstance(selected, dict) else None
        follow = FollowUp.decode(str(value or ""))
        user = body.get("user", {}).get("id") if isinstance(body.get("user"), dict) else None
        if follow is None or not isinstance(user, str):
            log.warning("ignored a Home menu pick this bot did not write")
            return
        text = follow.text or ""
        chosen = await services.preferences_of(context, user)
        answer = await services.answering.answer(
            lambda: services.engine.follow(follow, chosen), text)
        if services.preferences is not None:
            view = await home_with_settings(services, client, workspace_of(context), user,
                                            follow.language, picked=answer)
        else:
            view = await services.answering.run(
                lambda: home_view(knowledge, follow.language, answer), text)
        await client.views_publish(user_id=user, view=view)
