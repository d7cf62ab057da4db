"""Socket Mode through Bolt's aiohttp adapter, guarded against envelopes Slack never sends.

slack_sdk parses each message with json.loads and hands Bolt whatever "payload" holds: text
that is not JSON, nested past the parser's depth, or a payload that is not an object ends in a
logged traceback and, worse, no acknowledgement, so Slack would send the envelope again. Here
every envelope with an id is acknowledged, whatever it holds, and what cannot be read is
counted and noted once a minute (handlers.logs.Notices).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from dataclasses import dataclass, field
from typing import Any

from slack_bolt.adapter.socket_mode.async_base_handler import AsyncBaseSocketModeHandler
from slack_bolt.adapter.socket_mode.async_internals import (
    run_async_bolt_app,
    send_async_response,
)
from slack_bolt.app.async_app import AsyncApp
from slack_sdk.socket_mode.aiohttp import SocketModeClient
from slack_sdk.socket_mode.async_client import AsyncBaseSocketModeClient
from slack_sdk.socket_mode.request import SocketModeRequest
from slack_sdk.socket_mode.response import SocketModeResponse

from mincards.bot import shallow_json
from mincards.handlers import metrics
from mincards.handlers.logs import NOTICES
from mincards.handlers.web import Ignore, check_command, check_event, check_interaction

# Slack's envelope kinds that carry a request for the app (others: hello, disconnect), each
# with the check HTTP mode gives the same request.
CHECKS = {"events_api": check_event, "slash_commands": check_command,
          "interactive": check_interaction}
REQUESTS = tuple(CHECKS)


def _message(raw: str) -> dict[str, Any] | None:
    try:
        value = shallow_json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


# A reconnect waits longer each time Slack closes a new connection at once: from BASE seconds,
# doubling to CAP, each with jitter (half to all of it), so many bots do not come back in step.
# A connection that lived STABLE seconds resets the count: the next drop reconnects at once.
BACKOFF_BASE_SECONDS = 0.5
BACKOFF_CAP_SECONDS = 60.0
STABLE_SECONDS = 30.0
# slack_sdk logs every reconnect at INFO, three lines each: counted here, said once a minute.
_RECONNECT_LINES = ("Received CLOSE event", "A new session (", "The old session (",
                    "Reconnecting...", "seems to be stale")


@dataclass
class Backoff:
    base: float = BACKOFF_BASE_SECONDS
    cap: float = BACKOFF_CAP_SECONDS
    stable: float = STABLE_SECONDS
    failures: int = 0
    connected_at: float | None = None
    rng: random.Random = field(default_factory=random.Random)

    def wait(self, now: float) -> float:
        """Seconds to wait before this reconnect: none after a connection that lived, else
        growing with jitter."""
        if self.connected_at is not None and now - self.connected_at >= self.stable:
            self.failures = 0
        self.failures += 1
        if self.failures == 1:
            return 0.0
        ceiling = min(self.cap, self.base * 2 ** (self.failures - 2))
        return self.rng.uniform(ceiling / 2, ceiling)


class _QuietReconnects(logging.Filter):
    """slack_sdk's per-reconnect INFO lines become one counted line a minute."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO:
            return True
        text = record.getMessage()
        if any(line in text for line in _RECONNECT_LINES):
            NOTICES.note("socket_reconnect", "Socket Mode reconnected to Slack")
            return False
        return True


SOCKET_LOG = logging.getLogger("mincards.socket")
SOCKET_LOG.addFilter(_QuietReconnects())


class GuardedSocketModeClient(SocketModeClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.running: set[asyncio.Future[None]] = set()
        self.backoff = Backoff()

    async def connect_to_new_endpoint(self, force: bool = False) -> None:
        """slack_sdk's reconnect, after a growing, jittered wait when Slack keeps closing new
        connections (it asked for a new URL 22 times a second before)."""
        wait = self.backoff.wait(time.monotonic())
        if wait and not self.closed:
            await asyncio.sleep(wait)
        if self.closed:
            return
        await super().connect_to_new_endpoint(force)
        self.backoff.connected_at = time.monotonic()

    async def process_message(self) -> None:
        raw = await self.message_queue.get()
        if raw is None:
            return
        message = _message(raw)
        if message is None:
            metrics.request("socket", "malformed")
            NOTICES.note("malformed", "ignored a Socket Mode message that is not a JSON object")
            return
        envelope_id = message.get("envelope_id")
        if isinstance(envelope_id, str) and envelope_id and (
                message.get("type") not in REQUESTS or not isinstance(message.get("payload"),
                                                                       dict)):
            # Acknowledged all the same: Slack would otherwise deliver it again and again.
            metrics.request("socket", "malformed")
            NOTICES.note("malformed", "acknowledged a Socket Mode envelope this bot cannot read "
                         "(type %.30s)", message.get("type"))
            await self.send_socket_mode_response(SocketModeResponse(envelope_id=envelope_id))
            return
        task = asyncio.ensure_future(self.run_message_listeners(message, raw))
        self.running.add(task)  # held, so that it is not collected half-way
        task.add_done_callback(self.running.discard)


class GuardedSocketModeHandler(AsyncBaseSocketModeHandler):
    """Bolt's AsyncSocketModeHandler, with the guarded client, and an acknowledgement even for
    a payload Bolt cannot read."""

    def __init__(self, app: AsyncApp, app_token: str) -> None:
        self.app = app
        self.bolt = app
        self.app_token = app_token
        self.client = GuardedSocketModeClient(app_token=app_token, logger=SOCKET_LOG,
                                              web_client=app.client)
        self.client.socket_mode_request_listeners.append(self.handle)

    async def handle(self, client: AsyncBaseSocketModeClient, req: SocketModeRequest) -> None:
        start = time.time()
        try:
            CHECKS[req.type](req.payload)
        except Ignore:
            await client.send_socket_mode_response(SocketModeResponse(envelope_id=req.envelope_id))
            return
        except (ValueError, KeyError) as problem:
            metrics.request("socket", "malformed")
            NOTICES.note("malformed", "acknowledged a Socket Mode request this bot cannot read: "
                         "%s", problem)
            await client.send_socket_mode_response(SocketModeResponse(envelope_id=req.envelope_id))
            return
        try:
            response = await run_async_bolt_app(self.bolt, req)
        except Exception as exc:
            metrics.request("socket", "malformed")
            NOTICES.note("malformed", "acknowledged a Socket Mode request Bolt could not read "
                         "(%s)", type(exc).__name__)
            await client.send_socket_mode_response(SocketModeResponse(envelope_id=req.envelope_id))
            return
        if response.status != 200:
            # No listener (404) or a shape Bolt refused: acknowledged quietly all the same, as
            # HTTP mode answers a quiet 200, so Slack does not deliver it again.
            await client.send_socket_mode_response(SocketModeResponse(envelope_id=req.envelope_id))
            return
        await send_async_response(client, req, response, start)
