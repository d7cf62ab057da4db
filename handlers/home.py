"""App Home: how to ask, and the whole table."""

from __future__ import annotations

from typing import Any

from slack_bolt.app.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.render_blocks import home_view
from handlers.services import Services

EVENTS = ("app_home_opened",)
SCOPES: tuple[str, ...] = ()


def register(app: AsyncApp, services: Services) -> None:
    view = home_view(services.engine.knowledge)  # the table does not change while it runs

    @app.event("app_home_opened")
    @services.inflight.track
    async def publish_home(event: dict[str, Any], client: AsyncWebClient) -> None:
        user = event.get("user")
        if event.get("tab") != "home" or not isinstance(user, str):
            return
        await client.views_publish(user_id=user, view=view)
