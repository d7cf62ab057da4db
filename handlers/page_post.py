"""Posting `mincards check-page`'s summary to a Slack channel (chat.postMessage, the bot token).

A cron job, not the bot: it needs SLACK_BOT_TOKEN (and SLACK_API_URL for GovSlack or a test's
emulator), nothing else the server does.
"""

from __future__ import annotations

import os

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from mincards.bot.errors import MincardsError
from mincards.bot.replies.slack_text import escape
from mincards.handlers.replies import TIMEOUT_SECONDS, failure
from mincards.handlers.settings import SLACK_API

# Slack shows about 4,000 characters of a message before "Show more"; the rest is in the log.
MAX_DIFF_CHARACTERS = 3500


def summary_text(url: str, headline: str, diff: str) -> str:
    """The message: what changed, the diff (cut), and what to do. Escaped: the page's text is
    never markup that pings anyone."""
    cut = diff if len(diff) <= MAX_DIFF_CHARACTERS else diff[:MAX_DIFF_CHARACTERS] + "\n…"
    return (f":mag: {escape(headline)} ({escape(url)})\n```{escape(cut)}```\n"
            "Save the page and run `mincards import-table PAGE --data-dir DIR` to take it.")


def post_summary(channel: str, text: str) -> None:
    token = os.environ.get("SLACK_BOT_TOKEN", "").strip()
    if not token.startswith("xoxb-"):
        raise MincardsError("--post-to needs SLACK_BOT_TOKEN (an xoxb- token) in the environment")
    api = os.environ.get("SLACK_API_URL", "").strip() or SLACK_API
    client = WebClient(token=token, base_url=api if api.endswith("/") else api + "/",
                       timeout=TIMEOUT_SECONDS)
    try:
        client.chat_postMessage(channel=channel, text=text, unfurl_links=False)
    except SlackApiError as exc:
        raise MincardsError(f"Slack refused chat.postMessage to {channel[:40]}: "
                            f"{exc.response.get('error')}") from None
    except Exception as exc:  # no answer from Slack
        raise MincardsError(f"chat.postMessage to {channel[:40]} failed: {failure(exc)}") from None
