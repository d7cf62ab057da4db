"""Hostile and broken input over HTTP: never a 500 or a traceback, nothing posted that should not
be, every question answered once and safely. Ends by sweeping the log and replies for secrets."""

from __future__ import annotations

import http.client
import itertools
import json
import time
from urllib.parse import urlencode, urlparse

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.blockkit import assert_valid_message
from tests.bot_process import SIGNING_SECRET, Bot, running_bot
from tests.conftest import assert_no_secrets
from tests.slack_emulator import Call, SlackEmulator, wait_until
from tests.slack_sender import SlackSender, event_callback, mention, new_trigger
from tests.test_blocks import shown_text

PINGS = ("<!channel>", "<!here>", "<!everyone>", "<!subteam", "<@U", "<#C")


@pytest.fixture(scope="module")
def sender(bot: Bot) -> SlackSender:
    """For the property test, which must not reset the emulator between its examples."""
    return SlackSender(bot.base_url, SIGNING_SECRET)


JSON, FORM = "application/json", "application/x-www-form-urlencoded"
BAD_BODIES = [
    pytest.param(b"{not json", JSON, {400}, id="not-json"),
    pytest.param(b"[1, 2]", JSON, {400}, id="json-array"),
    pytest.param(b"", JSON, {400}, id="empty"),
    pytest.param(b"%%%&&&==", FORM, {400, 404}, id="not-form"),
    pytest.param(b"payload=%7Bbad", FORM, {400}, id="payload-not-json"),
    pytest.param(b"payload=%5B%5D", FORM, {400}, id="payload-array"),
    pytest.param(b"payload=%7B%7D", FORM, {400}, id="payload-empty-object"),
    pytest.param(b"hello", "text/plain", {400}, id="text-plain"),
    pytest.param(b'{"type":"event_callback","event":{"text":"\xff\xfe"}}', JSON, {400},
                 id="invalid-utf8"),
    pytest.param(b'{"a":"' + b"x" * (5 * 1024 * 1024) + b'"}', JSON, {413}, id="5-megabytes"),
    pytest.param(json.dumps(event_callback({"type": "reaction_added"})).encode(), JSON, {200},
                 id="unknown-event-type"),
    pytest.param(json.dumps({"type": "event_callback"}).encode(), JSON, {400},
                 id="no-event"),
    pytest.param(json.dumps({"type": "mystery"}).encode(), JSON, {200}, id="unknown-type"),
    pytest.param(json.dumps(event_callback({"type": "app_mention"})).encode(), JSON, {200},
                 id="mention-missing-fields"),
    pytest.param(json.dumps(event_callback({"type": "message", "channel_type": "im"})).encode(),
                 JSON, {200}, id="dm-missing-fields"),
    pytest.param(b"command=%2Fmincards&text=qwen", FORM, {200}, id="command-missing-fields"),
    pytest.param(urlencode({"payload": json.dumps({"type": "block_actions", "actions": [
        {"action_id": "pick_model_0", "value": "{}"}]})}).encode(), FORM, {200},
        id="action-missing-fields"),
    pytest.param(b'{"type":"event_callback","event":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
                 JSON, {400}, id="100k-deep-json"),
    pytest.param(urlencode({"payload": "[" * 100_000 + "]" * 100_000}).encode(), FORM, {400},
                 id="100k-deep-payload"),
    pytest.param(json.dumps(event_callback({"type": "app_mention"}) | {"event": 5}).encode(),
                 JSON, {400}, id="event-not-an-object"),
    pytest.param(json.dumps(event_callback({"text": "qwen"})).encode(), JSON, {400},
                 id="event-without-type"),
    pytest.param(urlencode({"payload": json.dumps({"type": "block_actions", "actions": []})}
                           ).encode(), FORM, {200}, id="actions-empty"),
    pytest.param(urlencode({"payload": json.dumps({"type": "block_actions", "actions": "x"})}
                           ).encode(), FORM, {200}, id="actions-not-a-list"),
    pytest.param(urlencode({"payload": json.dumps({"type": "view_submission"})}).encode(), FORM,
                 {400}, id="view-submission-without-view"),
    pytest.param(urlencode({"payload": json.dumps({"type": "view_submission", "view": {
        "id": "V1", "type": "modal", "callback_id": "someone_elses"}})}).encode(), FORM, {200},
        id="view-submission-not-ours"),
    pytest.param(urlencode({"payload": json.dumps({"type": "view_submission", "view": {
        "id": "V1", "callback_id": "x"}})}).encode(), FORM, {400},
        id="view-submission-view-without-type"),
    pytest.param(urlencode({"payload": json.dumps({"type": "shortcut", "callback_id": "x"})}
                           ).encode(), FORM, {200}, id="shortcut-not-ours"),
    pytest.param(json.dumps({"token": "t", "type": "app_rate_limited", "team_id": "T0001",
                             "minute_rate_limited": 1518467820, "api_app_id": "A0001"}).encode(),
                 JSON, {200}, id="app-rate-limited"),
]


