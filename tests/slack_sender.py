"""Requests to the bot as Slack sends them: signed with the signing secret, over real HTTP."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from tests.slack_emulator import BOT_USER, TEAM

_ids = itertools.count(1)


@dataclass
class Reply:
    status: int
    body: str


class SlackSender:
    def __init__(self, base_url: str, signing_secret: str) -> None:
        self.url = base_url.rstrip("/") + "/slack/events"
        self.secret = signing_secret.encode()

    def post(self, body: str | bytes, content_type: str, *, sign: bool = True,
             timestamp: int | None = None, signature: str | None = None,
             headers: dict[str, str] | None = None) -> Reply:
        data = body.encode() if isinstance(body, str) else body
        ts = str(timestamp if timestamp is not None else int(time.time()))
        all_headers = {"Content-Type": content_type, **(headers or {})}
        if sign:
            all_headers["X-Slack-Request-Timestamp"] = ts
            all_headers["X-Slack-Signature"] = signature or self.sign(ts, data)
        request = urllib.request.Request(self.url, data=data, headers=all_headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return Reply(response.status, response.read().decode())
        except urllib.error.HTTPError as err:
            return Reply(err.code, err.read().decode())

    def sign(self, timestamp: str, body: bytes) -> str:
        """Slack's v0 signature over the raw bytes (as Slack computes it, UTF-8 or not)."""
        base = b"v0:" + timestamp.encode() + b":" + body
        return "v0=" + hmac.new(self.secret, base, hashlib.sha256).hexdigest()

    def event(self, event: dict[str, Any], **kw: Any) -> Reply:
        return self.post(json.dumps(event_callback(event)), "application/json", **kw)

    def command(self, text: str, response_url: str, **fields: str) -> Reply:
        form = {"token": "legacy", "team_id": TEAM, "team_domain": "test",
                "channel_id": "C0001", "channel_name": "general", "user_id": "U0001",
                "user_name": "asker", "command": "/mincards", "text": text,
                "response_url": response_url, "trigger_id": new_trigger(), "api_app_id": "A0001",
                **fields}
        return self.post(urlencode(form), "application/x-www-form-urlencoded")

    def action(self, payload: dict[str, Any]) -> Reply:
        return self.post(urlencode({"payload": json.dumps(payload)}),
                         "application/x-www-form-urlencoded")


def event_callback(event: dict[str, Any], event_id: str | None = None) -> dict[str, Any]:
    return {"token": "legacy", "team_id": TEAM, "api_app_id": "A0001", "event": event,
            "type": "event_callback", "event_id": event_id or f"Ev{next(_ids):08d}",
            "event_time": int(time.time()),
            "authorizations": [{"team_id": TEAM, "user_id": BOT_USER, "is_bot": True}]}


def new_trigger() -> str:
    """A trigger id as Slack makes them: one per interaction, never sent twice."""
    return f"{next(_ids)}.{int(time.time())}.{uuid.uuid4().hex[:24]}"


def new_ts() -> str:
    return f"{int(time.time())}.{next(_ids):06d}"


def mention(text: str, channel: str = "C0001", thread_ts: str | None = None) -> dict[str, Any]:
    event = {"type": "app_mention", "user": "U0001", "text": f"<@{BOT_USER}> {text}",
             "ts": new_ts(), "channel": channel, "event_ts": new_ts()}
    if thread_ts:
        event["thread_ts"] = thread_ts
    return event


def direct_message(text: str, channel: str = "D0001", **extra: Any) -> dict[str, Any]:
    return {"type": "message", "channel_type": "im", "user": "U0001", "text": text,
            "ts": new_ts(), "channel": channel, "event_ts": new_ts(), **extra}


def block_action(value: str, action_id: str, response_url: str, *, ephemeral: bool,
                 message_ts: str = "1700000000.000001", channel: str = "C0001") -> dict[str, Any]:
    return {"type": "block_actions", "user": {"id": "U0001", "team_id": TEAM},
            "team": {"id": TEAM}, "api_app_id": "A0001", "token": "legacy",
            "trigger_id": new_trigger(), "channel": {"id": channel},
            "container": {"type": "message", "message_ts": message_ts, "channel_id": channel,
                          "is_ephemeral": ephemeral},
            "response_url": response_url,
            "actions": [{"type": "button", "action_id": action_id, "block_id": "b",
                         "value": value, "action_ts": new_ts()}]}
