"""`mincards serve`: Socket Mode when SLACK_APP_TOKEN is set, else HTTP mode under gunicorn.

Both run the Bolt app on asyncio. HTTP mode: gunicorn keeps WEB_CONCURRENCY worker processes,
each an aiohttp server (gunicorn's aiohttp worker). On SIGTERM, in both modes, no new request is
taken, the replies already acknowledged are finished (bounded), and then the process exits.
SIGHUP: in Socket Mode the same drain and exit (before, it killed the process at once); in HTTP
mode gunicorn's own reload, which starts new workers and lets the old ones finish theirs.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import shutil
import signal
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from http.client import HTTPException
from pathlib import Path
from typing import IO, Any

from mincards.bot.answering.engine import Engine
from mincards.bot.errors import MincardsError
from mincards.handlers.bounded import within
from mincards.handlers.logs import configure_logging
from mincards.handlers.settings import Settings, SettingsError, export_process_env, load_settings

log = logging.getLogger(__name__)


def _http(settings: Settings, engine: Engine) -> int:
    from gunicorn.app.base import BaseApplication
    from gunicorn.glogging import Logger

    from mincards.handlers.app import create_app
    from mincards.handlers.connections import Room, connection_bound, raise_file_limit
    from mincards.handlers.logs import NOTICES
    from mincards.handlers.web import create_web_app, runner

    secret = settings.slack_signing_secret
    assert secret is not None  # settings.mode("http") guarantees it
    bound = connection_bound(settings.max_connections, raise_file_limit())

    async def make_runner() -> Any:
        # Built in each worker after the fork: its own Bolt app, Slack client and state.
        bolt, services = create_app(settings, engine, mode="http", signatures_checked=True)
        room = Room(bound, NOTICES, settings.header_timeout)
        web_app = create_web_app(bolt, secret.get_secret_value(), services,
                                 body_seconds=settings.request_timeout, room=room)
        return runner(web_app, room)

    class SameLog(Logger):
        """gunicorn's own lines through the bot's handler: one format (text or JSON), and
        the same scrubbing of secrets."""

        def setup(self, cfg: Any) -> None:
            super().setup(cfg)
            self.error_log.handlers[:] = logging.getLogger().handlers

    class Server(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", f"{settings.host}:{settings.port}")
            self.cfg.set("workers", settings.web_concurrency)
            self.cfg.set("worker_class", "aiohttp.GunicornWebWorker")
            # The worker's loop checks in with the master well within this.
            self.cfg.set("timeout", 30)
            # Acknowledged replies are finished (DRAIN_SECONDS) before a worker exits; gunicorn
            # kills a worker one second after, still inside the platform's grace period.
            self.cfg.set("graceful_timeout", math.ceil(settings.drain_seconds) + 1)
            self.cfg.set("loglevel", settings.log_level.lower())
            self.cfg.set("accesslog", None)
            self.cfg.set("logger_class", SameLog)
            # gunicorn's runtime control socket (in $HOME) is not used here.
            if "control_socket_disable" in self.cfg.settings:  # gunicorn 25 and later
                self.cfg.set("control_socket_disable", True)
            if settings.metrics_port is not None:
                self.cfg.set("child_exit", _worker_exited)

        def load(self) -> Any:
            return make_runner

    log.info("HTTP mode on %s:%s (POST /slack/events, GET /healthz), %d worker(s), at most %d "
             "connections each", settings.host, settings.port, settings.web_concurrency, bound)
    if settings.web_concurrency > 1 and not settings.redis:
        # Heroku's buildpack sets WEB_CONCURRENCY by itself: say what that costs.
        log.warning("WEB_CONCURRENCY=%d without REDIS_URL: each worker remembers only its own "
                    "events and conversations, so a retry landing on another worker may be "
                    "answered twice and a follow-up may start afresh (set REDIS_URL)",
                    settings.web_concurrency)
    Server().run()
    return 0


def _worker_exited(_server: Any, worker: Any) -> None:
    """gunicorn's master, when a worker is gone: its live gauges no longer count."""
    from mincards.handlers import metrics

    metrics.worker_exited(worker.pid)


