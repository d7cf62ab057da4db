"""The playground's page and its JSON API, on 127.0.0.1 only. Each call turns what a person did
on the page into what Slack would send the bot (playground/server.py signs and sends it)."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import re
import signal
import sys
import webbrowser
from typing import Any

from aiohttp import web

from mincards.bot.facts.links import model_sites
from mincards.playground.guard import guard
from mincards.playground.server import (
    STATIC,
    USER,
    Playground,
    PlaygroundError,
    refuse_real_slack,
    start_bot,
)
from mincards.playground.slack_stand_in import BOT_USER

CHANNEL, DM = "C0PLAY", "D0PLAY"
MAX_TEXT = 4000
_URL = re.compile(r"https?://[^\s<>|]+")
_MENTION = re.compile(r"@mincards\b", re.IGNORECASE)


def slack_text(typed: str) -> str:
    """What Slack puts in an event's `text` for what a person typed: &, < and > escaped, the
    bot's @-name as a mention."""
    escaped = typed.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MENTION.sub(f"<@{BOT_USER}>", escaped)


def _str(data: dict[str, Any], key: str, limit: int = MAX_TEXT) -> str:
    value = data.get(key)
    return value[:limit] if isinstance(value, str) else ""


def make_app(playground: Playground, port: int) -> web.Application:
    async def body(request: web.Request) -> dict[str, Any]:
        try:
            data = await request.json()
        except (ValueError, UnicodeDecodeError):
            raise web.HTTPBadRequest(text="a JSON object, please") from None
        if not isinstance(data, dict):
            raise web.HTTPBadRequest(text="a JSON object, please")
        return data

    def run(call: Any, *args: Any) -> Any:
        return asyncio.get_running_loop().run_in_executor(None, call, *args)

    async def page(_: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    async def info(_: web.Request) -> web.Response:
        return web.json_response({"user": USER, "bot_user": BOT_USER, "channel": CHANNEL,
                                  "dm": DM, "unfurl_hosts": list(model_sites().hosts),
                                  "agent_view": playground.agent_view})

    async def feed(request: web.Request) -> web.Response:
        try:
            after = max(0, int(request.query.get("after", "0")))
        except ValueError:
            after = 0
        return web.json_response(playground.feed(after))

    async def message(request: web.Request) -> web.Response:
        """A message a person posts: in the channel the bot hears it only when mentioned; in
        its DM always; model links in it are unfurled as Slack would ask the bot to."""
        data = await body(request)
        typed, where = _str(data, "text"), _str(data, "channel", 20)
        thread = _str(data, "thread_ts", 40) or None
        if not typed.strip() or where not in (CHANNEL, DM):
            raise web.HTTPBadRequest(text="text and a channel, please")
        ts = playground.new_ts()
        text = slack_text(typed)
        unfurl_id = f"{where}.{ts}.playground"
        # In the record first, as Slack shows a message before any app hears of it.
        playground.said({"channel": where, "ts": ts, "thread_ts": thread, "text": text,
                         "unfurl_id": unfurl_id})
        sent = []
        base = {"user": USER, "text": text, "ts": ts, "channel": where, "event_ts": ts,
                **({"thread_ts": thread} if thread else {})}
        if where == DM:
            sent.append(await run(playground.event, {**base, "type": "message",
                                                     "channel_type": "im"}))
        elif f"<@{BOT_USER}>" in text:
            sent.append(await run(playground.event, {**base, "type": "app_mention"}))
        hosts = set(model_sites().hosts)
        links = [{"domain": host, "url": url} for url in _URL.findall(typed)
                 if (host := url.split("/")[2].lower().removeprefix("www.")) in hosts]
        if links:
            sent.append(await run(playground.event, {
                "type": "link_shared", "channel": where, "user": USER, "message_ts": ts,
                "source": "conversations_history", "unfurl_id": unfurl_id,
                "links": links, "event_ts": ts, "is_bot_user_member": True,
                **({"thread_ts": thread} if thread else {})}))
        return web.json_response({"ts": ts, "text": text,
                                  "sent": [s.__dict__ for s in sent]})

    async def command(request: web.Request) -> web.Response:
        data = await body(request)
        sent, url = await run(playground.command, _str(data, "text"), CHANNEL)
        return web.json_response({"sent": sent.__dict__, "response_url": url})

    async def interact(request: web.Request) -> web.Response:
        data = await body(request)
        payload = data.get("payload")
        if not isinstance(payload, dict) or payload.get("type") not in (
                "block_actions", "view_submission", "view_closed", "shortcut",
                "message_action"):
            raise web.HTTPBadRequest(text="an interaction payload, please")
        if payload.get("response_url"):
            name = str(payload["response_url"]).rsplit("/", 1)[-1][:80]
            payload["response_url"] = playground.stand_in.response_url(name)
        sent, text = await run(playground.interaction, payload)
        with contextlib.suppress(ValueError):
            return web.json_response({"sent": sent.__dict__, "body": json.loads(text or "{}")})
        return web.json_response({"sent": sent.__dict__, "body": None})

    async def home(_: web.Request) -> web.Response:
        sent = await run(playground.event, {"type": "app_home_opened", "user": USER,
                                            "channel": DM, "tab": "home",
                                            "event_ts": playground.new_ts()})
        return web.json_response({"sent": sent.__dict__})

    async def messages_tab(_: web.Request) -> web.Response:
        """The DM opened, as the agent view says it (app_home_opened, tab "messages")."""
        sent = await run(playground.event, {"type": "app_home_opened", "user": USER,
                                            "channel": DM, "tab": "messages",
                                            "event_ts": playground.new_ts()})
        return web.json_response({"sent": sent.__dict__})

    async def assistant(_: web.Request) -> web.Response:
        ts = playground.new_ts()
        sent = await run(playground.event, {
            "type": "assistant_thread_started", "event_ts": ts,
            "assistant_thread": {"user_id": USER, "channel_id": DM, "thread_ts": ts,
                                 "context": {"channel_id": CHANNEL, "team_id": "T0001"}}})
        return web.json_response({"sent": sent.__dict__, "thread_ts": ts})

    async def locale(request: web.Request) -> web.Response:
        data = await body(request)
        chosen = _str(data, "locale", 10)
        if chosen not in ("en-US", "zh-CN"):
            raise web.HTTPBadRequest(text="en-US or zh-CN")
        playground.stand_in.locales[USER] = chosen
        return web.json_response({"locale": chosen})

    app = web.Application(client_max_size=256 * 1024, middlewares=[guard(port)])
    app.router.add_get("/", page)
    app.router.add_static("/static/", STATIC)
    app.router.add_get("/api/info", info)
    app.router.add_get("/api/feed", feed)
    for path, handler in (("/api/message", message), ("/api/command", command),
                          ("/api/interact", interact), ("/api/home", home),
                          ("/api/assistant", assistant), ("/api/messages-tab", messages_tab),
                          ("/api/locale", locale)):
        app.router.add_post(path, handler)
    return app


async def _serve(playground: Playground, port: int, open_browser: bool) -> None:
    runner = web.AppRunner(make_app(playground, port), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port)
    try:
        await site.start()
    except OSError as exc:
        await runner.cleanup()
        if exc.errno == errno.EADDRINUSE:
            raise PlaygroundError(f"port {port} is in use: pass --port with another") from None
        raise PlaygroundError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror}") from None
    url = f"http://127.0.0.1:{port}/"
    print(f"mincards playground: {url}  (the bot: {playground.bot_url}, its log: "
          f"{playground.log}; Ctrl-C stops both)", flush=True)
    if open_browser:
        with contextlib.suppress(Exception):
            webbrowser.open(url)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await runner.cleanup()


def run_playground(port: int, latency: float = 0.0, open_browser: bool = False) -> int:
    """`mincards playground`: 0 when stopped, 2 with one line when it cannot start."""
    import os

    try:
        refuse_real_slack(dict(os.environ))
        playground = start_bot(latency)
    except PlaygroundError as exc:
        print(f"mincards playground: {exc}", file=sys.stderr)
        return 2
    try:
        asyncio.run(_serve(playground, port, open_browser))
    except PlaygroundError as exc:
        print(f"mincards playground: {exc}", file=sys.stderr)
        return 2
    finally:
        playground.close()
    return 0
