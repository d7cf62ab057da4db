"""Rotating the key the stored tokens are encrypted with, over real processes (issue 39, item
6): a bot installed with one key; restarted with a new key first and the old one after, it
re-encrypts every stored token with the new one and still answers the workspace; started with
neither, or with no key at all in OAuth mode, it refuses to start in one line."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken

from mincards.handlers.token_cipher import new_key
from tests.bot_process import MINCARDS, SIGNING_SECRET, free_port, running_bot
from tests.process_exit import run_to_exit
from tests.slack_emulator import SlackEmulator
from tests.slack_sender import SlackSender
from tests.test_slack_install import CLIENT_SECRET, Browser, ask

OAUTH = {"SLACK_BOT_TOKEN": "", "SLACK_CLIENT_ID": "1111.2222",
         "SLACK_CLIENT_SECRET": CLIENT_SECRET}


def stored(workdir: Path) -> list[str]:
    with sqlite3.connect(workdir / "state" / "mincards" / "mincards.db") as conn:
        return [row[0] for table in ("slack_installations", "slack_bots")
                for row in conn.execute(f"SELECT bot_token FROM {table}")]


def refused_start(emulator: SlackEmulator, workdir: Path, **env: str) -> str:
    """The bot's words when its start is refused (it must exit, not serve)."""
    run = run_to_exit(
        [str(MINCARDS), "serve", "--mode", "http"], capture_output=True, text=True, cwd=workdir,
        env={**{k: v for k, v in os.environ.items() if not k.startswith("SLACK_")}, **OAUTH,
             "SLACK_SIGNING_SECRET": SIGNING_SECRET, "SLACK_API_URL": emulator.api_url,
             "HOST": "127.0.0.1", "PORT": str(free_port()),
             "XDG_STATE_HOME": str(workdir / "state"), **env})
    said = run.stdout + run.stderr
    assert run.returncode != 0, said
    assert "Traceback" not in said
    return said


def test_a_rotated_key_reseals_every_token_and_a_missing_one_refuses_the_start(
        emulator: SlackEmulator, tmp_path: Path) -> None:
    old, new = new_key(), new_key()
    with running_bot(emulator, tmp_path, extra_env={**OAUTH, "SLACK_TOKEN_KEYS": old}) as bot:
        status, page = Browser(bot.base_url).install(emulator, "TR001", "code-r")
        assert status == 200, page
    tokens = stored(tmp_path)
    assert tokens and all(Fernet(old.encode()).decrypt(t.encode()) for t in tokens)

    rotated = {**OAUTH, "SLACK_TOKEN_KEYS": f"{new},{old}"}
    with running_bot(emulator, tmp_path, extra_env=rotated) as bot:
        (call,) = ask(SlackSender(bot.base_url, SIGNING_SECRET), emulator, "TR001", "qwen3-8b lora")
        assert emulator.issued[call.headers["authorization"].removeprefix("Bearer ")] == "TR001"
        log = bot.log_text()
    assert f"tokens of {len(tokens)} stored installations encrypted" in log
    assert old not in log and new not in log
    for token in stored(tmp_path):
        Fernet(new.encode()).decrypt(token.encode())  # the new key alone opens each
        try:
            Fernet(old.encode()).decrypt(token.encode())
            raise AssertionError("a token still under the old key")
        except InvalidToken:
            pass

    said = refused_start(emulator, tmp_path, SLACK_TOKEN_KEYS=new_key())
    assert "a stored token was encrypted with a key not in SLACK_TOKEN_KEYS" in said
    assert "SLACK_TOKEN_KEYS" in refused_start(emulator, tmp_path)  # no key at all
    said = refused_start(emulator, tmp_path, SLACK_TOKEN_KEYS="hunter2")
    assert "not a Fernet key" in said and "hunter2" not in said
