"""HTTP mode's aiohttp app: Slack's requests at /slack/events through Bolt, and /healthz.

Requests are checked before Bolt sees them, so that nothing malformed can reach a 500: too large
(413), a body that does not arrive in time (408), not signed by Slack (401), not UTF-8 or not
the JSON/form Slack sends (400). What Slack sends that this bot does not act on (an
`ssl_check`, `app_rate_limited`, an interaction no listener handles) gets a quiet 200. Idle and
half-sent headers are closed after HEADER_TIMEOUT, a body gets REQUEST_TIMEOUT, and a full
server makes room for a newcomer (handlers.connections). What strangers cause is counted
(/metrics) and logged once a minute (handlers.logs.Notices), never a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any
from urllib.parse import parse_qs

from aiohttp import web
from slack_bolt.app.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.signature import SignatureVerifier

from mincards.bot import shallow_json
from mincards.handlers import metrics
from mincards.handlers.connections import KEEPALIVE_SECONDS, Room
from mincards.handlers.connections import watch as watch_connections
from mincards.handlers.logs import NOTICES
from mincards.handlers.readiness import add_probes
from mincards.handlers.services import Services

EVENTS_PATH = "/slack/events"
# Slack's own payloads stay far below this; anything larger is not from Slack.
MAX_BODY_BYTES = 1024 * 1024
MAX_DRAIN_BYTES = 16 * 1024 * 1024
WARN_EVERY_SECONDS = 60.0
log = logging.getLogger(__name__)


def _plain(status: int, text: str) -> web.Response:
    return web.Response(status=status, text=text + "\n")


async def _drain(request: web.Request, seconds: float) -> None:
    """Read and drop a too-large body (up to a bound, in time), so its sender gets the 413
    rather than a connection reset halfway through sending."""
    left = min(request.content_length or 0, MAX_DRAIN_BYTES)
    deadline = asyncio.get_running_loop().time() + seconds
    while left > 0:
        wait = deadline - asyncio.get_running_loop().time()
        if wait <= 0:
            return
        try:
            chunk = await asyncio.wait_for(request.content.readany(), wait)
        except TimeoutError:
            return
        if not chunk:
            return
        left -= len(chunk)


def _closing(status: int, text: str) -> web.Response:
    """A refusal that also ends the connection: the rest of that body is never wanted."""
    response = _plain(status, text)
    response.force_close()
    return response


class Ignore(Exception):
    """Signed, well-formed, and nothing for this bot to do: a quiet 200."""


def _object(text: str, what: str) -> dict[str, Any]:
    try:
        value = shallow_json.loads(text)
    except RecursionError:
        raise ValueError(f"{what} is nested too deeply") from None
    except ValueError:
        raise ValueError(f"{what} is not JSON") from None
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not an object")
    return value


def check_event(body: dict[str, Any]) -> None:
    kind = body.get("type")
    if kind == "url_verification":
        if not isinstance(body.get("challenge"), str):
            raise ValueError("url_verification without a challenge")
        return
    if kind == "app_rate_limited":
        log.warning("Slack is holding back this app's events for a minute (app_rate_limited, "
                    "team %.20s)", body.get("team_id"))
        raise Ignore
    if kind != "event_callback":
        log.debug("ignored an Events API request of type %.40s", kind)
        raise Ignore
    event = body.get("event")
    if not isinstance(event, dict):
        raise ValueError("event is not an object")
    if not isinstance(event.get("type"), str):
        raise ValueError("event has no type")


def check_interaction(payload: dict[str, Any]) -> None:
    kind = payload.get("type")
    if not isinstance(kind, str):
        raise ValueError("payload has no type")
    if kind == "block_actions":
        actions = payload.get("actions")
        if not isinstance(actions, list) or not actions or not all(
                isinstance(a, dict) and isinstance(a.get("action_id"), str) for a in actions):
            log.debug("ignored block_actions without actions")
            raise Ignore
    elif kind in ("view_submission", "view_closed"):
        view = payload.get("view")
        if not isinstance(view, dict) or not isinstance(view.get("type"), str):
            raise ValueError(f"{kind} without a view and its type")


def check_command(form: dict[str, Any]) -> None:
    """A slash command's fields are text, as Slack's form always gives them."""
    if not isinstance(form.get("command"), str) or not all(
            isinstance(form.get(k, ""), str) for k in ("text", "response_url", "channel_id",
                                                       "user_id", "trigger_id")):
        raise ValueError("a command whose fields are not text")


def check_shape(content_type: str, text: str) -> None:
    """Raise ValueError (a 400) for a signed body that is not what Slack sends, or Ignore (a
    quiet 200) for one this bot has nothing to do with."""
    kind = content_type.split(";")[0].strip().lower()
    if kind == "application/json":
        check_event(_object(text, "body"))
        return
    if kind == "application/x-www-form-urlencoded":
        form = parse_qs(text, keep_blank_values=True)
        if "payload" in form:
            check_interaction(_object(form["payload"][0], "payload"))
        elif "command" not in form:
            raise ValueError("form is neither a command nor an interaction")
        return
    raise ValueError(f"unsupported content type {kind or 'none'}")


class SignatureWatch:
    """A signing secret that fails every request is a setting to fix: say so, once a minute.
    Only requests that look like Slack's (both headers, a fresh timestamp) count against it, so
    a stranger probing the URL never raises it."""

    def __init__(self) -> None:
        self.last_good: float | None = None
        self.warned = -WARN_EVERY_SECONDS

    def good(self) -> None:
        self.last_good = time.monotonic()

    def bad(self, stamp: str) -> None:
        try:
            fresh = abs(time.time() - int(stamp)) < 5 * 60
        except ValueError:
            fresh = False
        now = time.monotonic()
        stale = self.last_good is None or now - self.last_good > WARN_EVERY_SECONDS
        if fresh and stale and now - self.warned > WARN_EVERY_SECONDS:
            self.warned = now
            log.warning("a request signed like Slack's failed verification and none has passed "
                        "lately: check SLACK_SIGNING_SECRET (Basic Information > App Credentials "
                        "> Signing Secret)")


def _is_ssl_check(text: str) -> bool:
    form = parse_qs(text)
    return form.get("ssl_check") == ["1"] and "command" not in form


def surface_of(content_type: str, text: str) -> str:
    """Which of Slack's ways in a refused body is (a metrics label): event, command or
    interaction. Accepted ones are counted by handlers.observe, from the body Bolt parsed."""
    kind = content_type.split(";")[0].strip().lower()
    if kind == "application/json":
        return "event"
    if kind == "application/x-www-form-urlencoded":
        form = parse_qs(text[:4096])
        return "interaction" if "payload" in form else "command" if "command" in form else "other"
    return "other"


def create_web_app(bolt: AsyncApp, signing_secret: str, services: Services,
                   body_seconds: float, room: Room) -> web.Application:
    verifier = SignatureVerifier(signing_secret)
    watch = SignatureWatch()

    def refused(surface: str, outcome: str, response: web.Response) -> web.Response:
        metrics.request(surface, outcome)
        return response

    async def read_body(request: web.Request) -> bytes | web.Response:
        if request.content_length is not None and request.content_length > MAX_BODY_BYTES:
            await _drain(request, body_seconds)
            return refused("unknown", "too_large", _closing(413, "too large"))
        try:
            # A deadline on the read itself (no task of its own, as wait_for would make).
            async with asyncio.timeout(body_seconds):
                return await request.read()
        except TimeoutError:
            return refused("unknown", "timeout",
                           _closing(408, "the body did not arrive in time"))
        except web.HTTPRequestEntityTooLarge:
            return refused("unknown", "too_large", _closing(413, "too large"))
        except Exception as exc:  # cut short, or framed two ways: the client's doing, not ours
            NOTICES.note("malformed", "refused a request whose body could not be read (%s)",
                         type(exc).__name__)
            return refused("unknown", "malformed", _closing(400, "the body could not be read"))

    async def events(request: web.Request) -> web.StreamResponse:
        started = time.monotonic()
        try:
            return await answer_request(request)
        finally:
            metrics.ack_seconds(time.monotonic() - started)

    async def answer_request(request: web.Request) -> web.StreamResponse:
        raw = await read_body(request)
        if isinstance(raw, web.Response):
            return raw
        room.answering(request.protocol)  # arrived whole: never closed to make room
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            # Slack sends only UTF-8 (and slack_sdk's verifier reads nothing else).
            return refused("unknown", "malformed", _plain(400, "body is not UTF-8"))
        if _is_ssl_check(text):
            return _plain(200, "ok")  # Slack sends these unsigned, to check the certificate
        stamps = request.headers.getall("X-Slack-Request-Timestamp", [])
        signatures = request.headers.getall("X-Slack-Signature", [])
        try:
            # Slack sends each once; two of either is not Slack, whatever they say.
            signed = len(stamps) == len(signatures) == 1 and verifier.is_valid_request(
                text, {"x-slack-request-timestamp": stamps[0],
                       "x-slack-signature": signatures[0]})
        except ValueError:  # a timestamp that is not a number
            signed = False
        content_type = request.headers.get("Content-Type", "")
        if not signed:
            if len(stamps) == len(signatures) == 1:
                watch.bad(stamps[0])
            NOTICES.note("signature", "refused a request without a valid Slack signature")
            return refused("unknown", "bad_signature", _plain(401, "invalid signature"))
        watch.good()
        try:
            check_shape(content_type, text)
        except Ignore:
            return refused(surface_of(content_type, text), "ignored", _plain(200, ""))
        except ValueError as problem:
            NOTICES.note("malformed", "rejected a signed request: %s", problem)
            return refused(surface_of(content_type, text), "malformed",
                           _plain(400, str(problem)))
        try:
            response = await bolt.async_dispatch(AsyncBoltRequest(
                body=text, query=request.query_string, headers=dict(request.headers)))
        except Exception as exc:  # a shape Bolt itself cannot read: refused, the bot goes on
            NOTICES.note("malformed", "rejected a signed request Bolt could not read: %s",
                         type(exc).__name__)
            log.debug("the failure in full", exc_info=exc)
            return refused(surface_of(content_type, text), "malformed",
                           _plain(400, "malformed request"))
        if response.status == 404:
            # Bolt found no listener: acknowledged quietly, as Slack would show a 404 as an error.
            log.debug("no listener for this request; acknowledged")
            return _plain(200, "")
        return web.Response(status=response.status, body=response.body.encode("utf-8"),
                            headers=response.first_headers_without_set_cookie())

    async def oauth(request: web.Request) -> web.Response:
        """The install page and Slack's redirect back (installation by any workspace): Bolt's
        OAuth flow, given the query and the browser's state cookie."""
        flow = bolt.oauth_flow
        if flow is None:
            return _plain(404, "not found")
        asked = AsyncBoltRequest(body="", query=request.query_string,
                                 headers=dict(request.headers))
        if request.path == flow.install_path:
            response = await flow.handle_installation(asked)
        else:
            response = await flow.handle_callback(asked)
        headers = dict(response.first_headers_without_set_cookie())
        answer = web.Response(status=response.status, body=response.body.encode("utf-8"),
                              headers=headers)
        for cookie in response.cookies():
            for morsel in cookie.values():
                answer.headers.add("Set-Cookie", morsel.OutputString())
        return answer

    async def not_allowed(_: web.Request) -> web.Response:
        return _plain(405, "POST only")

    async def drain(_: web.Application) -> None:
        await services.inflight.drain()

    async def close(_: web.Application) -> None:
        await services.close()

    @web.middleware
    async def waiting_again(request: web.Request, handler: Any) -> web.StreamResponse:
        """However a request ends, its connection waits for the next one from now on (and is
        among those closed first to make room, should the server fill)."""
        room.started(request.protocol)
        try:
            return await handler(request)
        finally:
            room.answered(request.protocol)

    app = web.Application(client_max_size=MAX_BODY_BYTES, middlewares=[waiting_again])
    app.router.add_post(EVENTS_PATH, events)
    app.router.add_route("*", EVENTS_PATH, not_allowed)
    add_probes(app.router, services)
    app.router.add_get("/slack/install", oauth)
    app.router.add_get("/slack/oauth_redirect", oauth)
    # On SIGTERM the sites stop taking connections first; then replies already acknowledged
    # are finished (bounded) before the process goes.
    app.on_shutdown.append(drain)
    app.on_cleanup.append(close)
    return app


class RoomyRunner(web.AppRunner):
    """An AppRunner whose server makes room when full by closing the connection that has
    waited longest without a complete request (handlers.connections)."""

    def __init__(self, app: web.Application, room: Room, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.room = room

    async def _make_server(self) -> web.Server:
        server = await super()._make_server()
        watch_connections(server, self.room)
        return server


def runner(app: web.Application, room: Room) -> RoomyRunner:
    # The room closes a new connection without a request's headers after HEADER_TIMEOUT;
    # aiohttp's keep-alive timer (from a connection's first byte, and again after each response)
    # closes an idle or half-sent one after KEEPALIVE_SECONDS.
    # lingering_time=0: a refused request's unread body is not waited for (aiohttp would wait
    # up to 10 s for a stalled client to finish sending it).
    return RoomyRunner(app, room, keepalive_timeout=KEEPALIVE_SECONDS,
                       lingering_time=0, access_log=None, shutdown_timeout=5.0)
