"""The framework's floor, for bench/load.py --app bare: a bare Bolt AsyncApp on the same server
stack as `mincards serve` (gunicorn, aiohttp workers, WEB_CONCURRENCY of them), that acks each
mention and /mincards command and posts one fixed reply through one pooled client (a mention
in its thread, a command to its response URL). What mincards adds above this is its own cost.

    python bench/bare_bolt.py     # reads SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, SLACK_API_URL,
                                  # HOST, PORT, WEB_CONCURRENCY from the environment
"""

from __future__ import annotations

import os
from typing import Any

from aiohttp import web

REPLY = {"text": "Qwen2.5-72B · LoRA · 8K: 16 cards (2 nodes) on Snt9B, 16 DIE (1 node) on "
                 "Snt9B23, with MindSpeed-LLM."}


async def make_app() -> web.Application:
    import aiohttp
    from slack_bolt.async_app import AsyncAck, AsyncApp
    from slack_sdk.web.async_client import AsyncWebClient
    from slack_sdk.webhook.async_client import AsyncWebhookClient

    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=512))
    client = AsyncWebClient(token=os.environ["SLACK_BOT_TOKEN"],
                            base_url=os.environ["SLACK_API_URL"], session=session)
    app = AsyncApp(client=client, signing_secret=os.environ["SLACK_SIGNING_SECRET"])

    @app.event("app_mention")
    async def mentioned(event: dict[str, Any], client: AsyncWebClient) -> None:
        await client.chat_postMessage(channel=event["channel"], thread_ts=event["ts"], **REPLY)

    @app.command("/mincards")
    async def command(ack: AsyncAck, body: dict[str, Any]) -> None:
        await ack()
        await AsyncWebhookClient(body["response_url"], session=session).send_dict(
            {"response_type": "ephemeral", **REPLY})

    web_app = app.web_app(path="/slack/events")

    async def healthz(_request: web.Request) -> web.Response:
        return web.Response(text="ok")

    web_app.router.add_get("/healthz", healthz)
    return web_app


def main() -> None:
    from gunicorn.app.base import BaseApplication

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            self.cfg.set("bind", f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ['PORT']}")
            self.cfg.set("workers", int(os.environ.get("WEB_CONCURRENCY", "1")))
            self.cfg.set("worker_class", "aiohttp.GunicornWebWorker")
            self.cfg.set("accesslog", None)
            self.cfg.set("loglevel", "warning")
            self.cfg.set("control_socket_disable", True)

        def load(self) -> Any:
            return make_app

    Server().run()


if __name__ == "__main__":
    main()
