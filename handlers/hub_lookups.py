"""Hub look-ups in flight, bounded: however many questions name Hub models at once (a burst, a
script, a hostile client), at most RUNNING look-ups run, each on a thread of their own pool
(never the default executor other work shares), and at most WAITING more wait; past that a
question is told at once that the Hub is busy rather than queued for minutes. The same model
asked while it is being looked up waits for that look-up: one fetch, every asker answered."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Generic, TypeVar

from mincards.handlers.hub import HubError

RUNNING = 4
WAITING = 28
K = TypeVar("K")
V = TypeVar("V")

_POOL = ThreadPoolExecutor(RUNNING, thread_name_prefix="mincards-hub-lookup")


class Lookups(Generic[K, V]):
    """One event loop's look-ups in flight, by what was asked."""

    def __init__(self, limit: int = RUNNING + WAITING) -> None:
        self.limit = limit
        self.in_flight: dict[K, asyncio.Future[V]] = {}

    async def look_up(self, key: K, work: Callable[[K], V]) -> V | HubError:
        shared = self.in_flight.get(key)
        if shared is None:
            if len(self.in_flight) >= self.limit:
                return HubError(f"Hugging Face is being asked about {len(self.in_flight)} "
                                "models already, so this one was not looked up: ask again "
                                "in a minute")
            shared = asyncio.get_running_loop().run_in_executor(_POOL, work, key)
            self.in_flight[key] = shared
            shared.add_done_callback(lambda _: self.in_flight.pop(key, None))
        # Shielded: an asker that goes away (a cancelled reply) leaves the look-up to the rest.
        return await asyncio.shield(shared)


_BY_LOOP: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Lookups[Any, Any]] = (
    weakref.WeakKeyDictionary())


def lookups() -> Lookups[Any, Any]:
    """The running event loop's look-ups (a future belongs to its loop)."""
    loop = asyncio.get_running_loop()
    found = _BY_LOOP.get(loop)
    if found is None:
        found = _BY_LOOP[loop] = Lookups()
    return found
