"""What every Slack surface is given: the answer engine, the conversations, the in-flight count."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import aiohttp

from mincards.bot.answering.answer import Answer
from mincards.bot.answering.engine import Engine
from mincards.bot.answering.preferences import Preferences
from mincards.bot.language import Language
from mincards.bot.replies.render_blocks import message
from mincards.handlers import metrics
from mincards.handlers.answering import Answering
from mincards.handlers.conversations import Conversations
from mincards.handlers.estimates import with_hub_estimate
from mincards.handlers.inflight import InFlight
from mincards.handlers.people import Locales
from mincards.handlers.preferences_store import PreferenceStore
from mincards.handlers.replies import ResponseUrls, post_to_response_url

log = logging.getLogger(__name__)


def _host(url: str) -> str:
    try:
        return urlsplit(url).hostname or "no host"
    except ValueError:
        return "not a URL"


def workspace_of(context: Any) -> str | None:
    """The workspace a request is answered for: the one its token was authorized for (Slack's
    own word, from auth.test or the installation), never just the id the payload names; else
    the payload's team or enterprise."""
    result = getattr(context, "authorize_result", None)
    for team in (getattr(result, "team_id", None), getattr(result, "enterprise_id", None),
                 getattr(context, "team_id", None), getattr(context, "enterprise_id", None)):
        if isinstance(team, str) and team:
            return team
    return None


@dataclass(frozen=True)
class Services:
    engine: Engine
    conversations: Conversations
    inflight: InFlight
    session: aiohttp.ClientSession  # the process's connections to Slack
    locales: Locales = field(default_factory=Locales)  # people's languages, from users.info
    response_urls: ResponseUrls = field(default_factory=ResponseUrls)  # where replies may go
    # People's and workspaces' preferences (handlers/preferences_store.py); None: none kept.
    preferences: PreferenceStore | None = None
    # The watch on this process's event loop (handlers/loop_lag.py), cancelled at close.
    lag_watch: asyncio.Task[None] | None = None
    # Slack's agent messaging experience (Settings.agent_view): DMs answered in their thread.
    agent_view: bool = False

    async def preferences_of(self, context: Any, user: object) -> Preferences | None:
        """The asking person's preferences over their workspace's, by the workspace the
        signed request came from; None when nothing is kept or nothing is set."""
        if self.preferences is None:
            return None
        team = workspace_of(context)
        if team is None or not isinstance(user, str):
            return None
        chosen = await self.preferences.effective(team, user)
        return chosen if chosen != Preferences() else None

    async def language_for(self, client: Any, context: Any, user: str | None) -> Language:
        """The language of a surface without a question to read it from (Home, a form, a
        modal): the person's setting, else their Slack locale."""
        if not user:
            return "en"
        chosen = await self.preferences_of(context, user)
        if chosen is not None and chosen.language != "auto":
            return chosen.language
        return await self.locales.language(client, user)

    @property
    def answering(self) -> Answering:
        """Where the core's work runs: off the event loop (handlers.answering)."""
        return self.conversations.answering

    async def reply_to(self, answer: Answer, question: str,
                       chosen: Preferences | None) -> dict[str, Any]:
        """A conversation's reply (a mention's, a DM's): the answer, with the Hub's estimate
        when it names a Hub model the table lacks, rendered (short when the asker's settings
        say so)."""
        answer = await with_hub_estimate(self.engine, answer, question)
        short = chosen is not None and chosen.length == "short"
        return await self.answering.render(
            answer, (question, short),
            lambda: message(self.engine.knowledge, answer, question=question, short=short),
            question)

    async def respond(self, url: str, payload: dict[str, Any]) -> bool | None:
        """Post to an interaction's response URL over the shared connections: only a URL of
        Slack's (a request can name any URL as its response_url); another is refused,
        counted and logged by its host alone."""
        if not self.response_urls.allows(url):
            metrics.slack_call("response_url", "refused")
            log.warning("refused a response_url outside Slack's hosts (%.80s)",
                        _host(url))
            return False
        return await post_to_response_url(url, payload, self.session)

    async def close(self) -> None:
        if self.lag_watch is not None:
            self.lag_watch.cancel()
        await self.conversations.state.close()
        if self.preferences is not None:
            await self.preferences.engine.dispose()
        await self.session.close()
        self.answering.close()
