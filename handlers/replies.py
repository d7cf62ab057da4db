"""Sending replies: a Web API client and response-URL posts, both retrying as slack_sdk intends.

Asynchronous (aiohttp): a reply waiting on a slow Slack holds no thread, so thousands can wait
at once while new requests are acknowledged.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import SplitResult, urlsplit

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse
from slack_sdk.webhook.async_client import AsyncWebhookClient

from mincards.handlers import metrics
from mincards.handlers.tracing import span

# Bounded: a reply that cannot get through after this is logged and dropped, never looped on.
RATE_LIMIT_RETRIES = 3
SERVER_ERROR_RETRIES = 2
CONNECTION_RETRIES = 2
TIMEOUT_SECONDS = 10
# A connection to Slack not made in this long is given up and made afresh (the connection
# retries below): nothing was sent on it, so trying again cannot post twice. Without it, one
# connect that hung (a SYN dropped: Linux tries it again only 1, 3 and 7 s later) spent the
# whole 10 s and lost the reply. Slack's own connect, TLS included, takes well under a second.
CONNECT_SECONDS = 3

log = logging.getLogger(__name__)
# Web API method names as Slack spells them: anything else is not a metrics label.
_METHOD = re.compile(r"[a-z]+(?:\.[a-zA-Z]+){1,3}")


def retry_handlers() -> list[AsyncRetryHandler]:
    """429 waits for Retry-After; 5xx and dropped connections back off; all a bounded number."""
    return [AsyncRateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES),
            AsyncServerErrorRetryHandler(max_retry_count=SERVER_ERROR_RETRIES),
            AsyncConnectionErrorRetryHandler(max_retry_count=CONNECTION_RETRIES)]


# One list for every response-URL post: the handlers hold only their settings (each post's
# retries are counted in a RetryState of its own), so a post need not build them again.
_WEBHOOK_RETRIES = retry_handlers()

# Connections to Slack held open per process; replies beyond this wait for one.
MAX_CONNECTIONS = 512


def http_session() -> aiohttp.ClientSession:
    """One HTTP session per process, for the Web API and response URLs alike: its connections
    are kept alive and reused instead of a new TCP (and TLS) handshake per reply."""
    return aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=MAX_CONNECTIONS),
        # slack_sdk's Web API client uses the session's timeout as it is (its webhook client
        # sets a total of its own per post). A connect past sock_connect is aiohttp's
        # ConnectionTimeoutError, a ServerConnectionError, which the connection retries
        # take again on a new connection. No read bound: a read that timed out may have been
        # taken by Slack, and is never retried.
        timeout=aiohttp.ClientTimeout(total=TIMEOUT_SECONDS, sock_connect=CONNECT_SECONDS))


# Where Slack's response URLs point (docs.slack.dev, "Handling user interaction"): https only.
SLACK_RESPONSE_HOSTS = frozenset({"hooks.slack.com", "hooks.slack-gov.com"})
_SLACK_API_HOSTS = ("slack.com", "slack-gov.com")


# Where Slack serves uploaded files (url_private_download), read with the bot's token.
SLACK_FILE_HOST = "files.slack.com"


@dataclass(frozen=True)
class ResponseUrls:
    """Which response URLs a reply may be posted to: Slack's, and the origin of SLACK_API_URL
    when it points somewhere other than Slack (a local emulator of Slack). A signed request's
    response_url is still a URL someone else wrote: never a way into this network."""

    also: tuple[str, str, int] | None = None  # (scheme, host, port)

    @classmethod
    def for_api(cls, api_url: str) -> ResponseUrls:
        parsed = urlsplit(api_url)
        host = (parsed.hostname or "").lower()
        if host in _SLACK_API_HOSTS or host.endswith(tuple(f".{h}" for h in _SLACK_API_HOSTS)):
            return cls()
        return cls((parsed.scheme, host, _port(parsed)))

    def allows(self, url: str) -> bool:
        try:
            parsed = urlsplit(url)
            origin = (parsed.scheme, (parsed.hostname or "").lower(), _port(parsed))
        except ValueError:  # a port that is not a number, an unclosed [
            return False
        if parsed.username or parsed.password:
            return False
        if origin[0] == "https" and origin[1] in SLACK_RESPONSE_HOSTS and origin[2] == 443:
            return True
        return self.also is not None and origin == self.also


    def allows_file(self, url: str) -> bool:
        """A file's download URL: Slack's file host, or the emulator's origin."""
        try:
            parsed = urlsplit(url)
            origin = (parsed.scheme, (parsed.hostname or "").lower(), _port(parsed))
        except ValueError:
            return False
        if parsed.username or parsed.password:
            return False
        if origin == ("https", SLACK_FILE_HOST, 443):
            return True
        return self.also is not None and origin == self.also


