"""A person's language, from their Slack locale (users.info with include_locale).

Kept per process for an hour: a locale rarely changes, and a modal must open within the three
seconds its trigger lives. A slow or failing lookup answers in English rather than not at all.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict

from slack_sdk.web.async_client import AsyncWebClient

from mincards.bot.language import Language

SCOPES = ("users:read",)
KEEP_SECONDS = 3600
MAX_PEOPLE = 10_000
# users.info waits at most this long; a trigger_id expires three seconds after the click.
LOOKUP_SECONDS = 1.0
log = logging.getLogger(__name__)


def language_of_locale(locale: object) -> Language:
    """'zh-CN', 'zh-TW' -> zh; anything else (or nothing) -> en."""
    return "zh" if isinstance(locale, str) and locale.lower().startswith("zh") else "en"


def is_admin_of(person: object) -> bool:
    """Whether users.info's person is an admin or owner of the workspace."""
    return isinstance(person, dict) and any(
        person.get(flag) is True for flag in ("is_admin", "is_owner", "is_primary_owner"))


class Locales:
    def __init__(self, keep_seconds: float = KEEP_SECONDS, max_people: int = MAX_PEOPLE) -> None:
        self.keep_seconds = keep_seconds
        self.max_people = max_people
        self._known: OrderedDict[str, tuple[float, Language]] = OrderedDict()
        # Whether each person looked up is a workspace admin or owner, from the same answer:
        # what their Settings section shows (a change is checked afresh, handlers.preference_
        # menus.is_admin).
        self.admins: dict[str, bool] = {}

    async def language(self, client: AsyncWebClient, user: str) -> Language:
        known = self._known.get(user)
        if known and known[0] > time.monotonic() - self.keep_seconds:
            return known[1]
        try:
            response = await asyncio.wait_for(
                client.users_info(user=user, include_locale=True), LOOKUP_SECONDS)
        except Exception as exc:  # slow, refused or missing scope: English, and say why
            log.warning("users.info failed (%s); answering in English", type(exc).__name__)
            return "en"
        person = response.get("user")
        language = language_of_locale(person.get("locale") if isinstance(person, dict) else None)
        self.admins[user] = is_admin_of(person)
        self._known[user] = (time.monotonic(), language)
        self._known.move_to_end(user)
        while len(self._known) > self.max_people:
            gone, _ = self._known.popitem(last=False)
            self.admins.pop(gone, None)
        return language
