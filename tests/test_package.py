"""Installable anywhere: a wheel built from this checkout, installed in a fresh venv, answers from
any folder with the data it carries (as `pip install .`, pipx or a container image would), and
adds one importable name, `mincards`; so does an editable install of the checkout."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
import venv
from pathlib import Path
from typing import Any

from tests.conftest import ROOT
from tests.process_exit import run_to_exit

BARE = {"bot", "handlers", "mincards_data"}


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_to_exit([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                       timeout=600, check=False)


def installed_names(python: Path, cwd: Path) -> tuple[set[str], set[str]]:
    """(the top-level names the mincards distribution installed, everything in site-packages)."""
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])",
                    cwd=cwd).stdout.strip())
    (record,) = site.glob("mincards-*.dist-info/RECORD")
    with record.open(encoding="utf-8") as rows:
        tops = {row[0].split("/")[0] for row in csv.reader(rows)}
    return ({t for t in tops if not t.endswith(".dist-info") and t != ".."},
            {p.name for p in site.iterdir()})


def asks_from(python: Path, mincards: Path, elsewhere: Path, *, at_root: bool = False
              ) -> dict[str, Any]:
    """`at_root`: run from the checkout's root, whose bot/ and handlers/ folders a bare import
    finds (and refuses with one line, test_layout's business)."""
    asked = run(mincards, "ask", "--json", "qwen 2.5 72b lora 8k", cwd=elsewhere)
    assert asked.returncode == 0, asked.stderr
    answer: dict[str, Any] = json.loads(asked.stdout)
    by_module = run(python, "-m", "mincards", "ask", "--json", "qwen 2.5 72b lora 8k",
                    cwd=elsewhere)
    assert by_module.returncode == 0, by_module.stderr
    assert json.loads(by_module.stdout) == answer
    for name in () if at_root else BARE:
        bare = run(python, "-c", f"import {name}", cwd=elsewhere)
        assert f"No module named '{name}'" in bare.stderr
    return answer


def test_a_wheel_installs_one_name_and_answers_from_another_folder(tmp_path: Path) -> None:
    # Built from a clean copy: setuptools builds in the source tree and reuses a stale build/.
    # Links stay links, as a git clone keeps them.
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, symlinks=True, ignore=shutil.ignore_patterns(
        ".venv", ".git", "build", "*.egg-info", ".pytest_cache", ".ruff_cache", ".mypy_cache",
        ".hypothesis", "__pycache__"))
    dist = tmp_path / "dist"
    built = run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", dist, source,
                cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    (wheel,) = dist.glob("mincards-*.whl")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python, pip = env_dir / "bin" / "python", env_dir / "bin" / "pip"
    installed = run(pip, "install", "--quiet", "--disable-pip-version-check", wheel, cwd=tmp_path)
    assert installed.returncode == 0, installed.stderr

    ours, site = installed_names(python, tmp_path)
    assert ours == {"mincards"}, ours
    assert not BARE & site
    elsewhere = tmp_path / "somewhere" / "else"
    elsewhere.mkdir(parents=True)
    mincards = env_dir / "bin" / "mincards"
    answer = asks_from(python, mincards, elsewhere)
    assert answer["models"] == ["qwen2.5-72b"]
    # From the checkout's root, where `python -m` puts the root first on sys.path (as Slack
    # CLI's start hook does): a top-level mincards/ folder there shadowed the installed package
    # ("No module named 'mincards.bot'").
    assert asks_from(python, mincards, source, at_root=True) == answer
    assert answer["rows"][0]["mindspeed_llm"] == {"snt9b": 16, "snt9b23": 16}
    # The installed package's own data is read, and never written.
    imported = run(mincards, "import-table",
                   ROOT / "data" / "source" / "modelarts-2025-06-24.txt", cwd=elsewhere)
    assert imported.returncode == 2 and "--data-dir" in imported.stderr

    # The same checkout installed editable, over it: the same one name and the same answer.
    run(pip, "uninstall", "--yes", "--quiet", "mincards", cwd=tmp_path)
    editable = run(pip, "install", "--quiet", "--disable-pip-version-check", "--no-deps",
                   "-e", source, cwd=tmp_path)
    assert editable.returncode == 0, editable.stderr
    assert not BARE & installed_names(python, tmp_path)[1]
    assert asks_from(python, mincards, elsewhere) == answer
    assert asks_from(python, mincards, source, at_root=True) == answer
