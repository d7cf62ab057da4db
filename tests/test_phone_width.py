"""Every kind of reply reads on a phone: drawn by the playground's renderer
(playground/static/blockkit.js, through tools/previews.py) in a real headless Chromium 420 px
wide, no box of it is wider than the screen lets it be (a table cut off, a line that does not
wrap)."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import ModuleType

from tests.conftest import ROOT, load_module


def _previews() -> ModuleType:
    return load_module(ROOT / "tools" / "previews.py", "previews")


def test_every_reply_reads_at_phone_width_without_scrolling_sideways() -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    # `make test` installs it (Debian's chromium), as it does redis-server.
    assert chromium, "no chromium: apt-get install chromium"
    previews = _previews()
    phone = tuple(w for w in previews.WIDTHS if w[0] == "p")
    measured = previews.measure(chromium, phone)
    # Every reply kind, the Home tab in both languages and the newer surfaces.
    assert {name for name, _ in measured} == {name for name, _, _ in previews.SCENES} | {
        "home-en", "home-zh", "unfurl", "assistant", "assistant-answer", "workflow-step"}
    assert {key: boxes for key, boxes in measured.items() if boxes} == {}


def test_the_measure_sees_a_reply_that_is_cut_off(tmp_path: Path) -> None:
    """The check can fail: a five-column table, as replies were drawn before, is cut off."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "no chromium: apt-get install chromium"
    previews = _previews()
    cell = {"type": "raw_text", "text": "MindSpeed-LLM · Snt9B23 (DIE) 64 · 32 cards · 4 nodes"}
    wide = {"blocks": [{"type": "table", "rows": [[cell] * 5] * 3}], "text": "t"}
    html = tmp_path / "wide.html"
    previews.render(wide, 400, html)
    assert previews.overflow(chromium, html, 420) > 0
