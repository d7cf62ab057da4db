"""The facts cache where people put it, over real processes (`mincards ask`, `mincards serve`),
each in a home and a working folder of its own: MINCARDS_CACHE's spellings of off and on
(never a folder named `false` or `true` in the working folder), `~` in the path, a `.partial`
left by a start that died, and MINCARDS_CACHE set in the .env file `mincards serve` reads."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mincards.bot.facts.checked_cache import CACHE_ENV
from tests.bot_process import running_bot
from tests.process_exit import run_to_exit
from tests.slack_emulator import SlackEmulator

MINCARDS = Path(sys.executable).with_name("mincards")
QUESTION = "qwen2.5-72b lora 8k"


def places(tmp_path: Path) -> tuple[Path, Path, Path]:
    """(home, the usual cache folder, the working folder), all empty."""
    home, xdg, work = tmp_path / "home", tmp_path / "xdg", tmp_path / "work"
    for folder in (home, xdg, work):
        folder.mkdir()
    return home, xdg / "mincards", work


def ask(tmp_path: Path, cache: str | None) -> subprocess.CompletedProcess[str]:
    home, _, work = tmp_path / "home", tmp_path / "xdg", tmp_path / "work"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    if cache is not None:
        env[CACHE_ENV] = cache
    run = run_to_exit([str(MINCARDS), "ask", "--short", QUESTION], cwd=work, env=env,
                      capture_output=True, text=True, check=False)
    assert run.returncode == 0 and "Qwen2.5-72B" in run.stdout, run.stderr
    assert "Traceback" not in run.stderr
    return run


def files_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


@pytest.mark.parametrize("spelling", ["false", "FALSE", " off ", "no", "0", "n", "none",
                                      "disabled"])
def test_every_spelling_of_off_keeps_no_cache_anywhere(tmp_path: Path, spelling: str) -> None:
    _home, _usual, work = places(tmp_path)
    for _ in range(2):
        ask(tmp_path, spelling)
    assert files_under(tmp_path) == []  # no cache file in the usual place, home or work
    assert list(work.iterdir()) == []


@pytest.mark.parametrize("spelling", ["true", "True", "1", "yes", "on"])
def test_every_spelling_of_on_is_the_usual_place_not_a_folder_of_that_name(
        tmp_path: Path, spelling: str) -> None:
    _home, usual, work = places(tmp_path)
    ask(tmp_path, spelling)
    assert list(work.iterdir()) == []
    assert len(list(usual.glob("facts-*.pickle"))) == 1


@pytest.mark.parametrize("written", ["~/facts-cache", " ~/facts-cache "])
def test_a_home_relative_path_is_under_home(tmp_path: Path, written: str) -> None:
    home, usual, work = places(tmp_path)
    ask(tmp_path, written)
    assert len(list((home / "facts-cache").glob("facts-*.pickle"))) == 1
    assert not usual.exists() and list(work.iterdir()) == []
    assert not (work / "~").exists()


def test_a_partial_left_by_a_start_that_died_is_gone_after_the_next_start(
        tmp_path: Path) -> None:
    """The next start finds the cache current and writes nothing: the leftovers still go.
    One is a start killed while it ran (its number now nobody's), one is old enough that its
    number may belong to another process since; one being written now stays."""
    _home, usual, work = places(tmp_path)
    ask(tmp_path, None)
    (kept,) = usual.glob("facts-*.pickle")
    killed = subprocess.Popen([str(MINCARDS), "ask", QUESTION], cwd=work,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    dead = usual / f"{kept.name}.{killed.pid}.partial"
    dead.write_bytes(b"half a file")
    old = usual / f"{kept.name}.1.partial"  # pid 1 is alive, but this was written long ago
    old.write_bytes(b"half a file")
    long_ago = time.time() - 3600
    os.utime(old, (long_ago, long_ago))
    live = usual / f"{kept.name}.{os.getpid()}.partial"
    live.write_bytes(b"being written")
    before = kept.stat().st_mtime_ns
    ask(tmp_path, None)
    assert kept.stat().st_mtime_ns == before  # nothing was written: the cache was current
    assert not dead.exists() and not old.exists()
    assert live.exists()


def test_mincards_cache_in_the_env_file_is_what_serve_uses(tmp_path: Path) -> None:
    """An operator's .env saying MINCARDS_CACHE=false (the environment saying nothing): serve
    keeps no cache. Before, only the environment was read for it, and .env was ignored."""
    home, usual, work = places(tmp_path)
    (work / ".env").write_text("MINCARDS_CACHE=false\n", encoding="utf-8")
    with SlackEmulator() as emulator, running_bot(
            emulator, work, without=(CACHE_ENV,),
            extra_env={"HOME": str(home), "XDG_CACHE_HOME": str(tmp_path / "xdg")}) as bot:
        assert bot.process.poll() is None
    assert not usual.exists()
    # And set in .env to a folder, that folder (the environment still saying nothing).
    (work / ".env").write_text("MINCARDS_CACHE=~/from-env-file\n", encoding="utf-8")
    with SlackEmulator() as emulator, running_bot(
            emulator, work, without=(CACHE_ENV,),
            extra_env={"HOME": str(home), "XDG_CACHE_HOME": str(tmp_path / "xdg")}):
        pass
    assert len(list((home / "from-env-file").glob("facts-*.pickle"))) == 1
    assert not usual.exists()
