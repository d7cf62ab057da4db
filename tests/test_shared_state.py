"""Several processes sharing one Redis: a retry landing on another process is answered once, and
a conversation goes on wherever its next question lands. Redis down: answered anyway."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from mincards.bot.answering.conversation import Context
from mincards.handlers.state import REDIS_TIMEOUT_SECONDS, RedisState
from tests.bot_process import SIGNING_SECRET, Bot, free_port, running_bot
from tests.conftest import assert_no_secrets
from tests.redis_process import running_redis
from tests.slack_emulator import SlackEmulator
from tests.slack_sender import SlackSender, direct_message, event_callback, mention

PASSWORD = "redis-pw-do-not-leak-1234"


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_redis(tmp_path_factory.mktemp("redis"), password=PASSWORD) as url:
        yield url


@pytest.fixture(scope="module")
def bots(emulator: SlackEmulator, redis_url: str,
         tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Bot]]:
    with contextlib.ExitStack() as stack:
        running = [stack.enter_context(running_bot(
            emulator, tmp_path_factory.mktemp(f"bot{i}"), extra_env={"REDIS_URL": redis_url}))
            for i in range(3)]
        yield running
        for bot in running:
            assert_no_secrets(bot, emulator)
            assert PASSWORD not in bot.log_text()


def senders(bots: list[Bot], emulator: SlackEmulator) -> list[SlackSender]:
    emulator.reset()
    return [SlackSender(b.base_url, SIGNING_SECRET) for b in bots]


def test_a_retry_on_another_process_is_answered_once(bots: list[Bot],
                                                     emulator: SlackEmulator) -> None:
    first, second, third = senders(bots, emulator)
    body = event_callback(mention("qwen2.5-72b lora 8k", channel="CRETRY"))
    assert first.post(json.dumps(body).encode(), "application/json").status == 200
    for sender, attempt in ((second, "1"), (third, "2")):
        reply = sender.post(json.dumps(body).encode(), "application/json",
                            headers={"X-Slack-Retry-Num": attempt,
                                     "X-Slack-Retry-Reason": "http_timeout"})
        assert reply.status == 200
    emulator.wait_for("chat.postMessage")
    time.sleep(0.5)
    assert len(emulator.to_channel("CRETRY")) == 1


def test_a_conversation_goes_on_in_another_process(bots: list[Bot],
                                                   emulator: SlackEmulator) -> None:
    first, second, third = senders(bots, emulator)
    first.event(direct_message("qwen2.5-72b", channel="DSHARE"))
    emulator.wait_for("chat.postMessage")
    second.event(direct_message("and lora?", channel="DSHARE"))
    emulator.wait_for("chat.postMessage", count=2)
    third.event(direct_message("8卡够吗", channel="DSHARE"))
    replies = emulator.wait_for("chat.postMessage", count=3)
    assert "full-parameter" not in replies[1].params["text"]
    assert "Qwen2.5-72B" in replies[1].params["text"]
    assert replies[2].params["text"].startswith("可以") and "Qwen2.5-72B" in replies[2].params[
        "text"]


def test_redis_holds_ids_and_parsed_contexts_never_text(bots: list[Bot], redis_url: str,
                                                        emulator: SlackEmulator) -> None:
    first, *_ = senders(bots, emulator)
    first.event(direct_message("please, Qwen2.5-72B lora at 8k for my thesis", channel="DTEXT"))
    emulator.wait_for("chat.postMessage")
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    keys = client.keys("mincards:*")
    assert keys and all(client.ttl(k) > 0 for k in keys)  # every key expires
    stored = " ".join(str(client.get(k)) for k in keys) + " ".join(keys)
    for word in ("please", "thesis", "my"):
        assert word not in stored.lower()
    context = next(k for k in keys if "DTEXT" in k)
    assert Context.from_json(json.loads(client.get(context) or "")) is not None


def test_redis_going_away_never_stops_an_answer(tmp_path: Path, emulator: SlackEmulator) -> None:
    with contextlib.ExitStack() as bot_stack:
        with running_redis(tmp_path) as url:
            bot = bot_stack.enter_context(running_bot(emulator, tmp_path,
                                                      extra_env={"REDIS_URL": url}))
        # Redis has stopped; the bot, started while it was up, runs on.
        sender = SlackSender(bot.base_url, SIGNING_SECRET)
        emulator.reset()
        start = time.monotonic()
        for i in range(3):
            assert sender.event(mention(f"qwen3-8b lora {i + 4}k", channel="CDOWN")).status == 200
        assert time.monotonic() - start < 3  # acks never wait long on a dead store
        emulator.wait_for("chat.postMessage", count=3)
        time.sleep(0.3)
        log = bot.log_text()
        assert log.count("is unreachable") == 1  # said once, not per request
        assert "Traceback" not in log


def test_the_store_without_a_server(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> tuple[bool, bool, Context | None, float]:
        state = RedisState(f"redis://127.0.0.1:{free_port()}/0")
        start = time.monotonic()
        first = await state.first_time("Ev1")
        again = await state.first_time("Ev1")  # this process still remembers it
        context = Context(kind="lookup", language="en", models=("qwen2.5-7b",))
        await state.remember("T:D1:", context)
        got = await state.context("T:D1:")
        await state.close()
        return first, again, got, time.monotonic() - start

    with caplog.at_level(logging.WARNING):
        first, again, got, took = asyncio.run(scenario())
    assert (first, again) == (True, False)
    assert got == Context(kind="lookup", language="en", models=("qwen2.5-7b",))
    assert took < 2
    assert sum("unreachable" in r.getMessage() for r in caplog.records) == 1


def test_the_store_with_a_server(tmp_path: Path) -> None:
    async def scenario(url: str) -> tuple[bool, bool, Context | None]:
        state = RedisState(url)
        first, again = await state.first_time("Ev9"), await state.first_time("Ev9")
        await state.remember("T:C1:1.2", Context(kind="capacity", language="zh"))
        got = await state.context("T:C1:1.2")
        await state.remember("T:C1:1.2", None)
        assert await state.context("T:C1:1.2") is None
        await state.close()
        return first, again, got

    with running_redis(tmp_path) as url:
        first, again, got = asyncio.run(scenario(url))
        # Another process (another client) sees the same event as answered.
        other = redis.Redis.from_url(url)
        assert other.exists("mincards:event:Ev9") and other.ttl("mincards:event:Ev9") > 800
    assert (first, again) == (True, False) and got == Context(kind="capacity", language="zh")


@pytest.mark.parametrize(("name", "method", "event"), [
    ("link_shared.json", "chat.unfurl", {}),
    ("assistant_user_message.json", "chat.postMessage",
     {"text": "qwen3-8b lora", "thread_ts": "1726133555.000001"}),
    ("function_executed.json", "functions.completeSuccess",
     {"inputs": {"model": "qwen3-8b"}, "function_execution_id": "FxShared1"}),
])
def test_the_newer_surfaces_act_once_across_processes(
        bots: list[Bot], emulator: SlackEmulator, name: str, method: str,
        event: dict[str, object]) -> None:
    from tests.test_slack_surfaces import fixture

    body = json.dumps(fixture(name, **event)).encode()
    for sender, attempt in zip(senders(bots, emulator), ("", "1", "2"), strict=True):
        headers = {"X-Slack-Retry-Num": attempt, "X-Slack-Retry-Reason": "http_timeout"} \
            if attempt else {}
        assert sender.post(body, "application/json", headers=headers).status == 200
    emulator.wait_for(method)
    time.sleep(1.0)
    assert len(emulator.of(method)) == 1


def test_a_busy_process_does_not_take_a_healthy_redis_for_an_outage(tmp_path: Path) -> None:
    # With redis-py's asyncio client the timeout's timer ran on the event loop: a loop held up
    # answering a burst let it fire on a healthy Redis, and the fallback to memory answered
    # retries on two workers twice. 60 claims at once, the loop held 5 x 0.3 s meanwhile.
    async def scenario(url: str) -> tuple[list[bool], bool]:
        state = RedisState(url)
        await state.first_time("EvWarm")  # connected
        loop = asyncio.get_running_loop()
        for k in range(5):
            loop.call_later(0.01 * k, time.sleep, 0.3)
        firsts = await asyncio.gather(*(state.first_time(f"EvBusy{i}") for i in range(60)))
        usable = state._usable()
        await state.close()
        return list(firsts), usable

    with running_redis(tmp_path) as url:
        firsts, usable = asyncio.run(scenario(url))
        other = redis.Redis.from_url(url)
        # Each claim is in Redis, where another process's retry finds it.
        assert sum(other.exists(f"mincards:event:EvBusy{i}") for i in range(60)) == 60
    assert firsts == [True] * 60 and usable


def test_a_hung_redis_costs_one_timeout_then_is_left_alone(
        caplog: pytest.LogCaptureFixture) -> None:
    # A Redis that takes the connection and never answers (stopped, or a network black hole).
    hung = socket.socket()
    hung.bind(("127.0.0.1", 0))
    hung.listen(64)
    port = hung.getsockname()[1]

    async def scenario() -> tuple[float, list[bool], float]:
        state = RedisState(f"redis://127.0.0.1:{port}/0")
        started = time.monotonic()
        # A burst at once: the calls queued behind the first timeout do not wait their own.
        firsts = await asyncio.gather(*(state.first_time(f"EvHung{i}") for i in range(40)))
        burst = time.monotonic() - started
        started = time.monotonic()
        after = [await state.first_time("EvAfter"), await state.first_time("EvAfter")]
        paused = time.monotonic() - started
        await state.close()
        return burst, [*firsts, *after], paused

    try:
        with caplog.at_level(logging.WARNING):
            burst, firsts, paused = asyncio.run(scenario())
    finally:
        hung.close()
    assert firsts == [True] * 40 + [True, False]  # answered, from this process's memory
    assert REDIS_TIMEOUT_SECONDS * 0.9 <= burst < 2.5, burst
    assert paused < 0.5
    assert sum("unreachable" in r.getMessage() for r in caplog.records) == 1
