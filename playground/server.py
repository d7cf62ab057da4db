"""`mincards playground`: the real app, started exactly as `mincards serve` starts it (a child
process, HTTP mode), against the Slack stand-in on loopback with throw-away tokens, and a page
on 127.0.0.1 that plays Slack's client: what a person does there becomes the signed request
Slack would send, and what the bot sends Slack is shown as Slack would show it.

The page asks through a small JSON API (`/api/...`); everything it shows comes from the
stand-in's record of the bot's Web API calls and response-URL posts (`/api/feed`)."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import itertools
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from mincards.playground.slack_stand_in import BOT_USER, TEAM, Call, SlackEmulator

STATIC = Path(__file__).resolve().parent / "static"
USER = "U0PLAY1"
APP_ID = "A0PLAY"
# What the page may read of a call the bot made: never its headers (its token).
SHOWN = frozenset({"playground.said", "chat.postMessage", "chat.postEphemeral", "chat.update",
                   "chat.delete", "chat.unfurl", "views.publish", "views.open", "views.update",
                   "views.push", "response", "assistant.threads.setSuggestedPrompts",
                   "assistant.threads.setTitle", "assistant.threads.setStatus"})
START_SECONDS = 30.0


class PlaygroundError(Exception):
    """Why the playground cannot start, in one line."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def refuse_real_slack(env: dict[str, str]) -> None:
    """The playground never talks to Slack: real tokens in the environment aimed at Slack (no
    SLACK_API_URL of a stand-in) are refused, so nobody mistakes it for their workspace."""
    real = [k for k in ("SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_CLIENT_SECRET")
            if env.get(k, "").strip()]
    api = env.get("SLACK_API_URL", "")
    if real and ("slack.com" in api or not api):
        raise PlaygroundError(
            f"{', '.join(real)} set for real Slack: the playground never talks to Slack; "
            "unset them (or run it from a folder without that .env)")


@dataclass
class Sent:
    """A request the page made the playground send to the bot, and how it went."""

    id: int
    kind: str
    started: float
    ack_ms: float
    status: int


@dataclass
class Playground:
    stand_in: SlackEmulator
    bot_url: str
    signing_secret: str
    process: subprocess.Popen[bytes]
    state: Path
    log: Path
    sent: list[Sent] = field(default_factory=list)
    # The bot's AGENT_VIEW: the page draws the DM as the agent view's sessions, or as before.
    agent_view: bool = True
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _ts: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    # --- what Slack sends the bot ---------------------------------------------------------

    def new_ts(self) -> str:
        return f"{int(time.time())}.{next(self._ts):06d}"

    def _post(self, kind: str, body: bytes, content_type: str) -> tuple[Sent, str]:
        ts = str(int(time.time()))
        base = b"v0:" + ts.encode() + b":" + body
        signature = "v0=" + hmac.new(self.signing_secret.encode(), base,
                                     hashlib.sha256).hexdigest()
        request = urllib.request.Request(
            self.bot_url + "/slack/events", data=body, method="POST",
            headers={"Content-Type": content_type, "X-Slack-Request-Timestamp": ts,
                     "X-Slack-Signature": signature})
        started = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                status, text = response.status, response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as err:
            status, text = err.code, err.read().decode("utf-8", "replace")
        except OSError:
            status, text = 0, ""
        sent = Sent(next(self._ids), kind, started, (time.monotonic() - started) * 1e3, status)
        self.sent.append(sent)
        return sent, text

    def event(self, event: dict[str, Any]) -> Sent:
        body = {"token": "playground", "team_id": TEAM, "api_app_id": APP_ID, "event": event,
                "type": "event_callback", "event_id": f"EvP{next(self._ids):08d}",
                "event_time": int(time.time()),
                "authorizations": [{"team_id": TEAM, "user_id": BOT_USER, "is_bot": True}]}
        return self._post(event.get("type", "event"), json.dumps(body).encode(),
                          "application/json")[0]

    def interaction(self, payload: dict[str, Any]) -> tuple[Sent, str]:
        payload = {**payload, "user": {"id": USER, "team_id": TEAM, "name": "you"},
                   "team": {"id": TEAM, "domain": "playground"}, "api_app_id": APP_ID,
                   "token": "playground", "trigger_id": f"{next(self._ids)}.playground"}
        return self._post(str(payload.get("type")), urlencode(
            {"payload": json.dumps(payload)}).encode(), "application/x-www-form-urlencoded")

    def command(self, text: str, channel: str) -> tuple[Sent, str]:
        url = self.stand_in.response_url(f"cmd-{next(self._ids)}")
        form = {"token": "playground", "team_id": TEAM, "team_domain": "playground",
                "channel_id": channel, "channel_name": "npu-training", "user_id": USER,
                "user_name": "you", "command": "/mincards", "text": text, "response_url": url,
                "trigger_id": f"{next(self._ids)}.playground", "api_app_id": APP_ID}
        sent, _ = self._post("command", urlencode(form).encode(),
                             "application/x-www-form-urlencoded")
        return sent, url

    def said(self, message: dict[str, Any]) -> None:
        """A person's message, kept in the stand-in's record with what the bot sent, so that
        the page (and a reloaded page) shows the conversation in order."""
        with self.stand_in.lock:
            self.stand_in.calls.append(Call("playground.said", message, {}))

    # --- what the page reads ---------------------------------------------------------------

    def feed(self, after: int) -> dict[str, Any]:
        with self.stand_in.lock:
            calls = list(self.stand_in.calls)
        out = []
        for index, call in enumerate(calls[after:], start=after):
            if call.method not in SHOWN:
                continue
            since = [s for s in self.sent if s.started <= call.at]
            out.append({"index": index, "method": call.method, "params": call.params,
                        "result": call.result,
                        "reply_ms": round((call.at - since[-1].started) * 1e3, 1)
                        if since else None})
        return {"next": len(calls), "calls": out,
                "sent": [{"id": s.id, "kind": s.kind, "ack_ms": round(s.ack_ms, 1),
                          "status": s.status} for s in self.sent[-50:]]}

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.stand_in.__exit__(None, None, None)
        shutil.rmtree(self.state, ignore_errors=True)


