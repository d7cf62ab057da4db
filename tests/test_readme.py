"""The README is a front page and docs/ its manual: every `mincards …` command they show exists
(`--help` succeeds), every `make` target they name is in the Makefile, every link resolves."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.process_exit import run_to_exit

MINCARDS = Path(sys.executable).with_name("mincards")
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
_CODE = re.compile(r"```.*?```|`[^`]+`", re.DOTALL)
_COMMAND = re.compile(r"(?:^|[\s`(|])(?:\.venv/bin/)?mincards ((?:[a-z][a-z-]+))", re.MULTILINE)
_MAKE = re.compile(r"`make ([a-z-]+)`|^make ([a-z-]+)", re.MULTILINE)


def test_the_readme_is_a_front_page() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) < 250
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings[:3] == ["## Try it", "## Reading a reply", "## The Slack app"]
    assert "N cards = 2N\n  DIE" in text or "N cards = 2N DIE" in text
    assert not re.search(r"\bissue \d+", text, re.IGNORECASE)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_resolves(page: Path) -> None:
    missing = []
    for target in _LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # a web address: not checked from here
        path = (page.parent / target.split("#", 1)[0]).resolve()
        if not path.exists():
            missing.append(target)
    assert missing == []


def test_every_command_shown_exists() -> None:
    code = [c for page in PAGES for c in _CODE.findall(page.read_text(encoding="utf-8"))]
    shown = {command for c in code for command in _COMMAND.findall(c)}
    assert {"ask", "playground", "serve", "estimate"} <= shown
    for command in sorted(shown):
        run = run_to_exit([str(MINCARDS), command, "--help"], capture_output=True, text=True,
                          check=False)
        assert run.returncode == 0, (command, run.stderr[-300:])


def test_every_make_target_shown_exists() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z-]+):", makefile, re.MULTILINE))
    shown = {a or b for page in PAGES
             for a, b in _MAKE.findall(page.read_text(encoding="utf-8"))}
    assert {"demo", "playground", "test"} <= shown
    assert shown <= targets, shown - targets
