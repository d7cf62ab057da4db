"""What every Slack surface is given: the answer engine, the conversations, the in-flight count."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import aiohttp

from mincards.bot.answering.engine import Engine
from mincards.handlers.answering import Answering
from mincards.handlers.conversations import Conversations
from mincards.handlers.inflight import InFlight
from mincards.handlers.people import Locales
from mincards.handlers.replies import post_to_response_url


@dataclass(frozen=True)
class Services:
    engine: Engine
    conversations: Conversations
    inflight: InFlight
    session: aiohttp.ClientSession  # the process's connections to Slack
    locales: Locales = field(default_factory=Locales)  # people's languages, from users.info

    @property
    def answering(self) -> Answering:
        """Where the core's work runs: off the event loop (handlers.answering)."""
        return self.conversations.answering

    async def respond(self, url: str, payload: dict[str, Any]) -> bool:
        """Post to an interaction's response URL over the shared connections."""
        return await post_to_response_url(url, payload, self.session)

    async def close(self) -> None:
        await self.conversations.state.close()
        await self.session.close()
        self.answering.close()
