"""The Hub fetch pushed on (issue 40, item 4), against the local Hub on loopback: ids and links
that try to steer it elsewhere, HF_ENDPOINT mistakes, redirects to loopback and private ranges,
a config.json whose size lies, a Hub that trickles bytes, and many distinct ids (the cache on
disk bounded). Tests never reach the real Hub."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from mincards.handlers import hub_cache
from mincards.handlers.hub import HubError, hub_shape, repo_id
from mincards.handlers.hub_client import Refused, check
from tests.fake_hub import FakeHub, HubModel

CONFIG = (Path(__file__).resolve().parent / "configs" / "microsoft--phi-4.json").read_bytes()
TOTAL = 14_659_507_200


class Sink:
    """A service on loopback the Hub's answer points at: it counts who reaches it."""

    def __init__(self) -> None:
        sink = self
        self.hits = 0

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                sink.hits += 1
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            do_HEAD = do_GET

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture()
def sink() -> Iterator[Sink]:
    running = Sink()
    yield running
    running.close()


@pytest.fixture()
def hub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sink: Sink) -> Iterator[FakeHub]:
    models = {
        "good/model": HubModel(CONFIG, total=TOTAL),
        "moved/model": HubModel(CONFIG, total=TOTAL,
                                redirect="/good/model/resolve/main/config.json"),
        "lie/huge": HubModel(CONFIG, total=TOTAL, actual=b'{"pad": "' + b"x" * 50_000_000),
        "slow/trickle": HubModel(CONFIG, total=TOTAL, trickle=0.05),
    }
    for name, target in (("loopback", f"http://127.0.0.1:{sink.port}/config.json"),
                         ("private", "http://10.255.255.1/config.json"),
                         ("metadata", "http://169.254.169.254/latest/meta-data/"),
                         ("v6", "http://[::1]:1/config.json"),
                         ("file", "file:///etc/passwd")):
        models[f"redir/{name}"] = HubModel(CONFIG, total=TOTAL, redirect=target)
    models.update({f"many/model-{i}": HubModel(CONFIG, total=TOTAL) for i in range(15)})
    with FakeHub(models) as running:
        models["redir/localhost"] = HubModel(CONFIG, total=TOTAL, redirect=running.url.replace(
            "127.0.0.1", "localhost") + "/good/model/resolve/main/config.json")
        monkeypatch.setenv("HF_ENDPOINT", running.url)
        monkeypatch.delenv("HF_TOKEN", raising=False)
        monkeypatch.setenv("MINCARDS_CACHE", str(tmp_path / "cache"))
        monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
        monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
        yield running


@pytest.mark.parametrize("text", [
    "huggingface.co@evil.example/Qwen/Qwen2.5-7B", "https://huggingface.co@127.0.0.1/a/b",
    "https://huggingface.co.evil.example/Qwen/Qwen2.5-7B", "https://evil.example/huggingface.co/a/b",
    "http://127.0.0.1/Qwen/Qwen2.5-7B", "http://[::1]/Qwen/Qwen2.5-7B", "http://2130706433/a/b",
    "https://huggingface.co:8080@10.0.0.1/a/b", "Qwen/../etc", "../../etc/passwd",
    "Qwen%2F..%2Fetc/x", "https://huggingface.co/a%2F..%2Fb/c", "Qwen/Qwen2.5-7B@main",
    "Qwen/Qwen2.5-7B?x=1", "Qwen/Qwen2.5-7B#x", "\\\\evil\\share", "Qwen/Qwen2.5-7B\\..",
    "Qwen/Qwen2.5-7B/../../x", "Qwen/Qwen2.5-7B\x00", "hf.co/datasets/a/b", "/Qwen/Qwen2.5-7B",
])
def test_ids_and_links_that_steer_elsewhere_are_no_hub_id(text: str) -> None:
    found = repo_id(text)
    # Either not a Hub model at all, or a plain owner/name with nothing to steer by.
    assert found is None or (found.count("/") == 1 and not set(found) & set("@%?#\\:.") - {"."}
                             and ".." not in found), found


@pytest.mark.parametrize(("endpoint", "said"), [
    ("file:///etc/passwd", "not an http(s) address"), ("ftp://127.0.0.1/", "not an http(s)"),
    ("http://127.0.0.1:notaport", "no valid port"), ("http://:80", "not an http(s) address"),
    ("http://user:s3cret-pass@127.0.0.1:1", "cannot reach Hugging Face at 127.0.0.1")])