def agent_view_of(env: dict[str, str]) -> bool:
    """AGENT_VIEW as the bot's settings read it (pydantic's bool; unset or blank: on)."""
    from pydantic import TypeAdapter, ValidationError

    value = env.get("AGENT_VIEW", "").strip()
    try:
        return TypeAdapter(bool).validate_python(value) if value else True
    except ValidationError:
        return True  # the bot itself refuses to start on it, saying why


def start_bot(latency: float = 0.0) -> Playground:
    """The stand-in, then `mincards serve --mode http` against it; waits until it answers."""
    stand_in = SlackEmulator(latency=latency).__enter__()
    secret = secrets.token_hex(16)
    port = free_port()
    state = Path(tempfile.mkdtemp(prefix="mincards-playground-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DATABASE_",
                                                                     "REDIS_"))}
    env.update({"SLACK_BOT_TOKEN": f"xoxb-playground-{secrets.token_hex(8)}",
                "SLACK_SIGNING_SECRET": secret, "SLACK_API_URL": stand_in.api_url,
                "HOST": "127.0.0.1", "PORT": str(port), "WEB_CONCURRENCY": "1",
                "LOG_LEVEL": env.get("LOG_LEVEL", "INFO"), "XDG_STATE_HOME": str(state)})
    mincards = Path(sys.executable).with_name("mincards")
    command = [str(mincards)] if mincards.exists() else [sys.executable, "-m", "mincards"]
    log = state / "bot.log"
    with log.open("wb") as out:
        # Its own folder: no developer's .env is read into it.
        process = subprocess.Popen([*command, "serve", "--mode", "http"], cwd=state, env=env,
                                   stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    playground = Playground(stand_in, f"http://127.0.0.1:{port}", secret, process, state, log,
                            agent_view=agent_view_of(env))
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-1:]
            playground.close()
            raise PlaygroundError("the bot did not start: " + (tail[0] if tail else "no output"))
        try:
            with urllib.request.urlopen(playground.bot_url + "/healthz", timeout=1):
                return playground
        except OSError:
            time.sleep(0.1)
    playground.close()
    raise PlaygroundError(f"the bot did not answer within {START_SECONDS:.0f} s")
