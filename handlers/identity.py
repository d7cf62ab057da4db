"""Who the bot is in its workspace (auth.test), asked once per process and never while a
request waits: `mincards serve` asks before anything listens (serve.check_token) and each
gunicorn worker, forked after that, inherits the answer. Bolt's own single-workspace
authorization would call auth.test from each worker's first requests, one call per concurrent
request, before acknowledging any of them (past Slack's 3 s when Slack is slow, a 500 when it
times out)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from slack_bolt.authorization import AuthorizeResult
from slack_sdk.web.async_client import AsyncWebClient


@dataclass(frozen=True)
class BotIdentity:
    team_id: str | None
    enterprise_id: str | None
    bot_user_id: str | None
    bot_id: str | None

    @classmethod
    def of(cls, answer: Any) -> BotIdentity:
        """From auth.test's answer (a response or its data)."""
        def text(key: str) -> str | None:
            value = answer.get(key)
            return value if isinstance(value, str) and value else None
        return cls(text("team_id"), text("enterprise_id"), text("user_id"), text("bot_id"))


# Set by `mincards serve` after its check (before gunicorn forks its workers).
KNOWN: BotIdentity | None = None


def remember(answer: Any) -> None:
    global KNOWN
    KNOWN = BotIdentity.of(answer)


def single_workspace(token: str, client: AsyncWebClient
                     ) -> Callable[..., Awaitable[AuthorizeResult]]:
    """Bolt's `authorize` for one bot token: the identity known at start, else one auth.test
    for the whole process (concurrent first requests share it), kept."""
    known: list[BotIdentity | None] = [KNOWN]
    lock = asyncio.Lock()

    async def authorize(**_: Any) -> AuthorizeResult:
        if known[0] is None:
            async with lock:
                if known[0] is None:
                    known[0] = BotIdentity.of(await client.auth_test(token=token))
        identity = known[0]
        assert identity is not None  # set above, or at start
        return AuthorizeResult(enterprise_id=identity.enterprise_id, team_id=identity.team_id,
                               bot_user_id=identity.bot_user_id, bot_id=identity.bot_id,
                               bot_token=token)

    return authorize
