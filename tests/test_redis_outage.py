"""Redis going and coming back, as a real redis-server the test stops and starts again on the
same port (without persistence, as a restart loses its keys):

- an event answered while Redis was away is not answered again when Slack redelivers it after
  Redis returns, by the process that answered it or (once it has written its ids back) another;
- a context key holding something this bot did not write (2,000-deep JSON) is dropped with one
  warning, and the thread is answered;
- a wrong password or no Redis at start-up is one clear line: REDIS_REQUIRED=true exits there,
  the default starts and falls back.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import time
from pathlib import Path

import redis

from tests.bot_process import BOT_TOKEN, MINCARDS, SIGNING_SECRET, free_port, running_bot
from tests.process_exit import run_to_exit
from tests.redis_process import running_redis
from tests.slack_emulator import TEAM, SlackEmulator
from tests.slack_sender import SlackSender, event_callback, mention

# The bot leaves a failed Redis alone this long before trying it again (handlers.state).
PAUSE = 5.5
RETRY = {"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}


def _send(sender: SlackSender, body: dict[str, object], retry: bool = False) -> int:
    return sender.post(json.dumps(body).encode(), "application/json",
                       headers=RETRY if retry else None).status


def test_an_event_answered_during_an_outage_is_not_answered_again(
        tmp_path: Path, emulator: SlackEmulator) -> None:
    port = free_port()
    for folder in ("first", "again", "bot0", "bot1"):
        (tmp_path / folder).mkdir()
    with contextlib.ExitStack() as stack:
        with running_redis(tmp_path / "first", port=port) as url:
            bots = [stack.enter_context(running_bot(emulator, tmp_path / f"bot{i}",
                                                    extra_env={"REDIS_URL": url}))
                    for i in range(2)]
        # Redis is down: both bots answer from their own memory.
        first, second = (SlackSender(b.base_url, SIGNING_SECRET) for b in bots)
        emulator.reset()
        during = event_callback(mention("qwen2.5-7b lora", channel="COUT"))
        assert _send(first, during) == 200
        emulator.wait_for_channel("COUT")
        with running_redis(tmp_path / "again", port=port):  # back, and empty
            time.sleep(PAUSE)
            # The same process: its own memory is asked first.
            assert _send(first, during, retry=True) == 200
            # Its next event writes the outage's ids back, so another process knows them too.
            assert _send(first, event_callback(mention("qwen3-8b lora", channel="CNEXT"))) == 200
            emulator.wait_for_channel("CNEXT")
            assert _send(second, during, retry=True) == 200
            time.sleep(1.0)
            assert len(emulator.to_channel("COUT")) == 1, "answered again after Redis returned"
        for bot in bots:
            assert "Traceback" not in bot.log_text()


def test_a_context_this_bot_did_not_write_is_dropped_with_one_warning(
        tmp_path: Path, emulator: SlackEmulator) -> None:
    (tmp_path / "bot").mkdir()
    with running_redis(tmp_path) as url, running_bot(
            emulator, tmp_path / "bot", extra_env={"REDIS_URL": url}) as bot:
        sender = SlackSender(bot.base_url, SIGNING_SECRET)
        store = redis.Redis.from_url(url)
        emulator.reset()
        for i in range(3):
            thread = f"1700000{i}.000100"
            key = f"mincards:context:{TEAM}:CDEEP:{thread}"
            store.set(key, "[" * 2000 + "]" * 2000 if i else '{"kind": 5}')
            started = time.monotonic()
            assert sender.event(mention("and lora?", channel="CDEEP", thread_ts=thread)
                                ).status == 200
            assert time.monotonic() - started < 1
            emulator.wait_for("chat.postMessage", count=i + 1)
            assert not store.exists(key) or store.get(key) != b"[" * 2000 + b"]" * 2000
        log = bot.log_text()
        assert log.count("dropped a conversation context") == 1  # once a minute, not per key
        assert "RecursionError" not in log and "Traceback" not in log


def _refused(tmp_path: Path, emulator: SlackEmulator, redis_url: str
             ) -> subprocess.CompletedProcess[str]:
    """`mincards serve` with REDIS_REQUIRED, expected to refuse: what it said, once it ended."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "REDIS_"))}
    env.update({"SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_SIGNING_SECRET": SIGNING_SECRET,
                "SLACK_API_URL": emulator.api_url, "HOST": "127.0.0.1",
                "PORT": str(free_port()), "REDIS_URL": redis_url, "REDIS_REQUIRED": "true",
                "XDG_STATE_HOME": str(tmp_path / "state")})
    return run_to_exit([str(MINCARDS), "serve"], env=env, cwd=tmp_path, text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def test_a_wrong_redis_password_is_one_clear_line_at_start(tmp_path: Path,
                                                            emulator: SlackEmulator) -> None:
    with running_redis(tmp_path, password="the-right-one") as url:
        wrong = url.replace("the-right-one", "a-wrong-one-do-not-leak")
        refused = _refused(tmp_path, emulator, wrong)
        code, out = refused.returncode, refused.stdout
        assert code == 2, out
        assert "Redis at 127.0.0.1" in out and "password" in out and "REDIS_REQUIRED" in out
        assert "Traceback" not in out and "a-wrong-one-do-not-leak" not in out
        # It starts (running_bot waits until it answers health checks), and runs until stopped.
        with running_bot(emulator, tmp_path, extra_env={
                "REDIS_URL": wrong, "REDIS_REQUIRED": "false"}) as bot:
            out = bot.log_text()
            assert bot.process.poll() is None, out
        lines = [x for x in out.splitlines() if "Redis at 127.0.0.1" in x]
        assert len(lines) == 1 and "password" in lines[0] and "starting anyway" in lines[0]
        assert "Traceback" not in out and "a-wrong-one-do-not-leak" not in out


def test_no_redis_at_start_is_one_clear_line(tmp_path: Path, emulator: SlackEmulator) -> None:
    url = f"redis://127.0.0.1:{free_port()}/0"
    refused = _refused(tmp_path, emulator, url)
    code, out = refused.returncode, refused.stdout
    assert code == 2 and "cannot be reached" in out and "Traceback" not in out, out