def test_hf_endpoint_mistakes_are_one_line_without_its_credentials(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, endpoint: str, said: str) -> None:
    monkeypatch.setenv("HF_ENDPOINT", endpoint)
    monkeypatch.setenv("MINCARDS_CACHE", str(tmp_path / "cache"))
    with pytest.raises(HubError) as caught:
        hub_shape("good/model", deadline=5)
    line = str(caught.value)
    assert said in line and "\n" not in line and "s3cret" not in line


@pytest.mark.parametrize("name", ["loopback", "localhost", "private", "metadata", "v6", "file"])
def test_a_redirect_off_the_hub_to_a_local_or_private_address_is_not_followed(
        hub: FakeHub, sink: Sink, name: str) -> None:
    started = time.monotonic()
    with pytest.raises(HubError) as caught:
        hub_shape(f"redir/{name}", deadline=10)
    line = str(caught.value)
    assert "\n" not in line and (
        "private or local address" in line or "schemeless" in line or "file address" in line
        or "cannot read" in line), line
    assert sink.hits == 0
    # Refused before any connection: no wait on 10.255.255.1 or the metadata address.
    assert time.monotonic() - started < 8


def test_a_redirect_within_the_hub_is_followed(hub: FakeHub) -> None:
    """A renamed repository: the Hub's own relative redirect, as huggingface.co sends."""
    assert abs(hub_shape("moved/model").params_b - 14.66) < 0.01


@pytest.mark.parametrize(("url", "allowed"), [
    ("https://huggingface.co/a/b/resolve/main/config.json", True),
    ("https://cdn-lfs.hf.co/x", True), ("https://cas-bridge.xethub.hf.co/x", True),
    ("http://127.0.0.1:6379/", False), ("http://localhost/", False),
    ("http://192.168.1.1/", False), ("http://[fd00::1]/", False), ("http://0.0.0.0/", False),
    ("http://169.254.169.254/", False), ("gopher://huggingface.co/", False),
    ("http://[::ffff:127.0.0.1]/", False), ("http://8.8.8.8/", True)])
def test_what_a_hub_request_may_reach(monkeypatch: pytest.MonkeyPatch, url: str,
                                      allowed: bool) -> None:
    monkeypatch.setenv("HF_ENDPOINT", "https://huggingface.co")
    if allowed:
        check(url)
    else:
        with pytest.raises(Refused):
            check(url)


def test_a_config_whose_size_lies_is_cut_at_a_megabyte(hub: FakeHub) -> None:
    """The HEAD says a few KB; the GET sends 50 MB with no length: read up to 1 MB only."""
    started = time.monotonic()
    with pytest.raises(HubError) as caught:
        hub_shape("lie/huge", deadline=20)
    assert "a few KB" in str(caught.value) and "\n" not in str(caught.value)
    assert time.monotonic() - started < 15


def test_a_hub_that_trickles_is_given_up_on_and_its_thread_ends(hub: FakeHub) -> None:
    """One byte every 50 ms (the whole config would take over 30 s): given up at the deadline,
    and the fetch's own thread stops reading soon after, not at the trickle's end."""
    started = time.monotonic()
    with pytest.raises(HubError) as caught:
        hub_shape("slow/trickle", deadline=2)
    assert "did not answer within 2 s" in str(caught.value)
    assert time.monotonic() - started < 6
    deadline = time.monotonic() + 15
    while any(t.name == "mincards-hub" for t in threading.enumerate()):
        assert time.monotonic() < deadline, "the trickled fetch was still reading"
        time.sleep(0.1)


def test_many_distinct_ids_keep_the_cache_bounded(hub: FakeHub, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hub_cache, "MAX_FILES", 10)
    for i in range(15):
        hub_shape(f"many/model-{i}")
    kept = list((tmp_path / "cache" / "hub").glob("*.json"))
    assert 0 < len(kept) <= 10
    # The newest is among those kept; nothing of the config itself is kept.
    asked = len(hub.requests)
    hub_shape("many/model-14")
    assert len(hub.requests) == asked
    assert not (tmp_path / "cache" / "hub" / "files").exists()
