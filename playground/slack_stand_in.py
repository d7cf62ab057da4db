"""A local stand-in for Slack: its Web API over HTTP, response URLs, and Socket Mode's WebSocket
(the tests' emulator and the playground's Slack).

Everything listens on 127.0.0.1 and records what the bot sent. A test can make any Web API
method fail on cue (status, body, headers, or a dropped connection).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from websockets.exceptions import ConnectionClosed
from websockets.sync.server import ServerConnection, serve

BOT_USER = "UBOT"
TEAM = "T0001"


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    headers: dict[str, str]
    at: float = field(default_factory=time.monotonic)
    # Set once the answer has been written back: the caller was still there to take it.
    answered: bool = False
    # What the stand-in answered (a posted message's ts, an opened view's id).
    result: dict[str, Any] | None = None


@dataclass
class Fault:
    status: int = 200
    body: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    drop: bool = False
    delay: float = 0.0
    times: int = 1
    # A file's download only: these bytes instead of the file, with no Content-Length (the
    # connection's end is the body's end), so the size the event said is not the size sent.
    raw: bytes | None = None


class QuietServer(ThreadingHTTPServer):
    """A thread per connection that says nothing when a client hangs up mid-answer (a bot
    that gave up on a slow call, as clients do): socketserver printed a traceback then, and
    on CPython 3.11.7 formatting one parses source with `ast` in that thread, which beside
    another thread's `ast.parse` raised "SystemError: AST constructor recursion depth
    mismatch" in the suite's layout test (CPython gh-106905)."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class _BurstServer(QuietServer):
    """A thread per connection, and a listen backlog a burst of replies fits in: the size is
    read when the server starts listening (in its constructor), so set on the class; set on
    an instance after, the backlog stayed socketserver's 5 and a burst's new connections
    waited on SYN retransmits (1 s, 3 s, ...)."""

    request_queue_size = 1024
    timeline: Timeline | None = None

    def get_request(self) -> tuple[Any, Any]:
        request, address = super().get_request()
        if self.timeline is not None:
            self.timeline.accepted(address)
        return request, address


class KernelWatch:
    """What the kernel holds for the stand-in's port, read from /proc/net/tcp a few times a
    second: connections waiting to be accepted, bytes a connection has not read, bytes a client
    has not had acknowledged. Anything held a second or more goes into the timeline, so a call
    that never came shows where it stopped (ci106, ci203: one call unanswered 10 s, the stand-in
    with no request line for it). Linux only; elsewhere it records nothing."""

    PERIOD = 0.25
    HELD = 1.0
    TABLE = "/proc/net/tcp"

    def __init__(self, port: int, timeline: Timeline) -> None:
        self.port = port
        self.timeline = timeline
        self._since: dict[str, float] = {}  # what is held -> since when
        self._said: set[str] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        if Path(self.TABLE).exists():
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.PERIOD):
            try:
                held = self._held()
            except (OSError, ValueError):
                return
            now = time.monotonic()
            for what in list(self._since):
                if what not in held:
                    del self._since[what]
                    self._said.discard(what)
            for what in held:
                since = self._since.setdefault(what, now)
                if now - since >= self.HELD and what not in self._said:
                    self._said.add(what)
                    self.timeline.kernel(what)

    def _held(self) -> set[str]:
        found = set()
        with Path(self.TABLE).open(encoding="ascii") as table:
            next(table, None)
            for line in table:
                fields = line.split()
                local, remote, state, queues = fields[1], fields[2], fields[3], fields[4]
                tx, rx = (int(q, 16) for q in queues.split(":"))
                lport, rport = int(local.split(":")[1], 16), int(remote.split(":")[1], 16)
                if lport == self.port and state == "0A" and rx:
                    found.add(f"kernel: {rx} connection(s) waiting to be accepted")
                elif lport == self.port and rx:
                    found.add(f"kernel: :{rport} has {rx} bytes the stand-in has not read")
                elif rport == self.port and tx:
                    found.add(f"kernel: client :{lport} has {tx} bytes not acknowledged")
                elif rport == self.port and state == "02":
                    found.add(f"kernel: client :{lport} still connecting (SYN sent, no answer)")
                elif lport == self.port and state == "03":
                    found.add(f"kernel: :{rport} half open (SYN received, handshake not done)")
        return found


