"""Installable anywhere: a wheel built from this checkout, installed in a fresh venv, answers from
any folder with the data it carries (as `pip install .`, pipx or a container image would)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import venv
from pathlib import Path

from tests.conftest import ROOT


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          timeout=600, check=False)


def test_a_wheel_installs_and_answers_from_another_folder(tmp_path: Path) -> None:
    # Built from a clean copy: setuptools builds in the source tree and reuses a stale build/.
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".venv", ".git", "build", "*.egg-info", ".pytest_cache", ".ruff_cache", ".mypy_cache",
        ".hypothesis", "__pycache__"))
    dist = tmp_path / "dist"
    built = run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", dist, source,
                cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    (wheel,) = dist.glob("mincards-*.whl")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    pip = env_dir / "bin" / "pip"
    installed = run(pip, "install", "--quiet", "--disable-pip-version-check", wheel, cwd=tmp_path)
    assert installed.returncode == 0, installed.stderr
    elsewhere = tmp_path / "somewhere" / "else"
    elsewhere.mkdir(parents=True)
    mincards = env_dir / "bin" / "mincards"
    asked = run(mincards, "ask", "--json", "qwen 2.5 72b lora 8k", cwd=elsewhere)
    assert asked.returncode == 0, asked.stderr
    answer = json.loads(asked.stdout)
    assert answer["models"] == ["qwen2.5-72b"]
    assert answer["rows"][0]["mindspeed_llm"] == {"snt9b": 16, "snt9b23": 16}
    # The installed package's own data is read, and never written.
    imported = run(mincards, "import-table",
                   ROOT / "data" / "source" / "modelarts-2025-06-24.txt", cwd=elsewhere)
    assert imported.returncode == 2 and "--data-dir" in imported.stderr
