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

from mincards.playground.slack_stand_in import QuietServer

TOKEN = "hf_test_token_for_the_local_hub"


@dataclass
class HubModel:
    config: bytes
    total: int | None = None          # safetensors parameter count
    gated: bool = False
    slow: float = 0.0                 # seconds before each answer
    garbage: bool = False             # the API answers HTML


class FakeHub:
    def __init__(self, models: dict[str, HubModel]) -> None:
        self.models = models
        self.requests: list[str] = []
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # quiet
                pass

            def do_HEAD(self) -> None:
                hub.answer(self, head=True)

            def do_GET(self) -> None:
                hub.answer(self, head=False)

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

    def answer(self, h: BaseHTTPRequestHandler, head: bool) -> None:
        path = h.path.split("?", 1)[0]
        self.requests.append(f"{h.command} {path}")
        parts = [p for p in path.split("/") if p]
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
        etag = hashlib.sha256(model.config).hexdigest()
        self._send(h, 200, model.config, head, {
            "X-Repo-Commit": "b" * 40, "ETag": f'"{etag}"', "Content-Type": "application/json"})
