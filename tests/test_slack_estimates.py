"""Estimates in Slack, end to end: the real app under gunicorn, a model named by its Hugging
Face id read from a local Hub after the acknowledgement, a config.json pasted as a code block,
and a Hub that fails said in one remark."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.blockkit import assert_valid_message, seen
from tests.bot_process import Bot, running_bot
from tests.conftest import assert_no_secrets
from tests.fake_hub import FakeHub, HubModel
from tests.slack_emulator import Fault, SlackEmulator
from tests.slack_sender import SlackSender, direct_message, mention

HUB_DEADLINE = 10
CONFIGS = Path(__file__).resolve().parent / "configs"
MISTRAL = (CONFIGS / "mistralai--Mistral-Small-24B-Instruct-2501.json").read_text(
    encoding="utf-8")


@pytest.fixture(scope="module")
def hub() -> Iterator[FakeHub]:
    with FakeHub({"acme/ReasonerX-24B": HubModel(MISTRAL.encode(), total=23_572_403_200),
                  "slow/model-7b": HubModel(MISTRAL.encode(), slow=30.0),
                  "acme/Quokka-3-24B-Instruct": HubModel(MISTRAL.encode(),
                                                         total=23_572_403_200)}) as running:
        yield running


@pytest.fixture(scope="module")
def bot(emulator: SlackEmulator, hub: FakeHub,
        tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bot]:
    folder = tmp_path_factory.mktemp("bot")
    env = {"HF_ENDPOINT": hub.url, "MINCARDS_CACHE": str(folder / "cache"),
           "HF_HOME": str(folder / "hf"), "HF_HUB_DISABLE_TELEMETRY": "1",
           # Long enough for a fetch from the local Hub on a busy 2-core machine (2 s was not:
           # a full CI run once took longer), short of the slow model's 30 s.
           "MINCARDS_HUB_TIMEOUT": str(HUB_DEADLINE)}
    with running_bot(emulator, folder, extra_env=env) as running:
        yield running
    assert_no_secrets(running, emulator)


def test_a_hub_model_is_estimated_in_the_reply(slack: SlackSender, emulator: SlackEmulator,
                                              hub: FakeHub) -> None:
    response = slack.event(mention("how many cards for acme/ReasonerX-24B lora 4k?"))
    assert response.status == 200
    (call,) = emulator.wait_for("chat.postMessage", timeout=20)
    assert_valid_message(call.params)
    shown = seen(call.params)
    assert "Estimate, not the table's, for acme/ReasonerX-24B (23.57B" in shown
    assert "from its configuration on Hugging Face" in shown
    assert "possibly" in shown and "each held out of the choice of terms and the fit" in shown
    assert any("acme/ReasonerX-24B" in r for r in hub.requests)


def test_a_name_only_the_hub_knows_is_searched_and_its_id_named(
        slack: SlackSender, emulator: SlackEmulator, hub: FakeHub) -> None:
    response = slack.event(mention("quokka 3 24b 做 LoRA 要几张卡？"))
    assert response.status == 200
    (call,) = emulator.wait_for("chat.postMessage", timeout=20)
    assert_valid_message(call.params)
    shown = seen(call.params)
    assert "acme/Quokka-3-24B-Instruct" in shown and "按名称搜索到的配置" in shown
    assert "quokka 3 24b" in hub.searches


def test_a_pasted_config_is_estimated(slack: SlackSender, emulator: SlackEmulator) -> None:
    slack.event(direct_message(f"这个模型全参需要几张卡？\n```{MISTRAL}```"))
    (call,) = emulator.wait_for("chat.postMessage", timeout=20)
    shown = seen(call.params)
    assert "估算（不是表中数据）" in shown and "来自它的 config.json" in shown


def test_a_hub_that_does_not_answer_is_one_remark(slack: SlackSender,
                                                  emulator: SlackEmulator) -> None:
    slack.event(mention("slow/model-7b lora"))
    (call,) = emulator.wait_for("chat.postMessage", timeout=40)
    shown = seen(call.params)
    said = f"No estimate beyond the table: Hugging Face did not answer within {HUB_DEADLINE} s"
    assert said in shown
    assert "The table has no entry for" in shown
    assert "Estimate, not the table's" not in shown


def shared_file(emulator: SlackEmulator, name: str, content: bytes, *,
                url: str | None = None, size: int | None = None) -> dict[str, object]:
    """A DM event's file, as Slack sends it (../shared/real-payloads/ev_dm_file_share_*)."""
    return {"id": "F0001", "name": name, "filetype": "json", "mimetype": "application/json",
            "size": len(content) if size is None else size, "mode": "hosted",
            "url_private_download": url or emulator.add_file(name, content)}


