"""`slack run`: Slack's CLI starts the app through slack-cli-hooks' start hook, which runs this
file with the checkout's root first on sys.path and the local app's tokens as SLACK_CLI_XOXB and
SLACK_CLI_XAPP. The bot then runs in Socket Mode, as `mincards serve --mode socket` does, with
every other setting from the environment and .env.

The tokens the CLI gives win over SLACK_BOT_TOKEN and SLACK_APP_TOKEN in .env: they are the
ones of the app `slack run` installed, and .env may name another."""

from __future__ import annotations

import os
import sys

# The CLI's names, and the names the bot reads.
CLI_TOKENS = (("SLACK_CLI_XOXB", "SLACK_BOT_TOKEN"), ("SLACK_CLI_XAPP", "SLACK_APP_TOKEN"))


def run() -> int:
    for given, read in CLI_TOKENS:
        if os.environ.get(given):
            os.environ[read] = os.environ[given]
    from mincards.bot.cli import main

    return main(["serve", "--mode", "socket"])


if __name__ == "__main__":
    sys.exit(run())
