"""`slack run`: Slack's CLI drives the app through the hooks `.slack/hooks.json` names
(slack-cli-hooks). Each hook is run here as the CLI runs it, in a shell from the checkout's
root, without Slack: get-hooks, get-manifest, and start, which runs app.py and must answer a
mention over Socket Mode against the playground's Slack stand-in with the tokens the CLI gives
(SLACK_CLI_XOXB, SLACK_CLI_XAPP).

The checkout is copied first (a developer's .env, .venv and caches left out), so that the hooks
see the files a clone has and nothing of this machine's."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.bot_process import APP_TOKEN, BOT_TOKEN, free_port
from tests.conftest import ROOT
from tests.process_exit import run_to_exit
from tests.slack_emulator import SlackEmulator, wait_until
from tests.slack_sender import event_callback, mention

BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("clone") / "mincards"
    shutil.copytree(ROOT, root, symlinks=True, ignore=shutil.ignore_patterns(
        ".env", ".venv", ".git", "build", "*.egg-info", ".pytest_cache", ".ruff_cache",
        ".mypy_cache", ".hypothesis", "__pycache__", "docs"))
    return root


def shell_env(**extra: str) -> dict[str, str]:
    """The environment of a developer's shell with the venv active, and no Slack settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLACK_")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    return {**env, **extra}


def hook(command: str, cwd: Path) -> Any:
    """A hook's JSON answer, run as the CLI runs it (a shell command)."""
    run = run_to_exit(["sh", "-c", command], cwd=cwd, env=shell_env(), capture_output=True,
                      text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@pytest.fixture(scope="module")
def hooks(checkout: Path) -> dict[str, Any]:
    declared = json.loads((checkout / ".slack" / "hooks.json").read_text(encoding="utf-8"))
    found: dict[str, Any] = hook(declared["hooks"]["get-hooks"], checkout)
    return found


def test_the_project_declares_its_hooks_and_a_local_manifest(checkout: Path,
                                                             hooks: dict[str, Any]) -> None:
    config = json.loads((checkout / ".slack" / "config.json").read_text(encoding="utf-8"))
    assert config["manifest"]["source"] == "local"
    assert {"get-manifest", "start"} <= set(hooks["hooks"])
    assert hooks["runtime"] == "python"


def test_get_manifest_gives_the_socket_mode_manifest(checkout: Path,
                                                     hooks: dict[str, Any]) -> None:
    manifest = hook(hooks["hooks"]["get-manifest"], checkout)
    assert manifest == json.loads((checkout / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["settings"]["socket_mode_enabled"] is True


@pytest.fixture()
def started(checkout: Path, hooks: dict[str, Any], emulator: SlackEmulator,
            tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    log = tmp_path / "start.log"
    emulator.reset()
    with log.open("wb") as out:
        process = subprocess.Popen(["sh", "-c", hooks["hooks"]["start"]], cwd=checkout,
                                   env=shell_env(SLACK_CLI_XOXB=BOT_TOKEN,
                                                 SLACK_CLI_XAPP=APP_TOKEN,
                                                 SLACK_API_URL=emulator.api_url,
                                                 XDG_STATE_HOME=str(tmp_path / "state"),
                                                 HOST="127.0.0.1", PORT=str(free_port()),
                                                 MINCARDS_HUB="off"),
                                   stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_until(lambda: emulator.ws_connections or process.poll() is not None, 90,
                   "the start hook never opened a Socket Mode connection")
        assert process.poll() is None, log.read_text(encoding="utf-8", errors="replace")
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in text, text[-4000:]
    for secret in (BOT_TOKEN, APP_TOKEN):
        assert secret not in text


def test_the_start_hook_answers_a_mention_over_socket_mode(
        started: subprocess.Popen[bytes], emulator: SlackEmulator) -> None:
    (opened,) = emulator.of("apps.connections.open")[:1]
    assert opened.headers["authorization"] == f"Bearer {APP_TOKEN}"
    event = mention("qwen2.5 72b lora 8k?")
    emulator.send_socket_event(event_callback(event))
    (call,) = emulator.wait_for("chat.postMessage", timeout=30)
    assert call.params["thread_ts"] == event["ts"]
    assert call.params["text"].startswith("Qwen2.5-72B · LoRA · 8K: 16 cards (2 nodes)")
    assert call.headers["authorization"] == f"Bearer {BOT_TOKEN}"
