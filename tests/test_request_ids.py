"""Which request a log line is about (issue 39, item 8): every line written while a request is
handled, its reply after the acknowledgement included, carries its event id, team and a trace
id (JSON fields with LOG_FORMAT=json, `[event_id=… team=… trace_id=…]` in text); and, with
OpenTelemetry configured, the request, its answering, its Slack calls and its database read
arrive at an OTLP collector as spans of one trace, whose id is the one in the log lines. Over
real processes: the bot under gunicorn, the Slack stand-in, a collector on loopback."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from mincards.handlers import tracing
from mincards.playground.slack_stand_in import Fault
from tests.bot_process import SIGNING_SECRET, Bot, running_bot
from tests.slack_emulator import SlackEmulator, wait_until
from tests.slack_sender import SlackSender, event_callback, mention

HEX32 = re.compile(r"[0-9a-f]{32}")


def failing_mention(bot: Bot, emulator: SlackEmulator, event_id: str, team: str) -> None:
    """A mention whose reply Slack refuses, so the bot writes a line about it after the
    acknowledgement."""
    emulator.reset()
    emulator.fail("chat.postMessage", Fault(body={"ok": False, "error": "fatal"}, times=5))
    body = event_callback(mention("qwen2.5-7b lora", channel="CIDS"), event_id=event_id)
    body["team_id"] = team
    body["authorizations"][0]["team_id"] = team
    assert SlackSender(bot.base_url, SIGNING_SECRET).post(
        json.dumps(body), "application/json").status == 200


def lines_about(bot: Bot, event_id: str) -> list[dict[str, Any]]:
    found = []
    for line in bot.log_text().splitlines():
        if line.startswith("{") and event_id in line:
            found.append(json.loads(line))
    return found


def test_each_json_line_about_a_request_carries_its_ids(emulator: SlackEmulator,
                                                        tmp_path: Path) -> None:
    with running_bot(emulator, tmp_path, extra_env={"LOG_FORMAT": "json"}) as bot:
        failing_mention(bot, emulator, "EvIDS00001", "TIDS001")
        wait_until(lambda: any("chat.postMessage" in e["message"]
                               for e in lines_about(bot, "EvIDS00001")), 30,
                   "no line about the refused reply")
        about = lines_about(bot, "EvIDS00001")
        refused = [e for e in about if "chat.postMessage" in e["message"]]
        assert refused and all(e["team"] == "TIDS001" for e in about)
        assert len({e["trace_id"] for e in about}) == 1 and HEX32.fullmatch(about[0]["trace_id"])
        # Lines about no request (the start) carry no ids.
        start = [json.loads(line) for line in bot.log_text().splitlines()[:5]
                 if line.startswith("{")]
        assert start and not any("event_id" in e or "trace_id" in e for e in start)


def test_a_text_line_names_the_request_after_its_message(emulator: SlackEmulator,
                                                         tmp_path: Path) -> None:
    with running_bot(emulator, tmp_path) as bot:
        failing_mention(bot, emulator, "EvIDS00002", "TIDS002")
        pattern = re.compile(r"chat\.postMessage.*\[event_id=EvIDS00002 team=TIDS002 "
                             r"trace_id=[0-9a-f]{32}\]")
        wait_until(lambda: pattern.search(bot.log_text()), 30,
                   "no text line naming the request")


class Collector:
    """An OTLP/HTTP trace receiver on loopback: each span's name, trace id and attributes."""

    def __init__(self) -> None:
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
            ExportTraceServiceRequest,
        )
        self.spans: list[dict[str, Any]] = []
        spans = self.spans

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                request = ExportTraceServiceRequest()
                request.ParseFromString(body)
                for resource in request.resource_spans:
                    for scope in resource.scope_spans:
                        for span in scope.spans:
                            spans.append({
                                "name": span.name, "trace_id": span.trace_id.hex(),
                                "attributes": {a.key: a.value.string_value
                                               for a in span.attributes}})
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def collector() -> Iterator[Collector]:
    pytest.importorskip("opentelemetry.proto", reason="needs mincards[otel] (make setup)")
    running = Collector()
    yield running
    running.close()


def test_traces_reach_an_otlp_collector_with_the_log_lines_trace_id(
        emulator: SlackEmulator, collector: Collector, tmp_path: Path) -> None:
    env = {"LOG_FORMAT": "json", "OTEL_EXPORTER_OTLP_ENDPOINT": collector.url,
           "OTEL_SERVICE_NAME": "mincards-test", "OTEL_BSP_SCHEDULE_DELAY": "100"}
    with running_bot(emulator, tmp_path, extra_env=env) as bot:
        failing_mention(bot, emulator, "EvIDS00003", "TIDS003")

        def the_request() -> list[dict[str, Any]] | None:
            mine = [s for s in collector.spans
                    if s["attributes"].get("event_id") == "EvIDS00003"]
            if not mine:
                return None
            trace = [s for s in collector.spans if s["trace_id"] == mine[0]["trace_id"]]
            names = {s["name"] for s in trace}
            wanted = {"slack.request", "answer", "slack.api", "database.read"}
            return trace if wanted <= names else None

        trace = wait_until(the_request, 30, f"spans seen: {collector.spans[-10:]}")
        request = next(s for s in trace if s["name"] == "slack.request")
        assert request["attributes"] == {"surface": "event", "team": "TIDS003",
                                         "event_id": "EvIDS00003"}
        assert any(s["attributes"].get("method") == "chat.postMessage" for s in trace)
        about = lines_about(bot, "EvIDS00003")
        assert about and {e["trace_id"] for e in about} == {request["trace_id"]}
        assert "OpenTelemetry traces on, as service mincards-test" in bot.log_text()


def test_tracing_is_off_unless_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in tracing.ENDPOINT_ENVS:
        monkeypatch.delenv(name, raising=False)
    assert not tracing.configured()
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")
    assert tracing.configured()
    monkeypatch.setenv("OTEL_SDK_DISABLED", "true")
    assert not tracing.configured()
    with tracing.span("off"):  # a no-op when not started
        assert tracing.current_trace_id() is None