@pytest.mark.parametrize(("body", "content_type", "statuses"), BAD_BODIES)
def test_broken_bodies_get_4xx_or_a_quiet_200(slack: SlackSender, emulator: SlackEmulator,
                                              bot: Bot, body: bytes, content_type: str,
                                              statuses: set[int]) -> None:
    before = len(bot.log_text())
    reply = slack.post(body, content_type)
    assert reply.status in statuses
    assert reply.status != 500 and "Traceback" not in reply.body
    time.sleep(0.3)
    assert emulator.replies() == []
    assert "Traceback" not in bot.log_text()[before:]


def test_app_rate_limited_is_logged_once_as_a_warning(slack: SlackSender, bot: Bot) -> None:
    before = len(bot.log_text())
    body = json.dumps({"token": "t", "type": "app_rate_limited", "team_id": "T0001",
                       "minute_rate_limited": 1518467820, "api_app_id": "A0001"})
    assert slack.post(body, JSON).status == 200
    time.sleep(0.2)
    assert "WARNING mincards.handlers.web: Slack is holding back" in bot.log_text()[before:]


def test_a_wrong_signing_secret_is_pointed_at_once_a_minute(
        emulator: SlackEmulator, tmp_path_factory: pytest.TempPathFactory) -> None:
    with running_bot(emulator, tmp_path_factory.mktemp("wrong-secret"),
                     extra_env={"SLACK_SIGNING_SECRET": "not-what-slack-signs-with"}) as other:
        sender = SlackSender(other.base_url, SIGNING_SECRET)
        for _ in range(5):
            assert sender.event(mention("qwen2.5-7b")).status == 401
        time.sleep(0.2)
        log = other.log_text()
    assert log.count("check SLACK_SIGNING_SECRET") == 1
    assert "not-what-slack-signs-with" not in log and SIGNING_SECRET not in log


def _raw_post(bot: Bot, headers: list[tuple[str, str]], body: bytes) -> int:
    url = urlparse(bot.base_url)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    conn.putrequest("POST", "/slack/events")
    for name, value in [*headers, ("Content-Type", JSON), ("Content-Length", str(len(body)))]:
        conn.putheader(name, value)
    conn.endheaders()
    conn.send(body)
    status = conn.getresponse().status
    conn.close()
    return status


@pytest.mark.parametrize("which", ["no-timestamp", "no-signature", "doubled-signature",
                                   "doubled-timestamp", "timestamp-not-a-number"])
def test_missing_or_doubled_signature_headers_get_401(slack: SlackSender, emulator: SlackEmulator,
                                                      bot: Bot, which: str) -> None:
    body = json.dumps(event_callback(mention("qwen2.5-7b"))).encode()
    ts = str(int(time.time()))
    good = slack.sign(ts, body)
    headers = {
        "no-timestamp": [("X-Slack-Signature", good)],
        "no-signature": [("X-Slack-Request-Timestamp", ts)],
        "doubled-signature": [("X-Slack-Request-Timestamp", ts), ("X-Slack-Signature", good),
                              ("X-Slack-Signature", good)],
        "doubled-timestamp": [("X-Slack-Request-Timestamp", ts),
                              ("X-Slack-Request-Timestamp", ts), ("X-Slack-Signature", good)],
        "timestamp-not-a-number": [("X-Slack-Request-Timestamp", "soon"),
                                   ("X-Slack-Signature", good)],
    }[which]
    assert _raw_post(bot, headers, body) == 401
    time.sleep(0.3)
    assert emulator.replies() == []


