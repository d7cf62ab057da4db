"""What every Slack surface is given: the answer engine, the conversations, the in-flight count."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Engine
from handlers.conversations import Conversations
from handlers.inflight import InFlight


@dataclass(frozen=True)
class Services:
    engine: Engine
    conversations: Conversations
    inflight: InFlight
