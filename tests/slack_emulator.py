"""The local Slack stand-in the tests talk to: the playground's own (mincards.playground)."""

from mincards.playground.slack_stand_in import (
    BOT_USER,
    TEAM,
    Call,
    Fault,
    SlackEmulator,
    wait_until,
)

__all__ = ["BOT_USER", "TEAM", "Call", "Fault", "SlackEmulator", "wait_until"]
