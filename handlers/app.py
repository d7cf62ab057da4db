"""The Bolt app, built by a factory from validated settings; one register() per surface."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import App
from slack_sdk import WebClient

from bot.engine import Engine
from handlers import actions, commands, direct_messages, home, mentions
from handlers.replies import TIMEOUT_SECONDS, retry_handlers
from handlers.settings import Settings

SURFACES = (mentions, direct_messages, commands, actions, home)
log = logging.getLogger(__name__)


def create_app(settings: Settings, engine: Engine | None = None, mode: str = "auto") -> App:
    engine = engine or Engine()
    socket = settings.mode(mode) == "socket"
    client = WebClient(token=settings.slack_bot_token.get_secret_value(),
                       base_url=settings.slack_api_url, timeout=TIMEOUT_SECONDS,
                       retry_handlers=retry_handlers())
    secret = settings.slack_signing_secret
    app = App(client=client,
              signing_secret=secret.get_secret_value() if secret else "",
              # Socket Mode messages are not signed; HTTP requests always are checked.
              request_verification_enabled=not socket,
              logger=logging.getLogger("mincards.bolt"))
    for surface in SURFACES:
        surface.register(app, engine)

    @app.error
    def on_error(error: Exception, body: dict[str, Any]) -> None:
        kind = body.get("type") or body.get("command") or "request"
        event = (body.get("event") or {}).get("type", "")
        log.error("failed to handle %s %s", kind, event, exc_info=error)

    return app
