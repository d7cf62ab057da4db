"""HTTP mode's WSGI app: Slack's requests at /slack/events through Bolt, and /healthz."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from slack_bolt import App
from slack_bolt.adapter.wsgi import SlackRequestHandler

EVENTS_PATH = "/slack/events"
HEALTH_PATH = "/healthz"
StartResponse = Callable[..., Any]


def _plain(start_response: StartResponse, status: str, body: bytes) -> Iterable[bytes]:
    start_response(status, [("Content-Type", "text/plain; charset=utf-8"),
                            ("Content-Length", str(len(body)))])
    return [body]


def create_wsgi(app: App) -> Callable[[dict[str, Any], StartResponse], Iterable[bytes]]:
    bolt = SlackRequestHandler(app, path=EVENTS_PATH)

    def wsgi(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        path, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", "")
        if path == HEALTH_PATH and method in ("GET", "HEAD"):
            return _plain(start_response, "200 OK", b"ok\n")
        if path == EVENTS_PATH:
            if method != "POST":
                return _plain(start_response, "405 Method Not Allowed", b"POST only\n")
            return bolt(environ, start_response)
        return _plain(start_response, "404 Not Found", b"not found\n")

    return wsgi
