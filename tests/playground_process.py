"""`mincards playground` as a real process on a free loopback port, for the tests that drive it."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from tests.bot_process import free_port

MINCARDS = Path(sys.executable).with_name("mincards")
START_SECONDS = 60  # the playground starts the bot and its Slack stand-in: slow on a busy host


def playground_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DATABASE_"))}
    return {**env, "LOG_LEVEL": "WARNING", **extra}


@contextlib.contextmanager
def running_playground(folder: Path) -> Iterator[int]:
    """The playground's port while it runs; stopped (its whole process group) after."""
    port = free_port()
    out = folder / "out.log"
    with out.open("wb") as log:
        process = subprocess.Popen([str(MINCARDS), "playground", "--port", str(port)],
                                   cwd=folder, env=playground_env(), stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + START_SECONDS
        while "mincards playground: http" not in out.read_text(encoding="utf-8"):
            assert process.poll() is None, out.read_text(encoding="utf-8")
            assert time.monotonic() < deadline, f"the playground did not start in {START_SECONDS} s"
            time.sleep(0.1)
        yield port
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:  # a drain slowed by load must not fail the module
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
