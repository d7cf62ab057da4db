"""The Bolt app, built by a factory from validated settings; one register() per surface."""

from __future__ import annotations

import logging
import re
from typing import Any

from slack_bolt import App
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.engine import Engine
from handlers import actions, commands, direct_messages, home, mentions
from handlers.conversations import Conversations
from handlers.dedupe import SeenEvents, dedupe_middleware
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
    app.use(dedupe_middleware(SeenEvents()))
    conversations = Conversations(engine)
    for surface in SURFACES:
        surface.register(app, engine, conversations)

    @app.event(re.compile(r".*"))
    def ignore_other_events(event: dict[str, Any]) -> None:
        # Registered last: any event no surface answers is acknowledged quietly, so that Slack
        # does not redeliver it or count it against the app.
        log.debug("no listener for event %.40s", event.get("type"))

    @app.error
    def on_error(error: Exception, body: dict[str, Any]) -> None:
        kind = body.get("type") or body.get("command") or "request"
        event = (body.get("event") or {}).get("type", "")
        if isinstance(error, SlackApiError):
            response = error.response
            log.error("Slack refused %s while handling %s %s: %s (HTTP %s)",
                      getattr(response, "api_url", "a call"), kind, event,
                      response.get("error") if hasattr(response, "get") else "?",
                      getattr(response, "status_code", "?"))
            return
        log.error("failed to handle %s %s", kind, event, exc_info=error)

    return app
