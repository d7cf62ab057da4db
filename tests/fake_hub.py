"""A local stand-in for the Hugging Face Hub on loopback, answering as the Hub does the requests
huggingface_hub makes for a model's shape: `GET /api/models/{repo}` (model info, with the
safetensors parameter count), `HEAD`/`GET /{repo}/resolve/{revision}/config.json` (with the
X-Repo-Commit and ETag headers the library needs). Gated repositories answer 401 with
`X-Error-Code: GatedRepo` unless the token is TOKEN; unknown ones 404 `RepoNotFound`. A model
can be slow (each answer waits) or answer garbage. Tests point HF_ENDPOINT at it."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from types import TracebackType
from urllib.parse import parse_qs, urlsplit

from mincards.playground.slack_stand_in import QuietServer

TOKEN = "hf_test_token_for_the_local_hub"


@dataclass
class HubModel:
    config: bytes
    total: int | None = None          # safetensors parameter count
    gated: bool = False
    slow: float = 0.0                 # seconds before each answer
    garbage: bool = False             # the API answers HTML
    downloads: int = 0                # how the Hub's search orders it
    redirect: str | None = None       # config.json answered 302 to this Location
    actual: bytes | None = None       # config.json's GET sends this, its HEAD the config's size
    trickle: float = 0.0              # seconds between bytes of config.json's GET


class FakeHub:
    def __init__(self, models: dict[str, HubModel], extra_ids: list[str] | None = None) -> None:
        """`extra_ids`: more ids the search finds (no config behind them), as the real Hub
        finds many copies and fine-tunes of a name."""
        self.models = models
        self.extra_ids = extra_ids or []
        self.searches: list[str] = []
        self.requests: list[str] = []
        # Models whose requests are being answered now, and the most there ever were at once
        # (by model: one look-up's next request can arrive before its last one's handler ends).
        self.active: dict[str, int] = {}
        self.most_at_once = 0
        self._lock = threading.Lock()
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # quiet
                pass

            def do_HEAD(self) -> None:
                hub.counted(self, head=True)

            def do_GET(self) -> None:
                hub.counted(self, head=False)

        self.server = QuietServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def __enter__(self) -> FakeHub:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _send(self, h: BaseHTTPRequestHandler, status: int, body: bytes, head: bool,
              headers: dict[str, str]) -> None:
        h.send_response(status)
        for name, value in {**headers, "Content-Length": str(len(body))}.items():
            h.send_header(name, value)
        h.end_headers()
        if not head:
            h.wfile.write(body)

    def search(self, h: BaseHTTPRequestHandler, head: bool) -> None:
        """The Hub's model search: ids holding the words searched for (case aside), most
        downloaded first, up to `limit`."""
        query = parse_qs(urlsplit(h.path).query)
        words = (query.get("search") or [""])[0].lower().split()
        self.searches.append(" ".join(words))
        limit = int((query.get("limit") or ["1000"])[0])
        ranked = sorted(((m.downloads, repo) for repo, m in self.models.items()), reverse=True)
        ids = [repo for _, repo in ranked] + self.extra_ids
        found = [{"id": repo, "modelId": repo, "_id": str(i), "downloads":
                  self.models[repo].downloads if repo in self.models else 0}
                 for i, repo in enumerate(ids) if all(w in repo.lower() for w in words)]
        self._send(h, 200, json.dumps(found[:limit]).encode(), head,
                   {"Content-Type": "application/json"})

    def counted(self, h: BaseHTTPRequestHandler, head: bool) -> None:
        parts = [p for p in h.path.split("?", 1)[0].split("/") if p]
        repo = "/".join(parts[2:4] if parts[:2] == ["api", "models"] else parts[:2])
        with self._lock:
            self.active[repo] = self.active.get(repo, 0) + 1
            self.most_at_once = max(self.most_at_once, len(self.active))
        try:
            self.answer(h, head)
        finally:
            with self._lock:
                self.active[repo] -= 1
                if not self.active[repo]:
                    del self.active[repo]

    def answer(self, h: BaseHTTPRequestHandler, head: bool) -> None:
        path = h.path.split("?", 1)[0]
        self.requests.append(f"{h.command} {path}")
        parts = [p for p in path.split("/") if p]
        if parts == ["api", "models"]:
            self.search(h, head)
            return
        api = parts[:2] == ["api", "models"]
        repo = "/".join(parts[2:4] if api else parts[:2])
        model = self.models.get(repo)
        if model is None:
            self._send(h, 404, b'{"error":"Repository not found"}', head,
                       {"X-Error-Code": "RepoNotFound", "Content-Type": "application/json"})
            return
        if model.slow:
            time.sleep(model.slow)
        if api:
            if model.garbage:
                self._send(h, 200, b"<html>not json</html>", head, {"Content-Type": "text/html"})
                return
            info: dict[str, object] = {"id": repo, "modelId": repo, "sha": "a" * 40,
                                       "gated": "manual" if model.gated else False}
            if model.total is not None:
                info["safetensors"] = {"parameters": {"BF16": model.total},
                                       "total": model.total}
            self._send(h, 200, json.dumps(info).encode(), head,
                       {"Content-Type": "application/json"})
            return
        if parts[2:3] != ["resolve"] or parts[-1] != "config.json":
            self._send(h, 404, b"{}", head, {"X-Error-Code": "EntryNotFound"})
            return
        if model.gated and h.headers.get("Authorization") != f"Bearer {TOKEN}":
            self._send(h, 401, b'{"error":"Access to model is restricted"}', head,
                       {"X-Error-Code": "GatedRepo", "Content-Type": "application/json"})
            return
        if model.redirect:
            self._send(h, 302, b"", head, {"Location": model.redirect})
            return
        etag = hashlib.sha256(model.config).hexdigest()
        headers = {"X-Repo-Commit": "b" * 40, "ETag": f'"{etag}"',
                   "Content-Type": "application/json"}
        if head or (model.actual is None and not model.trickle):
            self._send(h, 200, model.config, head, headers)
            return
        # A GET that is not what the HEAD said: more bytes, with no length to warn of them
        # (the connection's end is the body's), or the config's bytes one at a time.
        h.send_response(200)
        for name, value in headers.items():
            h.send_header(name, value)
        if model.trickle:
            h.send_header("Content-Length", str(len(model.config)))
        h.end_headers()
        try:
            if model.actual is not None:
                for start in range(0, len(model.actual), 1 << 16):
                    h.wfile.write(model.actual[start:start + (1 << 16)])
            else:
                for byte in model.config:
                    h.wfile.write(bytes([byte]))
                    h.wfile.flush()
                    time.sleep(model.trickle)
        except OSError:
            pass  # the bot stopped reading, as it should
        h.close_connection = True
