"""Replies still being worked on after Slack was told "got it": a shutdown waits for them.

Slack never sends an acknowledged event again, so a process that exits with replies in flight
loses them for good. Every listener runs inside `InFlight.track`; on SIGTERM the server stops
taking requests, then `drain` waits (bounded) for what was already acknowledged.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar

from mincards.handlers import metrics

log = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")
# How long a shutdown waits for acknowledged replies, by default (DRAIN_SECONDS): inside the
# 10 s Docker gives a stopping container before it kills it (Kubernetes gives 30 s), with
# room for the rest of the shutdown.
DRAIN_SECONDS = 8.0


class InFlight:
    def __init__(self, drain_seconds: float = DRAIN_SECONDS) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self.drain_seconds = drain_seconds

    def __len__(self) -> int:
        return len(self._tasks)

    def track(self, listener: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
        """The listener, counted while it runs. functools.wraps keeps its signature: Bolt
        passes arguments by the names the listener asks for."""

        @functools.wraps(listener)
        async def tracked(*args: P.args, **kwargs: P.kwargs) -> R:
            task = asyncio.current_task()
            if task is not None:
                self._tasks.add(task)
            started = time.monotonic()
            try:
                return await listener(*args, **kwargs)
            finally:
                metrics.reply_seconds(time.monotonic() - started)
                if task is not None:
                    self._tasks.discard(task)

        return tracked

    async def drain(self, timeout: float | None = None) -> int:
        """Wait for the replies in flight (at most `timeout`, else the drain seconds); returns
        how many were still unfinished."""
        timeout = self.drain_seconds if timeout is None else timeout
        await asyncio.sleep(0)  # listeners scheduled by the last acks start first
        started = time.monotonic()
        pending = {t for t in self._tasks if not t.done()}
        if pending:
            log.info("finishing %d acknowledged request(s) before exiting", len(pending))
            _, pending = await asyncio.wait(pending, timeout=timeout)
        if pending:
            log.warning("%d request(s) still unfinished after %.0f s; exiting anyway",
                        len(pending), time.monotonic() - started)
        return len(pending)
