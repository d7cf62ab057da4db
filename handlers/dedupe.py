"""Each Events API event answered once: Slack redelivers (X-Slack-Retry-Num) or doubles them.

The ids are kept by the bot's State: this process's memory, or Redis shared by every process.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from slack_bolt import BoltResponse

if TYPE_CHECKING:
    from handlers.state import State

log = logging.getLogger(__name__)
# Slack retries a delivery three times within about five minutes; keep ids well past that.
KEEP_SECONDS = 15 * 60
MAX_IDS = 50_000


class SeenEvents:
    """A bounded, expiring set of event ids; thread-safe."""

    def __init__(self, keep_seconds: float = KEEP_SECONDS, max_ids: int = MAX_IDS) -> None:
        self.keep = keep_seconds
        self.max = max_ids
        self._seen: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def first_time(self, event_id: str) -> bool:
        """True the first time an id is offered (and remembers it); False after."""
        now = time.monotonic()
        with self._lock:
            while self._seen and (next(iter(self._seen.values())) < now - self.keep
                                  or len(self._seen) >= self.max):
                self._seen.popitem(last=False)
            if event_id in self._seen:
                return False
            self._seen[event_id] = now
            return True


def dedupe_middleware(state: State) -> Callable[..., Awaitable[Any]]:
    """Bolt middleware: an event id seen before (here, or in Redis by any process) gets a
    quiet 200 and no second answer."""

    async def skip_repeated_events(body: dict[str, Any],
                                   next: Callable[[], Awaitable[Any]]) -> Any:
        event_id = body.get("event_id")
        if (body.get("type") == "event_callback" and isinstance(event_id, str) and event_id
                and not await state.first_time(event_id)):
            log.info("event %.40s delivered again; already answered", event_id)
            return BoltResponse(status=200, body="")
        return await next()

    return skip_repeated_events