def _port(parsed: SplitResult) -> int:
    return parsed.port or (443 if parsed.scheme == "https" else 80)


def never_sent(exc: BaseException) -> bool:
    """A failure that happened before the request could reach Slack (no connection was
    made); after any other (no answer in time, the connection dropped while waiting) Slack
    may have taken it."""
    return isinstance(exc, aiohttp.ClientConnectorError | aiohttp.ConnectionTimeoutError)


async def post_to_response_url(url: str, payload: dict[str, Any],
                               session: aiohttp.ClientSession | None = None) -> bool | None:
    """POST a reply to an interaction's response URL: True when it landed, False (and
    logged) when it did not, None (logged) when it may have: Slack got the post but its
    answer never came back. A caller with another way to answer takes it only on False,
    or the person would get the answer twice.
    The caller has checked the URL is Slack's (ResponseUrls)."""
    client = AsyncWebhookClient(url=url, timeout=TIMEOUT_SECONDS, session=session,
                                retry_handlers=_WEBHOOK_RETRIES)
    try:
        response = await client.send_dict(payload)
    except Exception as exc:  # a network failure after retries: one line with its cause
        metrics.slack_call("response_url", "unreachable")
        if never_sent(exc):
            log.error("response URL post failed: %s", failure(exc))
            return False
        log.error("response URL post got no answer (%s); it may have landed, so it is not "
                  "sent another way", failure(exc))
        return None
    if response.status_code != 200:
        metrics.slack_call("response_url", f"http_{response.status_code // 100}xx")
        log.error("response URL answered %s: %.200s", response.status_code, response.body)
        return False
    metrics.slack_call("response_url", "ok")
    return True


def failure(exc: BaseException) -> str:
    """A network failure in a few words: its kind, and its message when it has one (a
    timeout has none)."""
    if isinstance(exc, TimeoutError | asyncio.TimeoutError):
        return f"no answer within {TIMEOUT_SECONDS} s"
    detail = str(exc).strip()
    return f"{type(exc).__name__}: {detail[:160]}" if detail else type(exc).__name__


class SlackUnreachable(Exception):
    """A Web API call that got no answer from Slack (after its retries); the message names
    the method and the cause, in one line."""


class CountingWebClient(AsyncWebClient):
    """slack_sdk's client, counting each Web API call by method and outcome (metrics), and
    turning a network failure into one SlackUnreachable that names the method."""

    async def api_call(self, api_method: str, **kwargs: Any) -> AsyncSlackResponse:
        method = api_method if _METHOD.fullmatch(api_method) else "other"
        try:
            with span("slack.api", method=method):
                response = await super().api_call(api_method, **kwargs)
        except SlackApiError as exc:
            error = exc.response.get("error") if hasattr(exc.response, "get") else None
            metrics.slack_call(method, "ratelimited" if error == "ratelimited" else "error")
            raise
        except Exception as exc:
            metrics.slack_call(method, "unreachable")
            raise SlackUnreachable(f"{method} failed: {failure(exc)}") from exc
        metrics.slack_call(method, "ok")
        return response

    @classmethod
    def like(cls, client: AsyncWebClient) -> CountingWebClient:
        """The client Bolt makes for each request, counting: that very client when it is a
        plain AsyncWebClient (this class adds a method and no state, so only its class
        changes, instead of a second client built per request), else a counting copy (it
        shares the session, so the connections to Slack stay pooled)."""
        if type(client) is AsyncWebClient:
            client.__class__ = cls
            return cast(CountingWebClient, client)
        return cls(token=client.token, base_url=client.base_url, timeout=client.timeout,
                   ssl=client.ssl, proxy=client.proxy, session=client.session,
                   trust_env_in_session=client.trust_env_in_session, headers=client.headers,
                   team_id=client.default_params.get("team_id"), logger=client.logger,
                   retry_handlers=client.retry_handlers)
