"""Waiting on a process that should end on its own (a command, a refused start).

A fixed, tight timeout on such a wait fails at random on a busy 2-core machine (a second suite or
a CPU burner beside the tests), and subprocess.run's TimeoutExpired says nothing of where the
process was. Here every such wait has the one generous deadline, the whole process group goes
when it passes, and the failure carries what the process had said so far.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Sequence
from typing import Any

# Far above any honest run here (the slowest, a package build, passes its own larger timeout):
# reaching it means the process hangs, not that the machine is busy.
EXIT_DEADLINE = 120.0


def run_to_exit(args: Sequence[str], *, input: str | bytes | None = None,
                capture_output: bool = False, check: bool = False,
                timeout: float | None = None, **popen: Any) -> subprocess.CompletedProcess[Any]:
    """subprocess.run's call, with `timeout` raised to at least EXIT_DEADLINE and a hang
    reported with the process's own words instead of a bare TimeoutExpired."""
    if capture_output:
        popen.setdefault("stdout", subprocess.PIPE)
        popen.setdefault("stderr", subprocess.PIPE)
    if input is not None:
        popen.setdefault("stdin", subprocess.PIPE)
    popen.setdefault("start_new_session", True)  # its children go with it on a hang
    seconds = max(timeout or 0.0, EXIT_DEADLINE)
    process = subprocess.Popen(list(args), **popen)
    try:
        out, err = process.communicate(input=input, timeout=seconds)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        raise AssertionError(f"{' '.join(map(str, args))} did not end within {seconds:.0f} s;"
                             f" it said:\n{_tail(err, 4000)}\n{_tail(out, 1000)}") from None
    except BaseException:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        raise
    done = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    if check:
        done.check_returncode()
    return done


def _tail(said: str | bytes | None, size: int) -> str:
    if said is None:
        return ""
    if isinstance(said, bytes):
        said = said.decode("utf-8", "replace")
    return said[-size:]
