"""Readiness (GET /readyz): whether this process can do its work now, not only whether it runs
(/healthz). Each dependency it is configured with is asked, each within a short deadline: the
database its settings live in (SELECT 1), Redis (PING) and, in Socket Mode, its connection to
Slack. Ready when every one answers; otherwise 503 with the ones that did not, one line each,
so that a platform stops sending work to it (and its probes say why) until they come back.

Answering never waits on these checks: they run only when /readyz is asked."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from mincards.handlers import metrics

HEALTH_PATH = "/healthz"
READY_PATH = "/readyz"
# Each check's deadline: a probe that hangs is a dependency that is not there.
CHECK_SECONDS = 2.0


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str = ""


async def _bounded(name: str, work: Any) -> Check:
    try:
        await asyncio.wait_for(work, CHECK_SECONDS)
    except TimeoutError:
        return Check(name, False, f"no answer within {CHECK_SECONDS:g} s")
    except Exception as exc:  # any failure of a dependency is "not ready"
        return Check(name, False, type(exc).__name__)
    return Check(name, True)


async def _database(store: Any) -> Check:
    from sqlalchemy import text

    async def select_one() -> None:
        async with store.engine.connect() as connection:
            await connection.execute(text("SELECT 1"))

    return await _bounded("database", select_one())


async def _redis(state: Any) -> Check:
    return await _bounded("redis", asyncio.to_thread(state.redis.ping))


async def _slack(socket: Any) -> Check:
    async def connected() -> None:
        if not await socket.client.is_connected():
            raise ConnectionError("Socket Mode is not connected")

    return await _bounded("slack", connected())


async def readiness(services: Any, socket: Any = None) -> list[Check]:
    """Every configured dependency, asked at once."""
    asked = []
    if services.preferences is not None:
        asked.append(_database(services.preferences))
    if hasattr(services.conversations.state, "redis"):
        asked.append(_redis(services.conversations.state))
    if socket is not None:
        asked.append(_slack(socket))
    checks = list(await asyncio.gather(*asked))
    for check in checks:
        metrics.ready(check.name, check.ok)
    return checks


def report(checks: list[Check]) -> tuple[int, str]:
    """(status, body): 200 "ready" and each check, or 503 naming what is not."""
    lines = [f"{c.name} ok" if c.ok else f"{c.name} down: {c.detail}" for c in checks]
    ready = all(c.ok for c in checks)
    return (200 if ready else 503), "\n".join(["ready" if ready else "not ready", *lines])


def add_probes(router: Any, services: Any, socket: Any = None) -> None:
    """GET /healthz (alive) and /readyz on an aiohttp router: HTTP mode's own app, and Socket
    Mode's listener on HEALTH_PORT."""
    from aiohttp import web

    async def health(_: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def ready(_: web.Request) -> web.Response:
        status, body = report(await readiness(services, socket))
        return web.Response(status=status, text=body + "\n")

    router.add_get(HEALTH_PATH, health)
    router.add_get(READY_PATH, ready)