def test_a_config_attached_to_a_dm_is_estimated(slack: SlackSender,
                                                emulator: SlackEmulator) -> None:
    file = shared_file(emulator, "config.json", MISTRAL.encode())
    slack.event(direct_message("lora?", subtype="file_share", files=[file]))
    (call,) = emulator.wait_for("chat.postMessage", timeout=20)
    assert_valid_message(call.params)
    shown = seen(call.params)
    assert "Estimate, not the table's" in shown and "from its config.json" in shown
    (download,) = emulator.of("files")
    assert download.headers["authorization"].startswith("Bearer xoxb-")


@pytest.mark.parametrize("case,said", [
    ("foreign", "is not a file I can read from Slack"),
    ("huge", "is over 100 KB"),
    ("missing", "Slack answered 404"),
])
def test_an_attachment_that_cannot_be_read_is_one_remark(
        slack: SlackSender, emulator: SlackEmulator, hub: FakeHub, case: str, said: str) -> None:
    if case == "foreign":  # the bot's token never goes to another host
        file = shared_file(emulator, "config.json", b"{}", url=hub.url + "/files-pri/x/c.json")
    elif case == "huge":
        file = shared_file(emulator, "config.json", b"{}", size=5_000_000)
    else:
        file = shared_file(emulator, "config.json", b"{}",
                           url=emulator.api_url.removesuffix("/api/") + "/files-pri/T1/none.json")
    hub.requests.clear()
    slack.event(direct_message("lora?", subtype="file_share", files=[file]))
    (call,) = emulator.wait_for("chat.postMessage", timeout=20)
    shown = seen(call.params)
    assert f"No estimate beyond the table: config.json {said}" in shown or said in shown
    assert "Estimate, not the table's" not in shown
    assert hub.requests == []


@pytest.mark.parametrize("case,said", [
    ("redirect", "Slack answered 302"),          # the file host pointing elsewhere: not followed
    ("lies", "is over 100 KB"),                  # the event says 2 KB, 5 MB come with no length
    ("not json", "not JSON"),
    ("other workspace", "Slack did not give config.json to the bot"),
    ("slow", "could not download config.json"),  # past the download's 10 s
])
def test_an_attached_file_pushed_on_is_one_remark(
        slack: SlackSender, emulator: SlackEmulator, hub: FakeHub, case: str, said: str) -> None:
    content = {"not json": b"<config><hidden>4096</hidden></config>"}.get(case,
                                                                         MISTRAL.encode())
    file = shared_file(emulator, "config.json", content)
    if case == "other workspace":
        file["url_private_download"] = emulator.add_file("config.json", content, team="T0OTHER")
    emulator.fail("files", {
        "redirect": Fault(status=302, headers={"Location": hub.url + "/files-pri/x/c.json"}),
        "lies": Fault(raw=b'{"pad": "' + b"x" * 5_000_000 + b'"}'),
        "slow": Fault(delay=13.0),
    }.get(case, Fault(times=0)))
    hub.requests.clear()
    slack.event(direct_message("lora?", subtype="file_share", files=[file]))
    (call,) = emulator.wait_for("chat.postMessage", timeout=40)
    shown = seen(call.params)
    assert said in shown and "Estimate, not the table's" not in shown, shown
    assert hub.requests == []
    assert len(emulator.of("files")) == 1


def test_an_attached_config_arriving_in_pieces_is_read_whole(
        slack: SlackSender, emulator: SlackEmulator) -> None:
    """A config padded to 90 KB, sent with no length: read to its end (it comes in pieces),
    not cut at the first."""
    padded = MISTRAL.encode().rstrip()[:-1] + b', "_pad": "' + b"x" * 90_000 + b'"}'
    file = shared_file(emulator, "config.json", padded)
    emulator.fail("files", Fault(raw=padded))
    slack.event(direct_message("lora?", subtype="file_share", files=[file]))
    (call,) = emulator.wait_for("chat.postMessage", timeout=20)
    assert "Estimate, not the table's" in seen(call.params)
