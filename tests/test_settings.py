"""Settings: validated once, a clear message naming the variable, never its value."""

from __future__ import annotations

from pathlib import Path

import pytest

from mincards.handlers.logs import RedactSecrets
from mincards.handlers.settings import SettingsError, load_settings
from tests.process_exit import run_to_exit

GOOD = {"SLACK_BOT_TOKEN": "xoxb-1-secretvalue", "SLACK_SIGNING_SECRET": "shh-secret"}


def test_defaults() -> None:
    s = load_settings(GOOD, env_file=None)
    assert s.port == 3000 and s.slack_api_url == "https://slack.com/api/"
    assert not s.socket_mode and s.log_level == "INFO"


@pytest.mark.parametrize(("env", "names"), [
    ({}, "SLACK_BOT_TOKEN is not set"),
    ({"SLACK_BOT_TOKEN": "xoxb-1"}, "SLACK_SIGNING_SECRET is not set"),
    ({**GOOD, "SLACK_BOT_TOKEN": "xoxp-user-token"}, "SLACK_BOT_TOKEN must start with 'xoxb-'"),
    ({**GOOD, "SLACK_APP_TOKEN": "xoxb-wrong"}, "SLACK_APP_TOKEN must start with 'xapp-'"),
    ({**GOOD, "PORT": "99999"}, "PORT"),
    ({**GOOD, "PORT": "http"}, "PORT"),
    ({**GOOD, "SLACK_API_URL": "slack.com/api"}, "SLACK_API_URL must be an http(s) URL"),
    ({**GOOD, "LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
])
def test_bad_settings_name_the_variable(env: dict[str, str], names: str) -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings(env, env_file=None)
    message = str(caught.value)
    assert names in message
    assert "secretvalue" not in message and "shh-secret" not in message


def test_whitespace_pasted_around_values_is_dropped() -> None:
    s = load_settings({**GOOD, "SLACK_SIGNING_SECRET": "shh-secret \n", "PORT": " 3001 "},
                      env_file=None)
    assert s.slack_signing_secret is not None
    assert s.slack_signing_secret.get_secret_value() == "shh-secret" and s.port == 3001


@pytest.mark.parametrize("name", ["SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET"])
def test_a_token_with_a_pasted_quote_is_refused_clearly(name: str) -> None:
    value = ("xoxb-1-secret\u2019value" if name == "SLACK_BOT_TOKEN" else "shh\u2019secret")
    with pytest.raises(SettingsError) as caught:
        load_settings({**GOOD, name: value}, env_file=None)
    assert name in str(caught.value) and "pasted" in str(caught.value)
    assert value not in str(caught.value)


def test_an_env_file_that_is_not_utf8_is_refused_clearly(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_bytes("SLACK_BOT_TOKEN=xoxb-1-sécret\n".encode("latin-1"))
    with pytest.raises(SettingsError, match=r"\.env is not UTF-8"):
        load_settings({}, env_file=str(env))


@pytest.mark.parametrize("url", ["http://localhost:6379", "localhost:6379"])
def test_a_redis_url_must_be_one(url: str) -> None:
    with pytest.raises(SettingsError, match="REDIS_URL"):
        load_settings({**GOOD, "REDIS_URL": url}, env_file=None)


def test_a_redis_password_is_scrubbed_like_a_token() -> None:
    s = load_settings({**GOOD, "REDIS_URL": "redis://:hunter2pw@cache:6379/0"}, env_file=None)
    assert "hunter2pw" in s.secrets()
    assert "hunter2pw" not in RedactSecrets(s.secrets()).scrub("lost redis://:hunter2pw@cache")


def test_socket_mode_needs_no_signing_secret() -> None:
    s = load_settings({"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"}, env_file=None)
    assert s.socket_mode


def test_http_mode_always_needs_the_signing_secret() -> None:
    s = load_settings({"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"}, env_file=None)
    assert s.mode() == "socket"
    with pytest.raises(SettingsError, match="SLACK_SIGNING_SECRET is not set"):
        s.mode("http")


def test_socket_mode_needs_the_app_token() -> None:
    with pytest.raises(SettingsError, match="SLACK_APP_TOKEN"):
        load_settings(GOOD, env_file=None).mode("socket")


def test_env_file_is_read_and_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("SLACK_BOT_TOKEN=xoxb-from-file\nSLACK_SIGNING_SECRET=file\nPORT=4000\n",
                        encoding="utf-8")
    s = load_settings({"PORT": "5000"}, env_file=str(env_file))
    assert s.slack_bot_token.get_secret_value() == "xoxb-from-file" and s.port == 5000


def test_settings_repr_hides_secrets() -> None:
    s = load_settings(GOOD, env_file=None)
    assert "secretvalue" not in repr(s) and "shh-secret" not in repr(s)


def test_log_filter_scrubs_secrets_and_token_shapes() -> None:
    f = RedactSecrets(["shh-secret"])
    assert f.scrub("sig shh-secret tok xoxb-123-abc app xapp-1-A-x") == \
        "sig [redacted] tok [redacted] app [redacted]"


def test_serve_with_bad_settings_exits_with_the_message(tmp_path: Path) -> None:
    import os
    import sys
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLACK_")}
    result = run_to_exit([str(Path(sys.executable).with_name("mincards")), "serve"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert "SLACK_BOT_TOKEN is not set" in result.stderr and "Traceback" not in result.stderr


def test_the_secrets_sweep_catches_a_leak(tmp_path: Path) -> None:
    import subprocess
    from typing import ClassVar

    from tests.bot_process import BOT_TOKEN, Bot
    from tests.conftest import assert_no_secrets
    from tests.slack_emulator import Call

    log = tmp_path / "bot.log"
    log.write_text(f"INFO posting with {BOT_TOKEN}\n", encoding="utf-8")

    class Emu:
        calls: ClassVar[list[Call]] = []

    bot = Bot(process=subprocess.Popen(["true"]), base_url="http://127.0.0.1:1", log=log)
    bot.process.wait()
    with pytest.raises(AssertionError, match="log"):
        assert_no_secrets(bot, Emu())  # type: ignore[arg-type]
    log.write_text("clean\n", encoding="utf-8")
    Emu.calls = [Call("chat.postMessage", {"text": f"token {BOT_TOKEN}"}, {})]
    with pytest.raises(AssertionError, match="reply"):
        assert_no_secrets(bot, Emu())  # type: ignore[arg-type]
