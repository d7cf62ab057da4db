"""Health that tells the truth (issue 39, item 5): /healthz says the process runs; /readyz says
whether it can work now. Over real processes: a bot with a real Redis reads ready, then not
ready (naming Redis) while Redis is stopped, then ready again once it is back on its port; a
Socket Mode bot serves both on HEALTH_PORT and is not ready while its Slack connection is down."""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.bot_process import free_port, running_bot
from tests.redis_process import running_redis
from tests.slack_emulator import SlackEmulator, wait_until


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def ready_becomes(url: str, status: int, timeout: float = 30) -> str:
    """The body of /readyz once it answers `status` (within `timeout`)."""
    seen: list[tuple[int, str]] = []

    def answered() -> str | None:
        seen.append(get(url))
        return seen[-1][1] if seen[-1][0] == status else None

    return wait_until(answered, timeout, f"/readyz never answered {status}: {seen[-1:]}")


def test_readiness_follows_redis_down_and_back(emulator: SlackEmulator, tmp_path: Path) -> None:
    port = free_port()
    for folder in ("redis1", "redis2", "bot1", "bot2"):
        (tmp_path / folder).mkdir()
    with running_redis(tmp_path / "redis1", port=port) as url, running_bot(
            emulator, tmp_path / "bot1", extra_env={"REDIS_URL": url}) as bot:
        body = ready_becomes(f"{bot.base_url}/readyz", 200)
        assert body.splitlines()[0] == "ready" and "redis ok" in body and "database ok" in body
        assert get(f"{bot.base_url}/healthz") == (200, "ok\n")
    # That Redis is stopped now: a bot started against its port.
    with running_bot(emulator, tmp_path / "bot2",
                     extra_env={"REDIS_URL": f"redis://127.0.0.1:{port}/0"}) as bot:
        body = ready_becomes(f"{bot.base_url}/readyz", 503)
        assert body.splitlines()[0] == "not ready" and "redis down" in body
        assert "database ok" in body
        assert get(f"{bot.base_url}/healthz")[0] == 200  # alive all the same
        with running_redis(tmp_path / "redis2", port=port):
            assert "redis ok" in ready_becomes(f"{bot.base_url}/readyz", 200)
        assert "redis down" in ready_becomes(f"{bot.base_url}/readyz", 503)
        text = bot.log_text()
    assert "Traceback" not in text


def test_socket_mode_serves_probes_and_reads_its_slack_connection(
        emulator: SlackEmulator, tmp_path: Path) -> None:
    port = free_port()
    with running_bot(emulator, tmp_path, socket_mode=True,
                     extra_env={"HEALTH_PORT": str(port)}) as bot:
        base = f"http://127.0.0.1:{port}"
        body = ready_becomes(f"{base}/readyz", 200)
        assert "slack ok" in body and "database ok" in body
        assert get(f"{base}/healthz") == (200, "ok\n")
        # Slack drops the connection and refuses new ones: not ready, naming Slack.
        emulator.close_new_sockets = True
        emulator.drop_sockets()
        try:
            assert "slack down" in ready_becomes(f"{base}/readyz", 503)
        finally:
            emulator.close_new_sockets = False
        assert "slack ok" in ready_becomes(f"{base}/readyz", 200, timeout=60)
        time.sleep(0.1)
        assert "Traceback" not in bot.log_text()
