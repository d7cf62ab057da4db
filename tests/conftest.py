from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.engine import Engine
from bot.knowledge import DATA_ENV, default_data_dir, load_knowledge

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


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
