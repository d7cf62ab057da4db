"""`mincards serve`: Socket Mode when SLACK_APP_TOKEN is set, else HTTP mode under gunicorn.

Both run the Bolt app on asyncio. HTTP mode: gunicorn keeps WEB_CONCURRENCY worker processes,
each an aiohttp server (gunicorn's aiohttp worker). On SIGTERM, in both modes, no new request is
taken, the replies already acknowledged are finished (bounded), and then the process exits.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any

from mincards.bot.answering.engine import Engine
from mincards.handlers.inflight import DRAIN_SECONDS
from mincards.handlers.logs import configure_logging
from mincards.handlers.settings import Settings, SettingsError, load_settings

log = logging.getLogger(__name__)


def _http(settings: Settings, engine: Engine) -> int:
    from gunicorn.app.base import BaseApplication

    from mincards.handlers.app import create_app
    from mincards.handlers.web import create_web_app, runner

    secret = settings.slack_signing_secret
    assert secret is not None  # settings.mode("http") guarantees it

    async def make_runner() -> Any:
        # Built in each worker after the fork: its own Bolt app, Slack client and state.
        bolt, services = create_app(settings, engine, mode="http")
        web_app = create_web_app(bolt, secret.get_secret_value(), services,
                                 body_seconds=settings.request_timeout)
        return runner(web_app, settings.request_timeout, settings.max_connections)

    class Server(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", f"{settings.host}:{settings.port}")
            self.cfg.set("workers", settings.web_concurrency)
            self.cfg.set("worker_class", "aiohttp.GunicornWebWorker")
            # The worker's loop checks in with the master well within this.
            self.cfg.set("timeout", 30)
            # Acknowledged replies are finished (DRAIN_SECONDS) before a worker exits.
            self.cfg.set("graceful_timeout", int(DRAIN_SECONDS) + 10)
            self.cfg.set("loglevel", settings.log_level.lower())
            self.cfg.set("accesslog", None)
            # gunicorn's runtime control socket (in $HOME) is not used here.
            self.cfg.set("control_socket_disable", True)

        def load(self) -> Any:
            return make_runner

    log.info("HTTP mode on %s:%s (POST /slack/events, GET /healthz), %d worker(s)",
             settings.host, settings.port, settings.web_concurrency)
    if settings.web_concurrency > 1 and not settings.redis:
        # Heroku's buildpack sets WEB_CONCURRENCY by itself: say what that costs.
        log.warning("WEB_CONCURRENCY=%d without REDIS_URL: each worker remembers only its own "
                    "events and conversations, so a retry landing on another worker may be "
                    "answered twice and a follow-up may start afresh (set REDIS_URL)",
                    settings.web_concurrency)
    Server().run()
    return 0


async def _socket_mode(settings: Settings, engine: Engine) -> None:
    from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

    from mincards.handlers.app import create_app

    bolt, services = create_app(settings, engine, mode="socket")
    token = settings.slack_app_token
    assert token is not None  # socket_mode implies it
    handler = AsyncSocketModeHandler(bolt, token.get_secret_value())
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await handler.connect_async()
    log.info("Socket Mode: connected")
    await stop.wait()
    log.info("stopping: no new events; finishing %d acknowledged", len(services.inflight))
    # Closing the connection first: Slack sends new events to another open connection.
    await handler.close_async()
    await services.inflight.drain()
    await services.close()


def _socket(settings: Settings, engine: Engine) -> int:
    asyncio.run(_socket_mode(settings, engine))
    return 0


def check_token(settings: Settings) -> None:
    """Ask Slack once, before anything listens, whether it takes the bot token."""
    from slack_sdk import WebClient
    from slack_sdk.errors import SlackApiError

    from mincards.handlers.replies import TIMEOUT_SECONDS

    client = WebClient(token=settings.slack_bot_token.get_secret_value(),
                       base_url=settings.slack_api_url, timeout=TIMEOUT_SECONDS)
    try:
        identity = client.auth_test()
    except SlackApiError as exc:
        raise SettingsError(f"Slack refused SLACK_BOT_TOKEN: {exc.response.get('error')}") from None
    except OSError as exc:
        raise SettingsError(f"cannot reach Slack at SLACK_API_URL "
                            f"({settings.slack_api_url}): {exc}") from None
    log.info("connected to Slack as %s in team %s", identity.get("user"), identity.get("team"))


def serve(requested: str = "auto") -> int:
    settings = load_settings()
    mode = settings.mode(requested)
    configure_logging(settings.log_level, settings.secrets())
    engine = Engine()  # loads and checks the data before anything listens
    check_token(settings)
    return _socket(settings, engine) if mode == "socket" else _http(settings, engine)
