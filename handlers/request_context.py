"""Which request a log line is about: its Slack event id (or the interaction's trigger id, or
Socket Mode's envelope id), its team and a trace id, carried by a context variable from the
moment Bolt takes the request through the work done after its acknowledgement (asyncio tasks
copy it when they are made; the answering thread is handed a copy) and added to every log
line written meanwhile. The trace id is OpenTelemetry's when tracing is on
(handlers/tracing.py), so logs and traces join; otherwise one made for the request."""

from __future__ import annotations

import logging
import secrets
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

# Slack's ids are short; anything longer is not one and is cut (a log line stays a line).
_ID_CHARS = 64


@dataclass(frozen=True)
class RequestIds:
    event_id: str = ""
    team: str = ""
    trace_id: str = ""

    def fields(self) -> dict[str, str]:
        return {k: v for k, v in (("event_id", self.event_id), ("team", self.team),
                                  ("trace_id", self.trace_id)) if v}


CURRENT: ContextVar[RequestIds | None] = ContextVar("mincards_request", default=None)


def _text(value: Any) -> str:
    return "".join(c for c in value[:_ID_CHARS] if c.isprintable()) if isinstance(value,
                                                                                   str) else ""


def ids_of(body: Any, trace_id: str | None = None) -> RequestIds:
    """The ids of a request body as Slack sends it (events, commands, interactions)."""
    if not isinstance(body, dict):
        return RequestIds(trace_id=trace_id or new_trace_id())
    team = body.get("team_id") or body.get("team")
    if isinstance(team, dict):
        team = team.get("id")
    if not team and isinstance(body.get("user"), dict):
        team = body["user"].get("team_id")
    event_id = body.get("event_id") or body.get("trigger_id") or body.get("envelope_id")
    return RequestIds(_text(event_id), _text(team), trace_id or new_trace_id())


def new_trace_id() -> str:
    """A W3C trace id's shape (32 hex digits), so a log shipper takes it for one."""
    return secrets.token_hex(16)


class RequestFields(logging.Filter):
    """Adds the current request's ids to a record (as attributes: JsonLines writes them as
    fields, the text format after the message)."""

    def filter(self, record: logging.LogRecord) -> bool:
        ids = CURRENT.get()
        record.request_ids = ids.fields() if ids is not None else {}
        return True
