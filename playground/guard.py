"""Who may drive the playground: the page it serves, nothing else.

The playground listens on 127.0.0.1 only, but a page of any other origin open in the same
browser can still reach 127.0.0.1: by a form or fetch sent cross-site, or by DNS rebinding (a
name of the attacker's that resolves to 127.0.0.1, so the browser treats the playground as that
site). Each request is therefore checked, before any handler runs:

- `Host` must be the loopback address or `localhost` on the port served: a rebound name
  arrives with its own name in `Host` and is refused (421), whatever the path, so no page, feed
  or API answer is read that way;
- a POST must say `Content-Type: application/json` (a cross-site fetch with that header needs a
  CORS preflight, which is never granted; a form cannot send it), and, when the browser says
  where it comes from (`Origin`, `Sec-Fetch-Site`), come from the playground's own page.

No response carries CORS headers, and OPTIONS (a preflight) is refused.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.typedefs import Middleware

LOOPBACK_NAMES = ("127.0.0.1", "localhost")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def own_hosts(port: int) -> frozenset[str]:
    """The `Host` values the playground answers to on `port`."""
    return frozenset(f"{name}:{port}" for name in LOOPBACK_NAMES)


def refusal(request: web.Request, port: int) -> tuple[int, str] | None:
    """(status, one line) when `request` does not come from the playground's own page."""
    hosts = own_hosts(port)
    if request.headers.get("Host", "").lower() not in hosts:
        return 421, "this playground answers only at 127.0.0.1 or localhost on its own port"
    if request.method == "OPTIONS":
        return 403, "the playground is not shared with other origins"
    if request.method not in ("GET", "HEAD"):
        if request.content_type != "application/json":
            return 415, "the playground's API takes application/json only"
        origin = request.headers.get("Origin")
        if origin is not None and origin.lower() not in {f"http://{h}" for h in hosts}:
            return 403, "a page of another origin cannot drive the playground"
        if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            return 403, "a page of another origin cannot drive the playground"
    return None


def guard(port: int) -> Middleware:
    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        refused = refusal(request, port)
        if refused is not None:
            status, line = refused
            return web.Response(status=status, text=line + "\n")
        return await handler(request)

    return middleware
