"""`mincards serve`: Socket Mode when SLACK_APP_TOKEN is set, else HTTP mode under gunicorn."""

from __future__ import annotations

import logging
from typing import Any

from bot.engine import Engine
from handlers.logs import configure_logging
from handlers.settings import Settings, SettingsError, load_settings

log = logging.getLogger(__name__)


def _http(settings: Settings, engine: Engine) -> int:
    from gunicorn.app.base import BaseApplication

    from handlers.app import create_app
    from handlers.web import create_wsgi

    class Server(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", f"{settings.host}:{settings.port}")
            self.cfg.set("workers", settings.web_concurrency)
            self.cfg.set("worker_class", "gthread")
            self.cfg.set("threads", settings.threads)
            self.cfg.set("timeout", 30)
            self.cfg.set("graceful_timeout", 10)
            self.cfg.set("loglevel", settings.log_level.lower())
            self.cfg.set("accesslog", None)
            # gunicorn's runtime control socket (in $HOME) is not used here.
            self.cfg.set("control_socket_disable", True)

        def load(self) -> Any:
            # Built in each worker after the fork: its own Bolt app, client and thread pool.
            secret = settings.slack_signing_secret
            assert secret is not None  # settings.mode("http") guarantees it
            return create_wsgi(create_app(settings, engine, mode="http"),
                               secret.get_secret_value())

    log.info("HTTP mode on %s:%s (POST /slack/events, GET /healthz)", settings.host,
             settings.port)
    Server().run()
    return 0


def _socket(settings: Settings, engine: Engine) -> int:
    from slack_bolt.adapter.socket_mode import SocketModeHandler

    from handlers.app import create_app

    app = create_app(settings, engine, mode="socket")
    token = settings.slack_app_token
    assert token is not None  # socket_mode implies it
    log.info("Socket Mode")
    SocketModeHandler(app, token.get_secret_value()).start()
    return 0


def check_token(settings: Settings) -> None:
    """Ask Slack once, before anything listens, whether it takes the bot token."""
    from slack_sdk import WebClient
    from slack_sdk.errors import SlackApiError

    from handlers.replies import TIMEOUT_SECONDS, retry_handlers

    client = WebClient(token=settings.slack_bot_token.get_secret_value(),
                       base_url=settings.slack_api_url, timeout=TIMEOUT_SECONDS,
                       retry_handlers=retry_handlers())
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