HOSTILE_TEXT = [
    pytest.param("qwen2.5-7b " + "x" * 40000, id="40000-chars"),
    pytest.param("qwen2.5\x00-7b\x07 lora\x1b[31m 8k", id="control-and-nul"),
    pytest.param("🙂🔥 qwen2.5-7b lora 🚀", id="emoji"),
    pytest.param("\u202eqwen2.5-7b\u202c \u05e9\u05dc\u05d5\u05dd lora", id="right-to-left"),
    pytest.param("<!channel> qwen 7b", id="channel"),
    pytest.param("<!here> <!everyone> qwen2.5-3b", id="here"),
    pytest.param("<!subteam^S123|@oncall> mixtral lora", id="subteam"),
    pytest.param("<@U123> <@U456|bob> llama 70b", id="user-mentions"),
    pytest.param("<#C123|general> gemma3", id="channel-link"),
    pytest.param("*bold* _it_ ~s~ `qwen2.5-7b` ```qwen3-8b``` > quote", id="mrkdwn-code"),
    pytest.param("&lt;!channel&gt; &amp;&amp; qwen3-32b &#60;!here&#62;", id="entities"),
    pytest.param("</script><img src=x> {{7*7}} ${jndi:ldap://x} qwen2.5-14b", id="injection"),
]


@pytest.mark.parametrize("text", HOSTILE_TEXT)
def test_hostile_question_text_gets_one_safe_reply(slack: SlackSender, emulator: SlackEmulator,
                                                   text: str) -> None:
    slack.event(mention(text, channel="CHOSTILE"))
    (call,) = emulator.wait_for("chat.postMessage")
    assert_valid_message(call.params)
    for shown in shown_text(call.params):
        assert not any(p in shown for p in PINGS), shown
        assert "```" not in shown
    time.sleep(0.2)
    assert len(emulator.to_channel("CHOSTILE")) == 1


_channels = itertools.count()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=400), surface=st.sampled_from(["mention", "command"]))
# `/mincards 設置` (settings, in traditional Chinese) answers with the settings modal, not a
# message: drawn at random once, it failed a CI run when the test waited for a message only.
@example(text="設置", surface="command")
@example(text=" settings ", surface="command")
def test_any_text_over_http_gets_exactly_one_well_formed_reply(
        sender: SlackSender, emulator: SlackEmulator, text: str, surface: str) -> None:
    channel = f"CP{next(_channels):06d}"  # hypothesis replays examples: each run its own channel
    trigger = new_trigger()
    if surface == "mention":
        assert sender.event(mention(text, channel=channel)).status == 200
    else:
        assert sender.command(text, emulator.response_url(channel), channel_id=channel,
                              trigger_id=trigger).status == 200

    def answered() -> list[Call]:
        opened = [c for c in emulator.of("views.open") if c.params.get("trigger_id") == trigger]
        return emulator.to_channel(channel) + opened

    (call,) = wait_until(answered, 10.0, f"no reply in {channel}")
    if call.method == "views.open":  # the settings modal, opened with this command's trigger
        assert call.params["view"]["type"] == "modal"
        return
    assert_valid_message(call.params)
    for shown in shown_text(call.params):
        assert not any(p in shown for p in PINGS)


def test_no_example_was_answered_twice(emulator: SlackEmulator) -> None:
    time.sleep(0.5)
    by_channel: dict[str, int] = {}
    for call in emulator.replies():
        channel = emulator.channel_of(call)
        if channel.startswith("CP"):
            by_channel[channel] = by_channel.get(channel, 0) + 1
    assert by_channel and set(by_channel.values()) == {1}


def test_secrets_never_reach_a_log_line_or_a_reply(bot: Bot, emulator: SlackEmulator) -> None:
    """Runs last in this module, after every hostile request above (the bot fixture's teardown
    sweeps every end-to-end module the same way)."""
    assert "POST /slack/events" in bot.log_text()  # DEBUG logging was on and saw the traffic
    assert_no_secrets(bot, emulator)
