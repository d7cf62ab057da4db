"""Sending replies: a Web API client and response-URL posts, both retrying as slack_sdk intends.

Asynchronous (aiohttp): a reply waiting on a slow Slack holds no thread, so thousands can wait
at once while new requests are acknowledged.
"""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.webhook.async_client import AsyncWebhookClient

# Bounded: a reply that cannot get through after this is logged and dropped, never looped on.
RATE_LIMIT_RETRIES = 3
SERVER_ERROR_RETRIES = 2
CONNECTION_RETRIES = 2
TIMEOUT_SECONDS = 10

log = logging.getLogger(__name__)


def retry_handlers() -> list[AsyncRetryHandler]:
    """429 waits for Retry-After; 5xx and dropped connections back off; all a bounded number."""
    return [AsyncRateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES),
            AsyncServerErrorRetryHandler(max_retry_count=SERVER_ERROR_RETRIES),
            AsyncConnectionErrorRetryHandler(max_retry_count=CONNECTION_RETRIES)]


# Connections to Slack held open per process; replies beyond this wait for one.
MAX_CONNECTIONS = 512


def http_session() -> aiohttp.ClientSession:
    """One HTTP session per process, for the Web API and response URLs alike: its connections
    are kept alive and reused instead of a new TCP (and TLS) handshake per reply."""
    return aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=MAX_CONNECTIONS),
        timeout=aiohttp.ClientTimeout(total=TIMEOUT_SECONDS))


async def post_to_response_url(url: str, payload: dict[str, Any],
                               session: aiohttp.ClientSession | None = None) -> bool:
    """POST a reply to an interaction's response URL; False (and logged) if it did not land."""
    client = AsyncWebhookClient(url=url, timeout=TIMEOUT_SECONDS, session=session,
                                retry_handlers=retry_handlers())
    try:
        response = await client.send_dict(payload)
    except Exception:  # a network failure after retries: log it with its cause, keep serving
        log.exception("response URL post failed")
        return False
    if response.status_code != 200:
        log.error("response URL answered %s: %.200s", response.status_code, response.body)
        return False
    return True
