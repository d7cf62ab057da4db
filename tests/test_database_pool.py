"""The database pool from the environment (issue 39, item 8): each process's connections to the
database (DATABASE_POOL_SIZE, DATABASE_MAX_OVERFLOW, DATABASE_POOL_TIMEOUT) are the operator's
to size for many replicas; a value out of range stops the start with one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from mincards.handlers.app import preference_store
from mincards.handlers.settings import SettingsError, load_settings
from tests.bot_process import BOT_TOKEN, SIGNING_SECRET


def settings(tmp_path: Path, **pool: str) -> object:
    return load_settings({"SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_SIGNING_SECRET": SIGNING_SECRET,
                          "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'pool.db'}", **pool},
                         env_file=None)


def test_the_pool_is_sized_from_the_environment(tmp_path: Path) -> None:
    chosen = settings(tmp_path, DATABASE_POOL_SIZE="3", DATABASE_MAX_OVERFLOW="0",
                      DATABASE_POOL_TIMEOUT="2.5")
    store = preference_store(chosen)  # type: ignore[arg-type]
    assert store is not None
    pool = store.engine.pool
    assert pool.size() == 3  # type: ignore[attr-defined]
    assert pool._max_overflow == 0 and pool._timeout == 2.5  # type: ignore[attr-defined]


@pytest.mark.parametrize(("name", "value"), [("DATABASE_POOL_SIZE", "0"),
                                             ("DATABASE_MAX_OVERFLOW", "-1"),
                                             ("DATABASE_POOL_TIMEOUT", "many")])
def test_a_pool_setting_out_of_range_is_one_line(tmp_path: Path, name: str, value: str) -> None:
    with pytest.raises(SettingsError) as raised:
        settings(tmp_path, **{name: value})
    assert name in str(raised.value) and "\n" not in str(raised.value).strip()
