"""Secrets from files (item 6 of issue 39): every secret setting NAME may be given as NAME_FILE,
a path (Docker's and Kubernetes' mounted secrets, /run/secrets/...). Both set, or a file that is
missing, empty, huge or not text, is one line naming the variable and the path, never the file's
content."""

from __future__ import annotations

from pathlib import Path

import pytest

from mincards.handlers.settings import SettingsError, load_settings, secret_names
from tests.bot_process import BOT_TOKEN, SIGNING_SECRET, running_bot
from tests.slack_emulator import SlackEmulator
from tests.slack_sender import SlackSender, mention


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_every_secret_setting_reads_from_its_file(tmp_path: Path) -> None:
    assert {"SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN", "SLACK_CLIENT_SECRET",
            "REDIS_URL", "DATABASE_URL"} <= set(secret_names())
    settings = load_settings({
        "SLACK_BOT_TOKEN_FILE": write(tmp_path / "bot", BOT_TOKEN + "\n"),
        "SLACK_SIGNING_SECRET_FILE": write(tmp_path / "signing", SIGNING_SECRET + "\n"),
        "REDIS_URL_FILE": write(tmp_path / "redis", "redis://:pw@127.0.0.1:6379/0\n"),
    }, env_file=None)
    assert settings.slack_bot_token is not None
    assert settings.slack_bot_token.get_secret_value() == BOT_TOKEN  # the newline dropped
    assert settings.slack_signing_secret is not None
    assert settings.slack_signing_secret.get_secret_value() == SIGNING_SECRET
    assert settings.redis_url is not None


@pytest.mark.parametrize(("content", "why"), [
    (None, "is not a file"),
    ("", "is empty"),
    ("MARK" * (17 * 1024), "over 64 KB"),
    (b"\xff\xfe\x00MARK", "not UTF-8 text"),
])
def test_a_secret_file_that_cannot_be_used_is_one_line(tmp_path: Path, content: object,
                                                       why: str) -> None:
    path = tmp_path / "token"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    with pytest.raises(SettingsError) as raised:
        load_settings({"SLACK_BOT_TOKEN_FILE": str(path),
                       "SLACK_SIGNING_SECRET": SIGNING_SECRET}, env_file=None)
    message = str(raised.value)
    assert message.startswith("SLACK_BOT_TOKEN_FILE: ") and why in message
    assert "\n" not in message and "MARK" not in message  # never what the file holds


def test_a_secret_and_its_file_both_set_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="SLACK_BOT_TOKEN and SLACK_BOT_TOKEN_FILE are both"):
        load_settings({"SLACK_BOT_TOKEN": BOT_TOKEN,
                       "SLACK_BOT_TOKEN_FILE": write(tmp_path / "bot", BOT_TOKEN)},
                      env_file=None)


def test_the_bot_runs_on_secrets_from_files(emulator: SlackEmulator, tmp_path: Path) -> None:
    secrets = tmp_path / "run-secrets"
    secrets.mkdir()
    with running_bot(emulator, tmp_path, extra_env={
            "SLACK_BOT_TOKEN": "", "SLACK_SIGNING_SECRET": "",  # blank: unset
            "SLACK_BOT_TOKEN_FILE": write(secrets / "slack_bot_token", BOT_TOKEN + "\n"),
            "SLACK_SIGNING_SECRET_FILE": write(secrets / "slack_signing_secret",
                                               SIGNING_SECRET + "\n")}) as bot:
        emulator.reset()
        sender = SlackSender(bot.base_url, SIGNING_SECRET)
        assert sender.event(mention("qwen2.5-7b lora", channel="CFILES")).status == 200
        (call,) = emulator.wait_for_channel("CFILES", timeout=30)
        assert call.headers["authorization"] == f"Bearer {BOT_TOKEN}"
        log = bot.log_text()
    assert BOT_TOKEN not in log and SIGNING_SECRET not in log
