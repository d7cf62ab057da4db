"""A config.json attached to a DM: downloaded (Slack's file host only, with the bot's token, no
redirects, bounded in time and size) and handed to the engine as a pasted code block."""

from __future__ import annotations

import logging
from typing import Any

import aiohttp

from mincards.bot.reading.pasted import FENCE, MAX_PASTED
from mincards.handlers.services import Services

SCOPES = ("files:read",)
TIMEOUT_SECONDS = 10.0
# An attached file is read as if pasted, and a pasted config is looked for in the first
# MAX_PASTED characters of a message: a larger file would be silently no config at all.
MAX_BYTES = MAX_PASTED // 2
TOO_LARGE = "is over {kb} KB; a model's configuration is a few KB"
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
        raise AttachmentError(name, f"{name} " + TOO_LARGE.format(kb=MAX_BYTES // 1000))
    url = item.get("url_private_download") or item.get("url_private")
    if not isinstance(url, str) or not services.response_urls.allows_file(url) or not token:
        raise AttachmentError(name, f"{name} is not a file I can read from Slack")
    try:
        async with services.session.get(
                url, headers={"Authorization": f"Bearer {token}"}, allow_redirects=False,
                timeout=aiohttp.ClientTimeout(total=TIMEOUT_SECONDS)) as response:
            if response.status != 200:
                raise AttachmentError(name, f"Slack answered {response.status} for {name}")
            if response.content_type == "text/html":
                # What Slack's file host gives a token that may not have the file (another
                # workspace's, one not shared with the bot): its sign-in page, with a 200.
                raise AttachmentError(name, f"Slack did not give {name} to the bot: it may be "
                                      "another workspace's file or not shared with it")
            # To the end of the body, however it arrives in pieces, and never past MAX_BYTES
            # whatever the event said its size was.
            body = b""
            async for chunk in response.content.iter_chunked(64 * 1024):
                body += chunk
                if len(body) > MAX_BYTES:
                    break
    except (aiohttp.ClientError, TimeoutError) as exc:
        raise AttachmentError(name, f"could not download {name} ({type(exc).__name__})") from None
    if len(body) > MAX_BYTES:
        raise AttachmentError(name, f"{name} " + TOO_LARGE.format(kb=MAX_BYTES // 1000))
    text = body.decode("utf-8", "replace")
    if FENCE in text:
        raise AttachmentError(name, f"{name} is not a config.json")
    stripped = text.strip().removeprefix("\ufeff")
    if not (stripped.startswith("{") and stripped.endswith("}")):
        # Said, not dropped: read as pasted, it would be no config at all, silently.
        raise AttachmentError(name, f"{name} is not JSON (a config.json is one JSON object)")
    return text


class AttachmentError(Exception):
    def __init__(self, name: str, reason: str) -> None:
        super().__init__(reason)
        self.name = name
        self.reason = reason
