"""Each Events API event answered once: Slack redelivers (X-Slack-Retry-Num) or doubles them.

Per process: a second process behind a load balancer keeps its own memory (see README).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from slack_bolt import BoltResponse

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


def dedupe_middleware(seen: SeenEvents) -> Callable[..., Any]:
    def skip_repeated_events(body: dict[str, Any], next: Callable[[], None]) -> Any:
        event_id = body.get("event_id")
        if (body.get("type") == "event_callback" and isinstance(event_id, str) and event_id
                and not seen.first_time(event_id)):
            log.info("event %.40s delivered again; already answered", event_id)
            return BoltResponse(status=200, body="")
        return next()

    return skip_repeated_events
