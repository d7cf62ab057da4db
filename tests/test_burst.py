"""A burst of 200 signed requests in one second (mentions, DMs and /mincards, some in the shapes
Slack's own examples have), on a Slack that answers at once and on one that takes 0.3 s a call,
with one process and with two workers sharing Redis: every request is acknowledged within
Slack's 3 s and answered exactly once, counted per request.

And an answer that may have landed is not sent a second way: a response-URL post whose answer
never came is not followed by chat.postEphemeral."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from tests.bot_process import SIGNING_SECRET, running_bot
from tests.redis_process import running_redis
from tests.slack_emulator import Call, Fault, SlackEmulator
from tests.slack_sender import (
    SlackSender,
    direct_message,
    event_callback,
    mention,
    new_trigger,
)

BURST = 200
FORM = "application/x-www-form-urlencoded"
QUESTIONS = ("qwen2.5-72b lora 8k", "llama3.1-70b full", "Qwen/Qwen2.5-7B-Instruct 全参",
             "what fits on 2 nodes?", "qwen2.5-32b vs qwen2.5-72b", "", "help", "kimi k2 lora?")
# Slack's slash-command examples (../shared/real-payloads) all carry this trigger id.
EXAMPLE_TRIGGER = "111.111.xxx"
EXAMPLE_EVENT_ID = "Ev111"


@dataclass(frozen=True)
class Request:
    key: str          # what its answer is found by: a thread ts, a DM channel, a response URL
    body: bytes
    content_type: str


def requests(emulator: SlackEmulator) -> list[Request]:
    """Mentions (half in one busy channel, each its own thread, some with the event id of
    Bolt's examples), DMs, commands (some with the trigger id of Slack's examples, some with
    no text): each one traceable."""
    made = []
    for i in range(BURST):
        question = QUESTIONS[i % len(QUESTIONS)] or "qwen3-8b lora"
        kind = i % 4
        if kind in (0, 1):
            event = mention(question, channel="CBUSY" if kind == 0 else f"CB{i:04d}")
            # Bolt's examples all carry this event id: copies of them are still events apart.
            shared_id = EXAMPLE_EVENT_ID if i % 8 == 1 else None
            made.append(Request(f"thread:{event['ts']}",
                                json.dumps(event_callback(event, shared_id)).encode(),
                                "application/json"))
        elif kind == 2:
            event = direct_message(question, channel=f"DB{i:04d}")
            # The agent view (AGENT_VIEW, on by default) answers a DM in its own thread.
            made.append(Request(f"thread:{event['ts']}",
                                json.dumps(event_callback(event)).encode(), "application/json"))
        else:
            url = emulator.response_url(f"R{i:04d}")
            trigger = EXAMPLE_TRIGGER if i % 8 == 3 else new_trigger()
            form = {"token": "legacy", "team_id": "T0001", "channel_id": "CBUSY",
                    "user_id": f"U{i:04d}", "command": "/mincards",
                    "text": QUESTIONS[i % len(QUESTIONS)], "response_url": url,
                    "trigger_id": trigger, "api_app_id": "A0001"}
            made.append(Request(f"url:R{i:04d}", urlencode(form).encode(), FORM))
    return made


def answered_to(call: Call) -> str:
    if call.method == "response":
        return "url:" + str(call.params["_url"]).rsplit("/", 1)[1]
    thread = call.params.get("thread_ts")
    if thread:
        return f"thread:{thread}"
    return f"channel:{call.params.get('channel')}"


def send_burst(sender: SlackSender, made: list[Request]) -> list[tuple[int, float]]:
    """Each request at its moment in one second, open loop, on a connection of its own."""
    acks: list[tuple[int, float]] = [(0, 0.0)] * len(made)

    def send(index: int, request: Request) -> None:
        started = time.monotonic()
        status = sender.post(request.body, request.content_type).status
        acks[index] = (status, time.monotonic() - started)

    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=64) as pool:
        for index, request in enumerate(made):
            delay = start + index / len(made) - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            pool.submit(send, index, request)
    return acks


def counted(emulator: SlackEmulator, made: list[Request]) -> Counter[str]:
    """Answers per request, once every request has one (or 60 s passed), and a second more for
    any doubled answer to arrive."""
    wanted = {r.key for r in made}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if wanted <= {answered_to(c) for c in emulator.replies()}:
            break
        time.sleep(0.1)
    time.sleep(1.0)
    return Counter(answered_to(c) for c in emulator.replies())


@contextlib.contextmanager
def processes(tmp_path: Path, workers: int) -> Iterator[dict[str, str]]:
    if workers == 1:
        yield {"LOG_LEVEL": "WARNING"}
        return
    with running_redis(tmp_path) as url:
        yield {"LOG_LEVEL": "WARNING", "WEB_CONCURRENCY": str(workers), "REDIS_URL": url}


@pytest.mark.parametrize(("latency", "workers"), [(0.0, 1), (0.3, 1), (0.3, 2)],
                         ids=["slack-at-once", "slack-0.3s", "slack-0.3s-two-workers-redis"])
def test_a_burst_is_acknowledged_in_time_and_every_request_answered_exactly_once(
        tmp_path: Path, latency: float, workers: int) -> None:
    with processes(tmp_path, workers) as env, SlackEmulator(latency=latency) as emulator, \
            running_bot(emulator, tmp_path, extra_env=env) as bot:
        made = requests(emulator)
        assert len({r.key for r in made}) == BURST
        emulator.reset()
        acks = send_burst(SlackSender(bot.base_url, SIGNING_SECRET), made)
        answers = counted(emulator, made)
        log = bot.log_text()
    assert [status for status, _ in acks] == [200] * BURST
    assert max(seconds for _, seconds in acks) < 3.0
    wrong = {r.key: answers.get(r.key, 0) for r in made if answers.get(r.key, 0) != 1}
    assert wrong == {}, f"answered 0 or 2+ times: {wrong}"
    assert set(answers) == {r.key for r in made}  # nothing answered that was not asked
    assert "Traceback" not in log


def test_a_burst_replayed_byte_for_byte_is_answered_once(tmp_path: Path) -> None:
    """The burst's commands and events sent again exactly as they were (same bytes, same
    signature): replays and retries, acknowledged and not answered again."""
    with SlackEmulator(latency=0.3) as emulator, running_bot(
            emulator, tmp_path, extra_env={"LOG_LEVEL": "WARNING"}) as bot:
        made = requests(emulator)[:40]
        sender = SlackSender(bot.base_url, SIGNING_SECRET)
        signed_at = int(time.time())
        emulator.reset()
        for _ in range(2):
            with ThreadPoolExecutor(max_workers=20) as pool:
                statuses = list(pool.map(lambda r: sender.post(
                    r.body, r.content_type, timestamp=signed_at).status, made))
            assert statuses == [200] * len(made)
        answers = counted(emulator, made)
    assert {r.key: answers.get(r.key, 0) for r in made} == {r.key: 1 for r in made}


class _Services:
    """What reply_privately needs of Services: a response-URL post with a given outcome."""

    def __init__(self, landed: bool | None) -> None:
        self.landed = landed

    async def respond(self, url: str, payload: dict[str, Any]) -> bool | None:
        return self.landed


@pytest.mark.parametrize(("landed", "ephemeral"), [(True, 0), (None, 0), (False, 1)])
def test_a_command_answer_goes_another_way_only_when_it_certainly_did_not_land(
        landed: bool | None, ephemeral: int) -> None:
    from slack_sdk.web.async_client import AsyncWebClient

    from mincards.handlers.commands import reply_privately

    with SlackEmulator() as emulator:
        async def reply() -> None:
            client = AsyncWebClient(token="xoxb-0-fake", base_url=emulator.api_url)
            await reply_privately(_Services(landed), client, {"text": "answer"},  # type: ignore[arg-type]
                                  "http://127.0.0.1:1/response/x", "C0001", "U0001")

        asyncio.run(reply())
        assert len(emulator.of("chat.postEphemeral")) == ephemeral


def test_a_response_url_post_without_an_answer_may_have_landed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No answer in time: Slack may have taken it (None); nobody listening: it did not
    (False); an answer: it did (True)."""
    from mincards.handlers import replies
    from tests.bot_process import free_port

    monkeypatch.setattr(replies, "TIMEOUT_SECONDS", 0.3)
    with SlackEmulator() as emulator:
        emulator.fail("response", Fault(delay=1.0))

        async def post(url: str) -> bool | None:
            async with replies.http_session() as session:  # the bot's, with its timeout
                return await replies.post_to_response_url(url, {"text": "x"}, session)

        assert asyncio.run(post(emulator.response_url("slow"))) is None
        assert asyncio.run(post(emulator.response_url("fine"))) is True
        assert asyncio.run(post(f"http://127.0.0.1:{free_port()}/response/x")) is False
