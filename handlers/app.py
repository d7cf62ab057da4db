"""The Bolt app (asyncio), built by a factory from validated settings; one register() per surface.

Asynchronous all the way to Slack: a reply waiting on a slow Web API call holds no thread, so a
process acknowledges every request at once and keeps thousands of replies in flight.
"""

from __future__ import annotations

import gc
import logging
import re
from typing import Any

from slack_bolt.app.async_app import AsyncApp
from slack_sdk.errors import SlackApiError

from mincards.bot.answering.engine import Engine
from mincards.handlers import (
    actions,
    assistant,
    commands,
    direct_messages,
    home,
    installs,
    mentions,
    metrics,
    preference_menus,
    shortcuts,
    tracing,
    unfurls,
    workflow_step,
)
from mincards.handlers.answering import Answering
from mincards.handlers.conversations import Conversations
from mincards.handlers.dedupe import dedupe_middleware
from mincards.handlers.identity import single_workspace
from mincards.handlers.inflight import InFlight
from mincards.handlers.loop_lag import start_watching
from mincards.handlers.observe import observe_middleware
from mincards.handlers.preferences_store import PreferenceStore
from mincards.handlers.replies import (
    TIMEOUT_SECONDS,
    CountingWebClient,
    ResponseUrls,
    SlackUnreachable,
    http_session,
    retry_handlers,
)
from mincards.handlers.services import Services
from mincards.handlers.settings import Settings
from mincards.handlers.state import State, make_state

# `actions` last: after the buttons, menus and views the others handle, it acknowledges the rest.
SURFACES = (mentions, direct_messages, commands, shortcuts, home, preference_menus, installs,
            unfurls, assistant, workflow_step, actions)
log = logging.getLogger(__name__)


def _kind(body: Any) -> str:
    """What a request was, for a log line, whatever shape its body has."""
    if not isinstance(body, dict):
        return "request"
    event = body.get("event")
    inner = event.get("type") if isinstance(event, dict) else None
    kind = body.get("type") or body.get("command") or "request"
    return f"{kind} {inner}" if isinstance(inner, str) else str(kind)[:40]


class _SameToken(logging.Filter):
    """Bolt warns that SLACK_BOT_TOKEN is "unused" or "ignored" when a client or an authorize
    is given; both carry that very token, so the warning would only mislead whoever reads the
    log."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return "`token` will be unused" not in message and "will be ignored" not in message


BOLT_LOG = logging.getLogger("mincards.bolt")
BOLT_LOG.addFilter(_SameToken())


def preference_store(settings: Settings) -> PreferenceStore | None:
    """Preferences in the database; None (everyone gets the defaults) when it cannot be
    opened, which start-up has already said (serve.check_database)."""
    from mincards.handlers.database import DatabaseError, Pool, database_url, make_engine

    try:
        url = database_url(settings.database_url.get_secret_value() if settings.database_url
                           else None)
        return PreferenceStore(make_engine(url, Pool(settings.database_pool_size,
                                                     settings.database_max_overflow,
                                                     settings.database_pool_timeout)))
    except (DatabaseError, OSError) as exc:
        log.warning("no preferences this run: %s", exc)
        return None


def create_app(settings: Settings, engine: Engine | None = None, mode: str = "auto",
               state: State | None = None, inflight: InFlight | None = None,
               signatures_checked: bool = False) -> tuple[AsyncApp, Services]:
    """The Bolt app and what its listeners share. `signatures_checked`: every request reaches
    it through handlers/web.py, which has verified its signature (and refused it otherwise),
    so Bolt does not verify it a second time."""
    engine = engine or Engine()
    state = state or make_state(settings.redis)
    socket = settings.mode(mode) == "socket"
    session = http_session()  # needs the running loop: create_app is called inside it
    token = settings.slack_bot_token.get_secret_value() if settings.slack_bot_token else None
    client = CountingWebClient(token=token, base_url=settings.slack_api_url,
                               timeout=TIMEOUT_SECONDS, session=session,
                               retry_handlers=retry_handlers())
    secret = settings.slack_signing_secret
    store = preference_store(settings)
    # One bot token: who it is was asked once at start (handlers.identity), never per request.
    authorize = (single_workspace(token, client) if token is not None and not settings.oauth
                 else None)
    app = AsyncApp(client=client, authorize=authorize,
                   signing_secret=secret.get_secret_value() if secret else "",
                   # Socket Mode messages are not signed; HTTP requests always are checked,
                   # once: by handlers/web.py when it fronts the app, else by Bolt.
                   request_verification_enabled=not (socket or signatures_checked),
                   oauth_settings=installs.oauth_settings(settings, store, sorted({
                       scope for surface in SURFACES for scope in getattr(surface, "SCOPES", ())
                   }), client) if settings.oauth else None,
                   logger=BOLT_LOG)
    metrics.prepare()  # in each worker, after the fork
    tracing.start()  # likewise: the SDK's exporter thread would not survive a fork
    # Everything made so far (the facts, the engine's indexes, the libraries) lives as long as
    # the process: out of the collector's sight, a full collection no longer walks it while
    # requests wait.
    gc.freeze()
    app.use(observe_middleware(time_acks=socket))
    app.use(dedupe_middleware(state))
    services = Services(engine, Conversations(engine, state, Answering()),
                        inflight or InFlight(settings.drain_seconds), session,
                        response_urls=ResponseUrls.for_api(settings.slack_api_url),
                        preferences=store, lag_watch=start_watching(),
                        agent_view=settings.agent_view)
    for surface in SURFACES:
        surface.register(app, services)

    @app.event(re.compile(r".*"))
    async def ignore_other_events(event: dict[str, Any]) -> None:
        # Registered last: any event no surface answers is acknowledged quietly, so that Slack
        # does not redeliver it or count it against the app.
        log.debug("no listener for event %.40s", event.get("type"))

    @app.error
    async def on_error(error: Exception, body: Any) -> None:
        if isinstance(error, SlackApiError):
            response = error.response
            log.error("Slack refused %s while handling %s: %s (HTTP %s)",
                      getattr(response, "api_url", "a call"), _kind(body),
                      response.get("error") if hasattr(response, "get") else "?",
                      getattr(response, "status_code", "?"))
            return
        if isinstance(error, SlackUnreachable):
            log.error("while handling %s: %s", _kind(body), error)
            return
        log.error("failed to handle %s: %s: %s", _kind(body), type(error).__name__, error)
        log.debug("the failure in full", exc_info=error)

    return app, services
