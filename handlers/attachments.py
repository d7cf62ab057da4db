"""A config.json attached to a DM: downloaded (Slack's file host only, with the bot's token, no
redirects, bounded in time and size) and handed to the engine as a pasted code block."""

from __future__ import annotations

import logging
from typing import Any

import aiohttp

from mincards.bot.estimating.hf_config import MAX_BYTES
from mincards.bot.reading.pasted import FENCE
from mincards.handlers.services import Services

SCOPES = ("files:read",)
TIMEOUT_SECONDS = 10.0
log = logging.getLogger(__name__)


def config_file(event: dict[str, Any]) -> dict[str, Any] | None:
    """The first attached file that is a JSON file (by name or type)."""
    files = event.get("files")
    if not isinstance(files, list):
        return None
    for item in files[:10]:
        if not isinstance(item, dict):
            continue
        name = str(item.get("name") or "").lower()
        if name.endswith(".json") or item.get("filetype") == "json" or str(
                item.get("mimetype") or "").startswith("application/json"):
            return item
    return None


async def attached_config(services: Services, event: dict[str, Any], token: str | None
                          ) -> str | None:
    """The attached config.json's text; None when no JSON file is attached. A file that
    cannot be read raises AttachmentError (its name, and why, in one line)."""
    item = config_file(event)
    if item is None:
        return None
    name = str(item.get("name") or "config.json")[:80]
    size = item.get("size")
    if isinstance(size, int) and size > MAX_BYTES:
        raise AttachmentError(name, f"{name} is over 1 MB; a model's configuration is a few KB")
    url = item.get("url_private_download") or item.get("url_private")
    if not isinstance(url, str) or not services.response_urls.allows_file(url) or not token:
        raise AttachmentError(name, f"{name} is not a file I can read from Slack")
    try:
        async with services.session.get(
                url, headers={"Authorization": f"Bearer {token}"}, allow_redirects=False,
                timeout=aiohttp.ClientTimeout(total=TIMEOUT_SECONDS)) as response:
            if response.status != 200:
                raise AttachmentError(name, f"Slack answered {response.status} for {name}")
            body = await response.content.read(MAX_BYTES + 1)
    except (aiohttp.ClientError, TimeoutError) as exc:
        raise AttachmentError(name, f"could not download {name} ({type(exc).__name__})") from None
    if len(body) > MAX_BYTES:
        raise AttachmentError(name, f"{name} is over 1 MB; a model's configuration is a few KB")
    text = body.decode("utf-8", "replace")
    if FENCE in text:
        raise AttachmentError(name, f"{name} is not a config.json")
    return text


class AttachmentError(Exception):
    def __init__(self, name: str, reason: str) -> None:
        super().__init__(reason)
        self.name = name
        self.reason = reason
