"""A restart loses nothing: on SIGTERM the bot stops taking requests and finishes the ones it has
already acknowledged (Slack never sends an acknowledged event again), in both modes."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from tests.bot_process import SIGNING_SECRET, running_bot
from tests.slack_emulator import SlackEmulator
from tests.slack_sender import SlackSender, event_callback, mention

SLOW_SLACK = 1.5  # seconds per Web API call: replies are still in flight at the SIGTERM
COUNT = 20


def _stop(pid: int, timeout: float = 40, sig: signal.Signals = signal.SIGTERM) -> int:
    os.killpg(pid, sig)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            finished, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return 0
        if finished:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    raise AssertionError("the bot did not exit after SIGTERM")


def test_http_mode_finishes_what_it_acknowledged(tmp_path: Path) -> None:
    with SlackEmulator(latency=SLOW_SLACK) as emulator, running_bot(
            emulator, tmp_path, extra_env={"WEB_CONCURRENCY": "2"}) as bot:
        sender = SlackSender(bot.base_url, SIGNING_SECRET)
        emulator.reset()
        for i in range(COUNT):
            assert sender.event(mention("qwen2.5-72b lora 8k", channel=f"CS{i:03d}")).status == 200
        assert sum(c.answered for c in emulator.of("chat.postMessage")) < COUNT  # in flight
        code = _stop(bot.process.pid)
        answered = {c.params.get("channel") for c in emulator.of("chat.postMessage")
                    if c.answered}
        log = bot.log_text()
    assert answered == {f"CS{i:03d}" for i in range(COUNT)}
    assert code == 0 and "Traceback" not in log
    assert "finishing" in log


def test_socket_mode_finishes_what_it_acknowledged(tmp_path: Path) -> None:
    with SlackEmulator(latency=SLOW_SLACK) as emulator, running_bot(
            emulator, tmp_path, socket_mode=True) as bot:
        emulator.reset()
        for i in range(COUNT):
            # send_socket_event returns once the bot has acknowledged the envelope.
            emulator.send_socket_event(event_callback(mention("glm4-9b full",
                                                              channel=f"CW{i:03d}")))
        assert sum(c.answered for c in emulator.of("chat.postMessage")) < COUNT
        code = _stop(bot.process.pid)
        answered = {c.params.get("channel") for c in emulator.of("chat.postMessage")
                    if c.answered}
        log = bot.log_text()
    assert answered == {f"CW{i:03d}" for i in range(COUNT)}
    assert code == 0 and "Traceback" not in log


def test_socket_mode_drains_on_sighup_with_replies_waiting_on_a_429(tmp_path: Path) -> None:
    """A closed terminal sends SIGHUP: it used to kill Socket Mode at once, losing what was
    acknowledged; now it drains as SIGTERM does, retries after Slack's 429 included."""
    from tests.slack_emulator import Fault

    with SlackEmulator(latency=0.3) as emulator, running_bot(
            emulator, tmp_path, socket_mode=True) as bot:
        emulator.reset()
        emulator.fail("chat.postMessage", Fault(status=429, headers={"Retry-After": "1"},
                                                body={"ok": False, "error": "ratelimited"},
                                                times=3))
        for i in range(5):
            emulator.send_socket_event(event_callback(mention("glm4-9b full",
                                                              channel=f"CH{i:03d}")))
        code = _stop(bot.process.pid, sig=signal.SIGHUP)
        answered = {c.params.get("channel") for c in emulator.of("chat.postMessage")
                    if c.answered and c.result and c.result.get("ok")}
        log = bot.log_text()
    assert answered == {f"CH{i:03d}" for i in range(5)}
    assert code == 0 and "stopping on SIGHUP" in log and "Traceback" not in log


def test_a_new_workers_first_requests_never_wait_on_auth_test(tmp_path: Path) -> None:
    """auth.test is asked once, by `serve` before it listens; workers forked after it answer
    their first requests at once. Before: one auth.test per concurrent first request, each
    acknowledgement after it (4.0 s with Slack at 4 s; a 500 past 10 s)."""
    import concurrent.futures
    import json

    from tests.slack_emulator import Fault

    with SlackEmulator() as emulator:
        emulator.fail("auth.test", Fault(delay=4.0, times=1000))
        with running_bot(emulator, tmp_path, extra_env={"WEB_CONCURRENCY": "2"}) as bot:
            sender = SlackSender(bot.base_url, SIGNING_SECRET)
            bodies = [json.dumps(event_callback(mention("qwen3-8b lora", channel=f"CA{i:03d}")))
                      for i in range(20)]

            def post(body: str) -> tuple[int, float]:
                started = time.monotonic()
                status = sender.post(body, "application/json").status
                return status, time.monotonic() - started

            with concurrent.futures.ThreadPoolExecutor(20) as pool:
                results = list(pool.map(post, bodies))
            assert all(status == 200 for status, _ in results)
            assert max(took for _, took in results) < 1.0, results
            emulator.wait_for("chat.postMessage", count=20, timeout=20)
            assert len(emulator.of("auth.test")) == 1  # serve's own, before it listened


def test_the_drain_ends_inside_the_platforms_grace_period(tmp_path: Path) -> None:
    """DRAIN_SECONDS bounds the drain (and gunicorn's graceful timeout, one second more): with
    Slack taking 30 s a call and DRAIN_SECONDS=2, a stopped bot with a reply in flight exits in
    well under Docker's 10 s, saying what it left unfinished, never killed mid-way."""
    from tests.slack_emulator import Fault

    with SlackEmulator() as emulator, running_bot(
            emulator, tmp_path, extra_env={"WEB_CONCURRENCY": "2", "DRAIN_SECONDS": "2"}) as bot:
        emulator.fail("chat.postMessage", Fault(delay=30.0, times=1))
        sender = SlackSender(bot.base_url, SIGNING_SECRET)
        assert sender.event(mention("qwen2.5-72b lora 8k", channel="CDRAIN")).status == 200
        emulator.wait_for("chat.postMessage", timeout=20)  # in flight, not answered
        started = time.monotonic()
        code = _stop(bot.process.pid, timeout=20)
        took = time.monotonic() - started
        log = bot.log_text()
    assert code == 0, log[-3000:]
    assert took < 8, f"took {took:.1f} s to exit"
    assert "still unfinished after 2 s" in log
