"""HTTP mode's WSGI app: Slack's requests at /slack/events through Bolt, and /healthz.

Requests are checked before Bolt sees them, so that nothing malformed can reach a 500: too large
(413), not signed by Slack (401), not UTF-8 or not the JSON/form Slack sends (400).
"""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs

from slack_bolt import App
from slack_bolt.adapter.wsgi import SlackRequestHandler
from slack_sdk.signature import SignatureVerifier

EVENTS_PATH = "/slack/events"
HEALTH_PATH = "/healthz"
# Slack's own payloads stay far below this; anything larger is not from Slack.
MAX_BODY_BYTES = 1024 * 1024
MAX_DRAIN_BYTES = 16 * 1024 * 1024
StartResponse = Callable[..., Any]
log = logging.getLogger(__name__)


def _plain(start_response: StartResponse, status: str, body: bytes) -> Iterable[bytes]:
    start_response(status, [("Content-Type", "text/plain; charset=utf-8"),
                            ("Content-Length", str(len(body)))])
    return [body]


def _drain(stream: Any, length: int) -> None:
    """Read and drop a too-large body (up to a bound): the sender then gets the 413, no reset."""
    left = min(length, MAX_DRAIN_BYTES)
    while left > 0:
        chunk = stream.read(min(left, 65536))
        if not chunk:
            return
        left -= len(chunk)


def _shape_problem(content_type: str, text: str) -> str | None:
    """Why a signed body is not something Slack sends, or None."""
    kind = content_type.split(";")[0].strip().lower()
    if kind == "application/json":
        try:
            return None if isinstance(json.loads(text), dict) else "JSON body is not an object"
        except ValueError:
            return "body is not JSON"
    if kind == "application/x-www-form-urlencoded":
        form = parse_qs(text, keep_blank_values=True)
        if "payload" in form:
            try:
                payload = json.loads(form["payload"][0])
            except ValueError:
                return "payload is not JSON"
            return None if isinstance(payload, dict) else "payload is not an object"
        return None if form else "empty form"
    return f"unsupported content type {kind or 'none'}"


def create_wsgi(app: App, signing_secret: str
                ) -> Callable[[dict[str, Any], StartResponse], Iterable[bytes]]:
    bolt = SlackRequestHandler(app, path=EVENTS_PATH)
    verifier = SignatureVerifier(signing_secret)

    def events(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return _plain(start_response, "400 Bad Request", b"bad Content-Length\n")
        if length > MAX_BODY_BYTES:
            _drain(environ["wsgi.input"], length)
            return _plain(start_response, "413 Payload Too Large", b"too large\n")
        raw = environ["wsgi.input"].read(length) if length > 0 else b""
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            # Slack sends only UTF-8 (and slack_sdk's verifier reads nothing else).
            return _plain(start_response, "400 Bad Request", b"body is not UTF-8\n")
        headers = {"x-slack-request-timestamp": environ.get("HTTP_X_SLACK_REQUEST_TIMESTAMP", ""),
                   "x-slack-signature": environ.get("HTTP_X_SLACK_SIGNATURE", "")}
        try:
            signed = verifier.is_valid_request(text, headers)
        except ValueError:  # a timestamp that is not a number
            signed = False
        if not signed:
            return _plain(start_response, "401 Unauthorized", b"invalid signature\n")
        problem = _shape_problem(environ.get("CONTENT_TYPE", ""), text)
        if problem:
            log.warning("rejected a signed request: %s", problem)
            return _plain(start_response, "400 Bad Request", problem.encode() + b"\n")
        environ["wsgi.input"] = io.BytesIO(raw)
        return bolt(environ, start_response)

    def wsgi(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        path, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", "")
        if path == HEALTH_PATH and method in ("GET", "HEAD"):
            return _plain(start_response, "200 OK", b"ok\n")
        if path == EVENTS_PATH:
            if method != "POST":
                return _plain(start_response, "405 Method Not Allowed", b"POST only\n")
            return events(environ, start_response)
        return _plain(start_response, "404 Not Found", b"not found\n")

    return wsgi