class Timeline:
    """Connections to the stand-in and what became of them, newest last (bounded)."""

    KEEP = 200

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._events: list[tuple[float, str, str]] = []
        self._start = time.monotonic()

    def _add(self, who: Any, what: str) -> None:
        with self._lock:
            self._events.append((time.monotonic() - self._start, f"{who[1]}", what))
            del self._events[:-self.KEEP]

    def accepted(self, who: Any) -> None:
        self._add(who, "accepted")

    def kernel(self, what: str) -> None:
        with self._lock:
            self._events.append((time.monotonic() - self._start, "-", what))
            del self._events[:-self.KEEP]

    def opened(self, who: Any) -> Any:
        self._add(who, "opened")
        return who

    def request(self, who: Any, line: bytes) -> None:
        self._add(who, "request " + line[:60].decode("latin-1", "replace").strip())

    def answered(self, who: Any) -> None:
        self._add(who, "answered")

    def closed(self, who: Any) -> None:
        self._add(who, "closed")

    def report(self, last: int = 40) -> str:
        """The stand-in's last connection events: seconds since it started, client port."""
        with self._lock:
            shown = self._events[-last:]
        return "the stand-in's last connection events: " + "; ".join(
            f"{at:.2f}s :{port} {what}" for at, port, what in shown)


