"""Many questions naming Hub models at once (issue 40, item 4): the real app under gunicorn and
a slow local Hub. Acknowledgements stay prompt, look-ups are bounded in number (the Hub never
sees more than the bot's RUNNING at once; past RUNNING + WAITING a question is told the Hub is
busy at once), every question is answered exactly once, and one model asked many times at once
is fetched once."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from mincards.handlers.hub_lookups import RUNNING, WAITING
from tests.blockkit import seen
from tests.bot_process import Bot, running_bot
from tests.fake_hub import FakeHub, HubModel
from tests.slack_emulator import SlackEmulator, wait_until
from tests.slack_sender import SlackSender, mention

CONFIG = (Path(__file__).resolve().parent / "configs" /
          "mistralai--Mistral-Small-24B-Instruct-2501.json").read_bytes()
ASKED = 100
SLOW = 0.3  # seconds before each of the Hub's answers (a look-up makes three requests)
ANSWER_SECONDS = 120  # every reply of the burst, on a busy 2-core machine


@pytest.fixture(scope="module")
def hub() -> Iterator[FakeHub]:
    models = {f"acme/Burst-{i}-24B": HubModel(CONFIG, total=23_572_403_200, slow=SLOW)
              for i in range(ASKED)}
    models["acme/Same-24B"] = HubModel(CONFIG, total=23_572_403_200, slow=SLOW)
    with FakeHub(models) as running:
        yield running


@pytest.fixture(scope="module")
def bot(emulator: SlackEmulator, hub: FakeHub,
        tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bot]:
    folder = tmp_path_factory.mktemp("bot")
    env = {"HF_ENDPOINT": hub.url, "MINCARDS_CACHE": str(folder / "cache"),
           "HF_HOME": str(folder / "hf"), "HF_HUB_DISABLE_TELEMETRY": "1",
           "MINCARDS_HUB_TIMEOUT": "60"}
    with running_bot(emulator, folder, extra_env=env) as running:
        yield running


def burst(slack: SlackSender, texts: list[str]) -> tuple[list[dict[str, object]], float]:
    events = [mention(text) for text in texts]
    with ThreadPoolExecutor(max_workers=32) as pool:
        started = time.monotonic()
        statuses = list(pool.map(lambda e: slack.event(e).status, events))
        spent = time.monotonic() - started
    assert statuses == [200] * len(events)
    return events, spent


def replies_by_thread(emulator: SlackEmulator, count: int) -> Counter[str]:
    wait_until(lambda: len(emulator.of("chat.postMessage")) >= count, ANSWER_SECONDS,
               f"{count} replies within {ANSWER_SECONDS} s")
    time.sleep(0.5)  # a doubled reply would follow within this
    return Counter(str(c.params.get("thread_ts")) for c in emulator.of("chat.postMessage"))


def test_a_burst_of_hub_questions_is_bounded_and_each_answered_once(
        slack: SlackSender, emulator: SlackEmulator, hub: FakeHub) -> None:
    events, spent = burst(slack, [f"acme/Burst-{i}-24B lora 4k?" for i in range(ASKED)])
    # Acknowledged at once: no look-up is on the acknowledgement's path.
    assert spent < 3 * 8, spent  # 100 signed posts from 32 threads on 2 cores
    answered = replies_by_thread(emulator, ASKED)
    assert answered == Counter({str(e["ts"]): 1 for e in events})
    assert hub.most_at_once <= RUNNING
    shown = [seen(c.params) for c in emulator.of("chat.postMessage")]
    busy = [s for s in shown if "was not looked up: ask again" in s]
    estimated = [s for s in shown if "Estimate, not the table's" in s]
    assert len(busy) + len(estimated) == ASKED
    assert len(estimated) >= RUNNING + WAITING and busy  # bounded, and said so


def test_one_model_asked_many_times_at_once_is_fetched_once(
        slack: SlackSender, emulator: SlackEmulator, hub: FakeHub) -> None:
    events, _ = burst(slack, ["acme/Same-24B lora 4k?"] * 20)
    answered = replies_by_thread(emulator, 20)
    assert answered == Counter({str(e["ts"]): 1 for e in events})
    assert all("Estimate, not the table's" in seen(c.params)
               for c in emulator.of("chat.postMessage"))
    assert hub.requests.count("GET /acme/Same-24B/resolve/main/config.json") == 1
