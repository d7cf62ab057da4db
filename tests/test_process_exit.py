"""The suite's one wait on a process that should end: a hang fails with what the process said,
and nothing it started outlives the test."""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pytest

from tests import process_exit
from tests.process_exit import run_to_exit

HANGS = ("import subprocess, sys, time\n"
         "child = subprocess.Popen(['sleep', '300'])\n"
         "print('pid-of-child', child.pid, flush=True)\n"
         "print('waiting on the lock', file=sys.stderr, flush=True)\n"
         "time.sleep(300)\n")


def test_a_hang_fails_with_what_the_process_said_and_its_children_go(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(process_exit, "EXIT_DEADLINE", 2.0)
    with pytest.raises(AssertionError, match="did not end within 2 s") as failed:
        run_to_exit([sys.executable, "-c", HANGS], capture_output=True, text=True)
    said = str(failed.value)
    assert "waiting on the lock" in said
    found = re.search(r"pid-of-child (\d+)", said)
    assert found, said
    child = int(found[1])
    deadline = time.monotonic() + 30
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child), "the hung process's child outlived it"


def test_an_ending_process_is_subprocess_runs_answer() -> None:
    done = run_to_exit([sys.executable, "-c", "import sys; print(sys.stdin.read()[::-1]);"
                        "sys.exit(3)"], input="abc", capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (3, "cba\n")
    with pytest.raises(Exception, match="exit status 3"):
        run_to_exit([sys.executable, "-c", "raise SystemExit(3)"], check=True)


def test_a_short_timeout_is_raised_to_the_deadline() -> None:
    done = run_to_exit([sys.executable, "-c", "import time; time.sleep(1.5)"], timeout=0.1)
    assert done.returncode == 0


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
        return stat.rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    finally:
        os.sched_yield()