async def _socket_mode(settings: Settings, engine: Engine) -> None:
    from mincards.handlers.app import create_app
    from mincards.handlers.socket import GuardedSocketModeHandler

    bolt, services = create_app(settings, engine, mode="socket")
    token = settings.slack_app_token
    assert token is not None  # socket_mode implies it
    handler = GuardedSocketModeHandler(bolt, token.get_secret_value())
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    received: list[str] = []

    def stopping(name: str) -> None:
        received.append(name)
        stop.set()

    # SIGHUP (a closed terminal, a supervisor's "reload") drains as SIGTERM does: nothing
    # acknowledged is dropped; the supervisor starts the new process.
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(sig, stopping, sig.name)
    await handler.connect_async()
    log.info("Socket Mode: connected")
    probes = await _probes(settings, services, handler) if settings.health_port else None
    await stop.wait()
    log.info("stopping on %s: no new events; finishing %d acknowledged",
             received[0] if received else "a signal", len(services.inflight))
    if probes is not None:
        await probes.cleanup()
    # Closing the connection first: Slack sends new events to another open connection.
    await handler.close_async()
    await services.inflight.drain()
    await services.close()


async def _probes(settings: Settings, services: Any, handler: Any) -> Any:
    """Socket Mode's /healthz and /readyz on HEALTH_PORT (a platform's probes)."""
    from aiohttp import web

    from mincards.handlers.readiness import HEALTH_PATH, READY_PATH, add_probes

    app = web.Application()
    add_probes(app.router, services, handler)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, settings.host, settings.health_port).start()
    log.info("probes on %s:%s (GET %s, %s)", settings.host, settings.health_port, HEALTH_PATH,
             READY_PATH)
    return runner


def _socket(settings: Settings, engine: Engine) -> int:
    asyncio.run(_socket_mode(settings, engine))
    return 0


# auth.test at start: tried this many times, each bounded by the Web API timeout (plus a
# little for the thread), so that a start that cannot reach Slack ends in well under a minute.
TOKEN_CHECK_ATTEMPTS = 3


def check_token(settings: Settings) -> None:
    """Ask Slack once, before anything listens, whether it takes the bot token (with OAuth,
    each workspace's token is checked as it installs). A call that is not answered in time is
    asked again on a fresh connection: in CI a start-up call sat on its connection past the
    client's socket timeout (ci86, ci103: the response's headers read, its body never, no call
    seen by the Slack stand-in), and a start must end, one way or the other, in seconds."""
    if settings.slack_bot_token is None:
        return
    from slack_sdk import WebClient
    from slack_sdk.errors import SlackApiError

    from mincards.handlers.replies import TIMEOUT_SECONDS

    token = settings.slack_bot_token.get_secret_value()
    problem = "no answer"
    for attempt in range(1, TOKEN_CHECK_ATTEMPTS + 1):
        client = WebClient(token=token, base_url=settings.slack_api_url, timeout=TIMEOUT_SECONDS)
        try:
            identity = within(client.auth_test, TIMEOUT_SECONDS + 5, "mincards-auth-test")
        except SlackApiError as exc:
            raise SettingsError(
                f"Slack refused SLACK_BOT_TOKEN: {exc.response.get('error')}") from None
        except (OSError, HTTPException, FutureTimeout) as exc:
            # HTTPException: an answer that is no HTTP slack_sdk can read (IncompleteRead, more
            # than 100 headers): a traceback at start once (the floors suite, beside others).
            problem = (f"no answer within {TIMEOUT_SECONDS + 5:g} s"
                       if isinstance(exc, FutureTimeout) else str(exc) or type(exc).__name__)
            log.warning("auth.test at %s, attempt %d of %d: %s", settings.slack_api_url,
                        attempt, TOKEN_CHECK_ATTEMPTS, problem)
            continue
        log.info("connected to Slack as %s in team %s", identity.get("user"),
                 identity.get("team"))
        from mincards.handlers.identity import remember

        remember(identity)  # the workers forked after this need not ask again
        return
    raise SettingsError(f"cannot reach Slack at SLACK_API_URL ({settings.slack_api_url}): "
                        f"{problem}")


def check_redis(settings: Settings) -> None:
    """Ask Redis once, before anything listens: a wrong password or no Redis is one clear line
    now, not a surprise at the first request. REDIS_REQUIRED=true makes it fatal."""
    if not settings.redis:
        return
    from mincards.handlers.state import redis_location, redis_problem

    problem = redis_problem(settings.redis)
    where = redis_location(settings.redis)
    if problem is None:
        log.info("Redis at %s answers", where)
        return
    if settings.redis_required:
        raise SettingsError(f"Redis at {where}: {problem} (REDIS_REQUIRED=true)")
    log.warning("Redis at %s: %s; starting anyway, each process remembering on its own until it "
                "answers (set REDIS_REQUIRED=true to stop here instead)", where, problem)