class SlackEmulator:
    """`latency`: seconds every Web API call and response URL post waits before it is answered,
    as real Slack takes 0.1-1 s (and sometimes much longer)."""

    def __init__(self, latency: float = 0.0) -> None:
        self.latency = latency
        self.calls: list[Call] = []
        self.lock = threading.Lock()
        self.faults: dict[str, list[Fault]] = {}
        # Each person's Slack locale (users.info with include_locale); en-US when not set.
        self.locales: dict[str, str] = {}
        # People Slack says are workspace admins (users.info's is_admin).
        self.admins: set[str] = set()
        # OAuth: the codes Slack would hand the redirect, by workspace, and the bot tokens it
        # issued for each (oauth.v2.access); auth.test answers for the token it is given.
        self.oauth_codes: dict[str, str] = {}
        self.issued: dict[str, str] = {}  # token -> team
        # Enterprise Grid: codes for an org-wide install (code -> enterprise id), codes for a
        # workspace of an enterprise (code -> that enterprise, beside oauth_codes' team), and
        # each token's enterprise.
        self.org_codes: dict[str, str] = {}
        self.code_enterprise: dict[str, str] = {}
        self.issued_enterprise: dict[str, str] = {}  # token -> enterprise
        self.team_enterprise: dict[str, str] = {}  # installed team (or org) -> enterprise
        # Token rotation (an app with token_rotation_enabled): each bot token comes with a
        # refresh token and lives this many seconds; None: tokens that never expire.
        self.token_lifetime: int | None = None
        self.refresh: dict[str, str] = {}  # refresh token -> team
        # Uploaded files by path (/files-pri/...), served to a request with the bot's token.
        self.files: dict[str, bytes] = {}
        # Workflow steps completed (functions.completeSuccess/Error): Slack takes one each.
        self.completed_functions: set[str] = set()
        # Each connection's course (opened, each request line, answered, closed): said when a
        # wait on the stand-in fails, so a call that never came can be told from one that
        # came and was not answered.
        self.timeline = Timeline()
        self._ts = itertools.count(1)
        self.http = _BurstServer(("127.0.0.1", 0), self._handler())
        self.http.timeline = self.timeline
        self.kernel_watch = KernelWatch(self.http.server_address[1], self.timeline)
        self.ws_connections: list[ServerConnection] = []
        self.ws_acks: dict[str, dict[str, Any]] = {}
        self.close_new_sockets = False
        self.ws = serve(self._ws_handler, "127.0.0.1", 0)
        self.threads = [threading.Thread(target=self.http.serve_forever, daemon=True),
                        threading.Thread(target=self.ws.serve_forever, daemon=True)]

    # --- lifecycle ---------------------------------------------------------------------------

    def __enter__(self) -> SlackEmulator:
        for t in self.threads:
            t.start()
        self.kernel_watch.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.kernel_watch.stop()
        self.http.shutdown()
        self.http.server_close()
        self.ws.shutdown()
        for t in self.threads:
            t.join(timeout=5)

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.http.server_address[1]}/api/"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.ws.socket.getsockname()[1]}/link"

    def response_url(self, name: str | None = None) -> str:
        return f"http://127.0.0.1:{self.http.server_address[1]}/response/{name or uuid.uuid4()}"

    def add_file(self, name: str, content: bytes, team: str = TEAM) -> str:
        """A file uploaded to `team`'s Slack: its url_private_download, as Slack gives it."""
        path = f"/files-pri/{team}-F{len(self.files) + 1:04d}/download/{name}"
        self.files[path] = content
        return self.api_url.removesuffix("/api/") + path

    def reset(self) -> None:
        with self.lock:
            self.calls.clear()
            self.faults.clear()

    # --- what tests use ----------------------------------------------------------------------

    def fail(self, method: str, fault: Fault) -> None:
        with self.lock:
            self.faults.setdefault(method, []).append(fault)

    def _take_fault(self, method: str) -> Fault | None:
        """The next fault queued for `method`, used once more (under the lock)."""
        faults = self.faults.get(method) or []
        fault = faults[0] if faults else None
        if fault:
            fault.times -= 1
            if fault.times <= 0:
                faults.pop(0)
        return fault

    def of(self, method: str) -> list[Call]:
        with self.lock:
            return [c for c in self.calls if c.method == method]

    def wait_for(self, method: str, count: int = 1, timeout: float = 10.0) -> list[Call]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.of(method)
            if len(found) >= count:
                return found
            time.sleep(0.02)
        raise AssertionError(f"expected {count} {method} call(s), got {len(self.of(method))}: "
                             f"{[c.method for c in self.calls][-20:]}; {self.timeline.report()}")

    def replies(self) -> list[Call]:
        """Every call that shows something to a person."""
        with self.lock:
            return [c for c in self.calls if c.method in (
                "chat.postMessage", "chat.postEphemeral", "chat.update", "views.publish",
                "views.open", "views.update", "response", "chat.unfurl",
                "functions.completeSuccess", "functions.completeError")]

    # --- HTTP --------------------------------------------------------------------------------

    def _answer(self, method: str, params: dict[str, Any], token: str = "") -> dict[str, Any]:
        ts = f"1700000000.{next(self._ts):06d}"
        if method == "auth.test":
            team = self.issued.get(token, TEAM)
            of_org = self.issued_enterprise.get(token)
            return {"ok": True, "url": "https://example.invalid/", "team": "Test",
                    "user": "mincards", "team_id": team, "user_id": BOT_USER, "bot_id": "BBOT",
                    **({"enterprise_id": of_org, "is_enterprise_install": team == of_org}
                       if of_org else {})}
        if method == "oauth.v2.access":
            granted: str | None
            enterprise: str | None
            if params.get("grant_type") == "refresh_token":
                granted = self.refresh.pop(str(params.get("refresh_token") or ""), None)
                if granted is None:
                    return {"ok": False, "error": "invalid_refresh_token"}
                enterprise = self.team_enterprise.get(granted)
            else:
                code = str(params.get("code") or "")
                org = self.org_codes.pop(code, None)
                granted = org or self.oauth_codes.pop(code, None)
                if granted is None:
                    return {"ok": False, "error": "invalid_code"}
                enterprise = org or self.code_enterprise.pop(code, None)
            team = granted
            token = f"xoxb-{team}-{next(self._ts)}-oauthtoken"
            self.issued[token] = team
            org_wide = enterprise is not None and team == enterprise
            if enterprise is not None:
                self.issued_enterprise[token] = enterprise
                self.team_enterprise[team] = enterprise
            answer: dict[str, Any] = {
                "ok": True, "access_token": token, "token_type": "bot",
                "scope": "chat:write,commands", "bot_user_id": BOT_USER, "app_id": "A0001",
                "team": None if org_wide else {"id": team, "name": f"Team {team}"},
                "enterprise": {"id": enterprise, "name": f"Org {enterprise}"}
                if enterprise else None,
                "is_enterprise_install": org_wide, "authed_user": {"id": "UINSTALLER"}}
            if self.token_lifetime is not None:
                refresh = f"xoxe-1-{team}-{next(self._ts)}-refresh"
                self.refresh[refresh] = team
                answer.update({"refresh_token": refresh, "expires_in": self.token_lifetime})
            return answer
        if method == "apps.connections.open":
            return {"ok": True, "url": self.ws_url}
        if method in ("chat.postMessage", "chat.update"):
            return {"ok": True, "channel": params.get("channel"), "ts": params.get("ts") or ts,
                    "message": {"text": params.get("text", ""), "ts": ts}}
        if method == "chat.postEphemeral":
            return {"ok": True, "message_ts": ts}
        if method in ("views.publish", "views.open", "views.update"):
            if method == "views.open" and not params.get("trigger_id"):
                return {"ok": False, "error": "invalid_trigger_id"}
            view = params.get("view")
            if not isinstance(view, dict) or not isinstance(view.get("blocks"), list):
                return {"ok": False, "error": "invalid_arguments"}
            return {"ok": True, "view": {"id": f"V{next(self._ts)}", **view}}
        if method == "chat.unfurl":
            # As Slack: the message's channel and ts (or its unfurl_id and source), and a
            # JSON object of URL -> attachment.
            unfurls = params.get("unfurls")
            if isinstance(unfurls, str):
                try:
                    unfurls = json.loads(unfurls)
                except ValueError:
                    unfurls = None
            known = (params.get("channel") and params.get("ts")) or (
                params.get("unfurl_id") and params.get("source"))
            if not known:
                return {"ok": False, "error": "invalid_arguments"}
            if not isinstance(unfurls, dict) or not unfurls:
                return {"ok": False, "error": "invalid_unfurls_format"}
            return {"ok": True}
        if method in ("assistant.threads.setSuggestedPrompts", "assistant.threads.setTitle",
                      "assistant.threads.setStatus"):
            # The agent view sets a DM's prompts with no thread (above the composer).
            threadless = method.endswith("SuggestedPrompts")
            if not params.get("channel_id") or not (params.get("thread_ts") or threadless):
                return {"ok": False, "error": "invalid_arguments"}
            if method.endswith("SuggestedPrompts") and not params.get("prompts"):
                return {"ok": False, "error": "invalid_arguments"}
            if method.endswith("setTitle") and not params.get("title"):
                return {"ok": False, "error": "invalid_arguments"}
            if method.endswith("setStatus") and "status" not in params:
                return {"ok": False, "error": "invalid_arguments"}
            return {"ok": True}
        if method in ("agents.sessions.rename", "agents.sessions.setStatus"):
            # The agent view's sessions (slack_sdk's agents_sessions_*): a DM channel, and
            # the title or the status the method names.
            field = "title" if method.endswith("rename") else "status"
            if not params.get("channel_id") or not params.get(field):
                return {"ok": False, "error": "invalid_arguments"}
            return {"ok": True}
        if method in ("functions.completeSuccess", "functions.completeError"):
            execution = params.get("function_execution_id")
            if not execution:
                return {"ok": False, "error": "invalid_arguments"}
            if execution in self.completed_functions:
                return {"ok": False, "error": "function_execution_already_completed"}
            if method.endswith("Success") and not isinstance(params.get("outputs"), dict):
                return {"ok": False, "error": "invalid_arguments"}
            if method.endswith("Error") and not params.get("error"):
                return {"ok": False, "error": "invalid_arguments"}
            self.completed_functions.add(str(execution))
            return {"ok": True}
        if method == "users.info":
            user = str(params.get("user") or "")
            if not user:
                return {"ok": False, "error": "user_not_found"}
            person: dict[str, Any] = {"id": user, "name": user.lower(), "tz": "Asia/Shanghai",
                                      "is_admin": user in self.admins,
                                      "is_owner": False, "is_primary_owner": False}
            # As Slack: the locale only when asked for it.
            if str(params.get("include_locale")).lower() in ("1", "true"):
                person["locale"] = self.locales.get(user, "en-US")
            return {"ok": True, "user": person}
        return {"ok": False, "error": "unknown_method"}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        emulator = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # A response is written as headers, then body: with Nagle's algorithm the body
            # waits for the client to acknowledge the headers (its delayed ACK). Slack's own
            # servers do not make a client wait so; nor does the stand-in.
            disable_nagle_algorithm = True

            def log_message(self, *args: object) -> None:
                pass

            def handle(self) -> None:
                seen = emulator.timeline.opened(self.client_address)
                try:
                    with contextlib.suppress(OSError):  # a client that went away mid-request
                        super().handle()
                finally:
                    emulator.timeline.closed(seen)

            def parse_request(self) -> bool:
                emulator.timeline.request(self.client_address,
                                          getattr(self, "raw_requestline", b""))
                return super().parse_request()

            def do_GET(self) -> None:
                if self.path.startswith("/files-pri/"):
                    self._file()
                    return
                # slack_sdk sends some methods (users.info) as GET with a query string.
                query = self.path.split("?", 1)[1] if "?" in self.path else ""
                self._serve({k: v[0] for k, v in parse_qs(query).items()})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length).decode("utf-8", "replace")
                if self.headers.get("Content-Type", "").startswith("application/json"):
                    params = json.loads(raw or "{}")
                else:
                    params = {k: v[0] for k, v in parse_qs(raw).items()}
                # As Slack: arguments in the query string count too (slack_sdk sends some
                # methods' arguments there, assistant.threads.setTitle for one).
                query = self.path.split("?", 1)[1] if "?" in self.path else ""
                params = {**{k: v[0] for k, v in parse_qs(query).items()}, **params}
                self._serve(params)

            def _file(self) -> None:
                if emulator.latency:  # Slack's file host takes its time as its API does
                    time.sleep(emulator.latency)
                headers = {k.lower(): v for k, v in self.headers.items()}
                with emulator.lock:
                    emulator.calls.append(Call("files", {"_url": self.path}, headers))
                    fault = emulator._take_fault("files")
                    content = emulator.files.get(self.path)
                bearer = headers.get("authorization", "")
                token = bearer.removeprefix("Bearer ")
                # Slack's file URLs name their workspace (files-pri/T0123-F0456/...): a token of
                # another workspace, or none, gets Slack's sign-in page, as a browser would.
                owner = self.path.split("/")[2].split("-", 1)[0] if self.path.count("/") > 2 \
                    else ""
                content_type = "application/octet-stream"
                if content is None:
                    status, content = 404, b"<html>not found</html>"
                elif not bearer.startswith("Bearer xoxb-") or owner != emulator.issued.get(
                        token, TEAM):
                    status, content = 200, b"<html>sign in</html>"
                    content_type = "text/html; charset=utf-8"
                else:
                    status = 200
                if fault and fault.delay:
                    time.sleep(fault.delay)
                if fault and fault.status != 200:
                    status = fault.status
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                if fault and fault.raw is not None:
                    content = fault.raw
                    self.close_connection = True
                else:
                    self.send_header("Content-Length", str(len(content)))
                for k, v in (fault.headers if fault else {}).items():
                    self.send_header(k, v)
                self.end_headers()
                with contextlib.suppress(OSError):
                    for start in range(0, len(content), 1 << 16):
                        self.wfile.write(content[start:start + (1 << 16)])

            def _serve(self, params: dict[str, Any]) -> None:
                for key in ("blocks", "view", "unfurls", "prompts", "outputs"):
                    if isinstance(params.get(key), str):
                        with contextlib.suppress(ValueError):
                            params[key] = json.loads(params[key])
                if self.path.startswith("/response/"):
                    method = "response"
                    params["_url"] = self.path
                else:
                    method = self.path.removeprefix("/api/").split("?", 1)[0]
                headers = {k.lower(): v for k, v in self.headers.items()}
                bearer = headers.get("authorization", "")
                token = bearer.removeprefix("Bearer ") if bearer.startswith("Bearer ") else \
                    str(params.get("token") or "")
                with emulator.lock:
                    fault = emulator._take_fault(method)
                    call = Call(method, params, headers)
                    emulator.calls.append(call)
                if emulator.latency:
                    time.sleep(emulator.latency)
                if fault and fault.delay:
                    time.sleep(fault.delay)
                if fault and fault.drop:
                    self.close_connection = True
                    self.connection.close()
                    return
                if method == "response":
                    body, status = b"ok", 200
                    content_type = "text/plain"
                else:
                    answer = fault.body if fault and fault.body is not None else \
                        emulator._answer(method, params, token)
                    call.result = answer
                    body, status = json.dumps(answer).encode(), 200
                    content_type = "application/json; charset=utf-8"
                if fault and fault.status != 200:
                    status = fault.status
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                for k, v in (fault.headers if fault else {}).items():
                    self.send_header(k, v)
                self.end_headers()
                try:
                    self.wfile.write(body)
                    self.wfile.flush()
                except OSError:
                    return  # the caller hung up (a bot killed mid-call): not answered
                call.answered = True
                emulator.timeline.answered(self.client_address)

        return Handler

    # --- Socket Mode -------------------------------------------------------------------------

    def _ws_handler(self, conn: ServerConnection) -> None:
        if self.close_new_sockets:  # Slack on a bad day: every new connection closed at once
            conn.close()
            return
        with self.lock:
            self.ws_connections.append(conn)
        conn.send(json.dumps({"type": "hello", "num_connections": 1,
                              "connection_info": {"app_id": "A0001"}}))
        try:
            for raw in conn:
                data = json.loads(raw)
                if "envelope_id" in data:
                    with self.lock:
                        self.ws_acks[data["envelope_id"]] = {**data, "_at": time.monotonic()}
        except Exception:  # the client went away: that is what reconnect tests do
            pass
        finally:
            with self.lock:
                if conn in self.ws_connections:
                    self.ws_connections.remove(conn)

    def drop_sockets(self) -> None:
        """Close every Socket Mode connection from Slack's side, as Slack does on a bad day."""
        with self.lock:
            conns = list(self.ws_connections)
        for conn in conns:
            conn.close()

    @staticmethod
    def channel_of(call: Call) -> str:
        """Where a reply landed: its channel, or for a response-URL post the name the URL was
        made with (tests name them after the channel: `response_url(channel)`)."""
        return str(call.params.get("channel") or call.params.get("_url", "").split("/")[-1])

    def to_channel(self, channel: str) -> list[Call]:
        """Replies that landed in one channel: posts, updates, ephemerals, response URLs."""
        return [c for c in self.replies() if self.channel_of(c) == channel]

    def wait_for_channel(self, channel: str, timeout: float = 10.0) -> list[Call]:
        try:
            return wait_until(lambda: self.to_channel(channel), timeout,
                              f"no reply in {channel}")
        except AssertionError as exc:
            raise AssertionError(f"{exc}; {self.timeline.report()}") from None

    def wait_for_socket(self, timeout: float = 15.0) -> ServerConnection:
        return wait_until(lambda: self.ws_connections[-1] if self.ws_connections else None,
                          timeout, "no Socket Mode connection")

    def send_socket_event(self, payload: dict[str, Any], timeout: float = 10.0) -> str:
        """Deliver an events_api envelope and wait for the bot's ack; returns the envelope id."""
        envelope_id = self.send_envelope("events_api", payload)
        wait_until(lambda: self.ws_acks.get(envelope_id), timeout, "no ack for the envelope")
        return envelope_id

    def send_envelope(self, kind: str, payload: dict[str, Any], timeout: float = 15.0) -> str:
        """Deliver an envelope (events_api, slash_commands, interactive) without waiting for
        its ack; a connection that closes as it is sent is dropped and the envelope goes to the
        next one, as Slack delivers to another open connection."""
        envelope_id = str(uuid.uuid4())
        message = json.dumps({"envelope_id": envelope_id, "type": kind,
                              "accepts_response_payload": kind != "events_api",
                              "retry_attempt": 0, "retry_reason": "", "payload": payload})
        deadline = time.monotonic() + timeout
        while True:
            conn = self.wait_for_socket(max(0.1, deadline - time.monotonic()))
            try:
                conn.send(message)
                return envelope_id
            except ConnectionClosed:
                with self.lock:
                    if conn in self.ws_connections:
                        self.ws_connections.remove(conn)
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def acked_at(self, envelope_id: str) -> float | None:
        with self.lock:
            ack = self.ws_acks.get(envelope_id)
        return ack.get("_at") if ack else None


def wait_until(probe: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(what)
