"""App Home: how to ask, and the whole table."""

from __future__ import annotations

from typing import Any

from slack_bolt import App
from slack_sdk import WebClient

from bot.engine import Engine
from bot.render_blocks import home_view
from handlers.conversations import Conversations

EVENTS = ("app_home_opened",)
SCOPES: tuple[str, ...] = ()


def register(app: App, engine: Engine, conversations: Conversations) -> None:
    view = home_view(engine.knowledge)  # the table does not change while the bot runs

    @app.event("app_home_opened")
    def publish_home(event: dict[str, Any], client: WebClient) -> None:
        if event.get("tab") != "home":
            return
        client.views_publish(user_id=event["user"], view=view)
