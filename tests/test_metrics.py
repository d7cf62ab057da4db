"""/metrics: Prometheus' text format on a listener of its own (METRICS_PORT, on 127.0.0.1),
in HTTP mode under gunicorn with several workers (multiprocess mode) and in Socket Mode; never
on the public port, and never a person's text or a typed model name in a label."""

from __future__ import annotations

import json
import os
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from mincards.bot.facts.checked_cache import CACHE_ENV
from tests.bot_process import SIGNING_SECRET, Bot, free_port, running_bot
from tests.process_exit import run_to_exit
from tests.slack_emulator import SlackEmulator
from tests.slack_sender import SlackSender, mention

NAMES = ("mincards_requests_total", "mincards_ack_seconds_bucket", "mincards_reply_seconds_count",
         "mincards_answers_total", "mincards_slack_calls_total",
         "mincards_redis_fallbacks_total", "mincards_connections_total")
TYPED = "zzqmodel"  # a model name no table has, typed by a person


def scrape(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain")
        return response.read().decode()


def value(text: str, name: str, **labels: str) -> float:
    """The sum of a metric's samples whose labels include `labels`."""
    total = 0.0
    for line in text.splitlines():
        m = re.match(rf"^{name}(?:{{(.*)}})? (\S+)$", line)
        if m and all(f'{k}="{v}"' in (m.group(1) or "") for k, v in labels.items()):
            total += float(m.group(2))
    return total


@pytest.fixture(scope="module")
def metrics_port() -> int:
    return free_port()


@pytest.fixture(scope="module")
def bot(emulator: SlackEmulator, tmp_path_factory: pytest.TempPathFactory,
        metrics_port: int) -> Iterator[Bot]:
    # A Redis nobody listens on: every call falls back, and is counted.
    with running_bot(emulator, tmp_path_factory.mktemp("metrics"), extra_env={
            "WEB_CONCURRENCY": "2", "METRICS_PORT": str(metrics_port),
            "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"}) as running:
        yield running


def test_http_mode_counts_what_an_operator_watches(bot: Bot, emulator: SlackEmulator,
                                                   metrics_port: int) -> None:
    sender = SlackSender(bot.base_url, SIGNING_SECRET)
    emulator.reset()
    for i in range(6):  # spread over both workers
        assert sender.event(mention(f"qwen2.5-7b lora {i}k", channel=f"CM{i}")).status == 200
    assert sender.event(mention(f"{TYPED}-7b full", channel="CMISS")).status == 200
    assert sender.command("what fits on 8 cards", emulator.response_url("CMCMD")).status == 200
    assert sender.post(b"{}", "application/json", signature="v0=forged").status == 401
    emulator.wait_for("chat.postMessage", count=7)
    emulator.wait_for_channel("CMCMD")
    time.sleep(0.5)
    text = scrape(metrics_port)
    for name in NAMES:
        assert name in text, name
    assert value(text, "mincards_requests_total", surface="event", outcome="accepted") >= 7
    assert value(text, "mincards_requests_total", surface="command", outcome="accepted") >= 1
    assert value(text, "mincards_requests_total", outcome="bad_signature") >= 1
    assert value(text, "mincards_answers_total", intent="lookup") >= 6
    assert value(text, "mincards_answers_total", intent="not_found") >= 1
    assert value(text, "mincards_answers_total", intent="capacity") >= 1
    assert value(text, "mincards_slack_calls_total", method="chat.postMessage",
                 outcome="ok") >= 7
    assert value(text, "mincards_slack_calls_total", method="response_url", outcome="ok") >= 1
    assert value(text, "mincards_ack_seconds_count") >= 9
    assert value(text, "mincards_reply_seconds_count") >= 8
    assert value(text, "mincards_redis_fallbacks_total") >= 1
    assert value(text, "mincards_connections_total", event="opened") >= 9


def test_no_label_holds_what_a_person_typed(bot: Bot, metrics_port: int) -> None:
    text = scrape(metrics_port)
    assert TYPED not in text and "qwen" not in text.lower() and "fits" not in text


def test_the_public_port_never_shows_metrics(bot: Bot) -> None:
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(bot.base_url + "/metrics", timeout=5)
    refused.value.close()
    assert refused.value.code in (404, 405)


@pytest.mark.parametrize("named_folder", [False, True])
def test_socket_mode_serves_metrics_too(emulator: SlackEmulator, tmp_path: Path,
                                        named_folder: bool) -> None:
    """With PROMETHEUS_MULTIPROC_DIR named, Socket Mode counts in multiprocess mode too: another
    program's .db file in that folder must not reach (and break) /metrics."""
    port = free_port()
    env = {"METRICS_PORT": str(port)}
    if named_folder:
        (tmp_path / "samples").mkdir()
        (tmp_path / "samples" / "important.db").write_bytes(b"another program's")
        env["PROMETHEUS_MULTIPROC_DIR"] = str(tmp_path / "samples")
    with running_bot(emulator, tmp_path, socket_mode=True, extra_env=env):
        emulator.reset()
        emulator.send_socket_event({"type": "event_callback", "team_id": "T0001",
                                    "event_id": "EvMetrics1",
                                    "event": mention("qwen2.5-7b lora", channel="CSOCK")})
        emulator.wait_for_channel("CSOCK")
        time.sleep(0.3)
        text = scrape(port)
    assert value(text, "mincards_requests_total", surface="event", outcome="accepted") >= 1
    assert value(text, "mincards_ack_seconds_count") >= 1
    assert value(text, "mincards_answers_total", intent="lookup") >= 1


def test_a_metrics_port_in_use_is_one_clear_line(emulator: SlackEmulator,
                                                  tmp_path: Path) -> None:
    import socket

    from tests.bot_process import BOT_TOKEN, MINCARDS

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        # The tests' own home and facts cache: nothing shared with another process.
        env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), CACHE_ENV: os.environ[CACHE_ENV],
               "SLACK_BOT_TOKEN": BOT_TOKEN,
               "SLACK_SIGNING_SECRET": SIGNING_SECRET, "SLACK_API_URL": emulator.api_url,
               "HOST": "127.0.0.1", "PORT": str(free_port()),
               "METRICS_PORT": str(taken.getsockname()[1]),
               "XDG_STATE_HOME": str(tmp_path / "state")}
        result = run_to_exit([str(MINCARDS), "serve"], env=env, cwd=tmp_path,
                             capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert "cannot listen for metrics" in result.stderr and "Traceback" not in result.stderr


def test_the_newer_surfaces_are_counted(bot: Bot, emulator: SlackEmulator,
                                        metrics_port: int) -> None:
    from tests.test_slack_surfaces import fixture, links

    sender = SlackSender(bot.base_url, SIGNING_SECRET)
    emulator.reset()
    for body in (fixture("link_shared.json", links=links("https://hf.co/Qwen/Qwen3-8B")),
                 fixture("link_shared.json", links=links("https://hf.co/datasets/a/b")),
                 fixture("assistant_thread_started.json"),
                 fixture("function_executed.json", inputs={"model": "qwen3-8b"},
                         function_execution_id="FxMetrics1")):
        assert sender.post(json.dumps(body), "application/json").status == 200
    emulator.wait_for("chat.unfurl")
    emulator.wait_for("functions.completeSuccess")
    emulator.wait_for("assistant.threads.setSuggestedPrompts")
    time.sleep(0.5)
    text = scrape(metrics_port)
    for surface, result in (("unfurl", "unfurled"), ("unfurl", "no_model_link"),
                            ("assistant", "started"), ("workflow_step", "completed")):
        assert value(text, "mincards_surface_results_total", surface=surface,
                     result=result) >= 1, (surface, result)
    assert value(text, "mincards_slack_calls_total", method="chat.unfurl", outcome="ok") >= 1
