from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.facts.checked_cache import CACHE_ENV
from mincards.bot.facts.knowledge import DATA_ENV, default_data_dir, load_knowledge
from tests.bot_process import SECRETS, SIGNING_SECRET, Bot, running_bot
from tests.slack_emulator import SlackEmulator
from tests.slack_sender import SlackSender

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
# The one reason a test skips: the project's shared folder (eval questions, page versions, Slack's
# schema and payloads) is not checked out beside this repository.
NO_SHARED = "../shared is not beside the checkout"


def load_module(path: Path, name: str) -> ModuleType:
    """A script that is not a package (tools/previews.py, ../shared/tools/...), as a module."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def needs_shared(*parts: str) -> pytest.MarkDecorator:
    """Skip, with the one reason, unless ../shared/<parts> is there."""
    return pytest.mark.skipif(not SHARED.joinpath(*parts).exists(), reason=NO_SHARED)


def pytest_configure(config: pytest.Config) -> None:
    """The tests' checked-facts cache, apart from the developer's own (~/.cache/mincards), for
    this process and every `mincards` it starts."""
    cache = Path(tempfile.mkdtemp(prefix="mincards-test-cache-"))
    os.environ[CACHE_ENV] = str(cache)
    config.add_cleanup(lambda: shutil.rmtree(cache, ignore_errors=True))


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test sees the developer's own data override or Slack settings."""
    monkeypatch.delenv(DATA_ENV, raising=False)
    for name in ("SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN", "SLACK_API_URL"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="session")
def engine() -> Engine:
    return Engine(load_knowledge(default_data_dir()))


@pytest.fixture()
def data_copy(tmp_path: Path) -> Path:
    """A scratch copy of data/ that a test may break."""
    target = tmp_path / "data"
    shutil.copytree(default_data_dir(), target)
    return target


# --- Slack end to end: one emulator and one bot process per test module -------------------


@pytest.fixture(scope="module")
def emulator() -> Iterator[SlackEmulator]:
    with SlackEmulator() as emu:
        yield emu


def assert_no_secrets(bot: Bot, emulator: SlackEmulator) -> None:
    """No token or signing secret in any log line or anything the bot sent Slack to show."""
    log = bot.log_text()
    shown = json.dumps([c.params for c in emulator.calls], ensure_ascii=False)
    for secret in SECRETS:
        assert secret not in log, "a secret reached the bot's log"
        assert secret not in shown, "a secret reached a reply"


@pytest.fixture(scope="module")
def bot(emulator: SlackEmulator, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bot]:
    """`mincards serve` in HTTP mode; a module that wants Socket Mode overrides this.

    After the module's tests, whatever they sent, its log and replies are swept for secrets."""
    with running_bot(emulator, tmp_path_factory.mktemp("bot")) as running:
        yield running
    assert_no_secrets(running, emulator)


@pytest.fixture()
def slack(bot: Bot, emulator: SlackEmulator) -> SlackSender:
    """Signed requests to the bot, with the emulator's record cleared first."""
    emulator.reset()
    return SlackSender(bot.base_url, SIGNING_SECRET)