def check_database(settings: Settings) -> None:
    """Bring the database's schema up to this code's (and, for installation by any workspace,
    make its tables), before anything listens; a database newer than the code, or one that
    cannot be reached, is one line and no start."""
    from mincards.handlers.database import database_url, upgrade_now

    url = database_url(settings.database_url.get_secret_value() if settings.database_url
                       else None)
    also = None
    if settings.oauth:
        from mincards.handlers.installs import cipher_of, reseal

        cipher = cipher_of(settings)

        async def also(engine: Any) -> None:
            rewritten = await reseal(engine, cipher)
            if rewritten:
                log.info("tokens of %d stored installations encrypted with the first of "
                         "SLACK_TOKEN_KEYS", rewritten)
        if settings.slack_state_secret is not None:
            log.warning("SLACK_STATE_SECRET is not used (an install's state lives in the "
                        "database, bound to the browser by a cookie): it can be removed")

    try:
        before, after = upgrade_now(url, also)
    except MincardsError as exc:
        raise SettingsError(str(exc)) from None
    if before != after:
        log.info("database schema brought from version %d to %d", before, after)


@dataclass
class MetricsFolder:
    """The workers' sample files: who made the folder (only that process removes it, at its
    exit: a worker that exits shares the code path out of gunicorn's run, and must not), and
    the lock that keeps a second bot off it."""

    path: Path
    made: bool
    owner: int
    lock: IO[bytes]

    def close(self) -> None:
        if os.getpid() != self.owner:
            return  # a worker leaving: the master and the other workers still count here
        self.lock.close()
        if self.made:
            shutil.rmtree(self.path, ignore_errors=True)


def claim_metrics_folder(settings: Settings, mode: str) -> MetricsFolder | None:
    """The folder of the workers' sample files (HTTP mode, or one the operator names), locked
    against a second bot. Claimed before Slack is asked anything: a refusal here is local and
    must end in a moment, however slow Slack or the machine is."""
    if settings.metrics_port is None:
        return None
    from mincards.handlers import metrics

    named = os.environ.get(metrics.MULTIPROC_ENV)
    # gunicorn's workers are processes of their own: each writes its samples to files that
    # this process (which serves /metrics) adds up. A named folder is prometheus_client's
    # multiprocess mode in Socket Mode too, so it is kept apart from other files there as well.
    if mode != "http" and not named:
        return None
    try:
        path, lock = metrics.enable_multiprocess()
    except metrics.FolderInUse as exc:
        raise SettingsError(f"another running bot counts its metrics in {exc} "
                            f"({metrics.MULTIPROC_ENV}): give this one a folder of its "
                            f"own") from None
    except OSError as exc:
        raise SettingsError(f"cannot use {metrics.MULTIPROC_ENV} for metrics: "
                            f"{exc.strerror or exc}") from None
    return MetricsFolder(path, not named, os.getpid(), lock)


def listen_metrics(settings: Settings) -> None:
    """/metrics on its own listener (METRICS_PORT), never on the port Slack reaches."""
    if settings.metrics_port is None:
        return
    from mincards.handlers import metrics

    try:
        metrics.serve_metrics(settings.metrics_host, settings.metrics_port)
    except OSError as exc:
        raise SettingsError(f"cannot listen for metrics on {settings.metrics_host}:"
                            f"{settings.metrics_port} (METRICS_HOST, METRICS_PORT): "
                            f"{exc.strerror or exc}") from None


def serve(requested: str = "auto") -> int:
    export_process_env()  # before the facts are loaded: MINCARDS_CACHE, MINCARDS_DATA, ...
    settings = load_settings()
    mode = settings.mode(requested)
    configure_logging(settings.log_level, settings.secrets(), settings.log_format)
    engine = Engine()  # loads and checks the data before anything listens
    samples = claim_metrics_folder(settings, mode)
    try:
        check_token(settings)
        check_redis(settings)
        listen_metrics(settings)
        check_database(settings)
        return _socket(settings, engine) if mode == "socket" else _http(settings, engine)
    finally:
        if samples is not None:
            samples.close()
