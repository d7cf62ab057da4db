"""Run `mincards serve` as a real process against the emulator, and stop it afterwards."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.slack_emulator import SlackEmulator

MINCARDS = Path(sys.executable).with_name("mincards")
# Recognisable fakes, so a test can prove none of them is ever written anywhere.
BOT_TOKEN = "xoxb-0000000000-FAKEBOTTOKEN-do-not-leak"
APP_TOKEN = "xapp-1-A0001-FAKEAPPTOKEN-do-not-leak"
SIGNING_SECRET = "fake-signing-secret-do-not-leak-8f14e45f"
SECRETS = (BOT_TOKEN, APP_TOKEN, SIGNING_SECRET, "FAKEBOTTOKEN", "FAKEAPPTOKEN", "do-not-leak")


@dataclass
class Bot:
    process: subprocess.Popen[bytes]
    base_url: str
    log: Path

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


_HANDED_OUT: set[int] = set()


def free_port() -> int:
    """A loopback port nothing listens on, and never one this process handed out before: the
    kernel may offer a port again as soon as it is released, and a bot given the same port for
    its requests and its metrics answered /healthz from the metrics server while its own
    server could not bind (then exited, and the test waited on a second bot that was never
    refused)."""
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        if port not in _HANDED_OUT:
            _HANDED_OUT.add(port)
            return port


def _healthy(url: str) -> bool:
    """The bot's own /healthz ("ok"), not whatever else might answer on that port."""
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=1) as r:
            return r.status == 200 and r.read(16).strip() == b"ok"
    except OSError:
        return False


def _kernel_view(pid: int) -> str:
    """Each thread's state and wait channel, as /proc has them ('' where it has none)."""
    seen = []
    for task in sorted(Path(f"/proc/{pid}/task").glob("*")):
        try:
            status = (task / "status").read_text()
            wchan = (task / "wchan").read_text().strip()
        except OSError:
            continue
        state = next((line.split(":", 1)[1].strip() for line in status.splitlines()
                      if line.startswith("State:")), "?")
        seen.append(f"{task.name} {state} {wchan}")
    return "; ".join(seen) or "no /proc entry"


_TCP_STATES = {"01": "ESTABLISHED", "02": "SYN_SENT", "03": "SYN_RECV", "04": "FIN_WAIT1",
               "05": "FIN_WAIT2", "06": "TIME_WAIT", "07": "CLOSE", "08": "CLOSE_WAIT",
               "09": "LAST_ACK", "0A": "LISTEN", "0B": "CLOSING"}


def _sockets_view(pid: int) -> str:
    """The process's TCP sockets: state, local and remote port, bytes queued each way (from
    /proc/PID/net/tcp, matched by inode to its descriptors): whether a request it waits on
    was ever connected, sent, or answered."""
    try:
        links = [str(fd.readlink()) for fd in Path(f"/proc/{pid}/fd").iterdir()]
        inodes = {link[8:-1] for link in links if link.startswith("socket:[")}
        rows = Path(f"/proc/{pid}/net/tcp").read_text().splitlines()[1:]
    except OSError:
        return "no /proc entry"
    seen = []
    for row in rows:
        f = row.split()
        if len(f) > 9 and f[9] in inodes:
            tx, rx = f[4].split(":")
            seen.append(f"{_TCP_STATES.get(f[3], f[3])} :{int(f[1].split(':')[1], 16)}->"
                        f":{int(f[2].split(':')[1], 16)} tx={int(tx, 16)} rx={int(rx, 16)}")
    return "; ".join(seen) or "none"


def _kernel_stacks(pid: int) -> str:
    """Each thread's kernel stack (root only), its top frames."""
    stacks = []
    for task in sorted(Path(f"/proc/{pid}/task").glob("*")):
        try:
            frames = (task / "stack").read_text().split("\n")[:6]
        except OSError:
            continue
        stacks.append(f"{task.name}: " + " < ".join(x.split(" ", 1)[-1] for x in frames if x))
    return "; ".join(stacks) or "unreadable"


@contextlib.contextmanager
def running_bot(emulator: SlackEmulator, workdir: Path, *, socket_mode: bool = False,
                extra_env: dict[str, str] | None = None,
                serve_args: tuple[str, ...] = (),
                command: list[str] | None = None,
                without: tuple[str, ...] = ()) -> Iterator[Bot]:
    """`command`: another server to start the same way (bench/bare_bolt.py, the floor);
    `without`: variables of the tests' environment the bot must not see."""
    port = free_port()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("SLACK_") and k not in without}
    env.update({"SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_SIGNING_SECRET": SIGNING_SECRET,
                "SLACK_API_URL": emulator.api_url, "HOST": "127.0.0.1", "PORT": str(port),
                "LOG_LEVEL": "DEBUG",
                # SIGABRT then dumps every thread's Python stack into the log (see below).
                "PYTHONFAULTHANDLER": "1",
                # Each bot its own state folder: its SQLite database is no other test's.
                "XDG_STATE_HOME": str(workdir / "state"), **(extra_env or {})})
    if socket_mode:
        env["SLACK_APP_TOKEN"] = APP_TOKEN
    log = workdir / f"bot-{port}.log"
    with log.open("wb") as out:
        # cwd is a scratch folder, so a developer's own .env is never read by a test.
        process = subprocess.Popen(command or [str(MINCARDS), "serve", *serve_args],
                                   cwd=workdir, env=env,
                                   stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    bot = Bot(process, f"http://127.0.0.1:{port}", log)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise AssertionError(f"bot exited with {process.returncode}:\n{bot.log_text()}")
            if socket_mode and emulator.ws_connections:
                break
            if not socket_mode and _healthy(bot.base_url):
                break
            time.sleep(0.05)
        else:
            # Where it is stuck, in its log: three times (ci3, ci52, ci71) a bot's log ended at
            # its auth.test request with nothing after for a minute; in ci71 the stand-in had
            # no auth.test call and SIGABRT dumped no stacks. What the kernel says of each of
            # its threads (state, where it waits) comes first, then its stacks.
            kernel = (f"{_kernel_view(process.pid)}; sockets: {_sockets_view(process.pid)}; "
                      f"stacks: {_kernel_stacks(process.pid)}")
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGABRT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=10)
            emulated = [c.method for c in emulator.calls][-5:]
            raise AssertionError(f"bot did not come up (the Slack stand-in's last calls: "
                                 f"{emulated}; {emulator.timeline.report()}; the kernel: "
                                 f"{kernel}):\n{bot.log_text()}")
        yield bot
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
