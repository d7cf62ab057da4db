#!/usr/bin/env python3
"""Screenshot the playground for the README: a mention answered in its thread, at desktop and
phone width (docs/playground-d.png, docs/playground-p.png; or into --out DIR).

    .venv/bin/python tools/playground_shot.py [--out DIR]

Starts `mincards playground` on a free port and drives it with Playwright on Debian's Chromium.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs")
    args = ap.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("no chromium: apt-get install -y chromium fonts-noto-cjk", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLACK_")}
    log = Path(tempfile.mkdtemp()) / "playground.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(Path(sys.executable).with_name("mincards")), "playground", "--port", str(port)],
            env={**env, "LOG_LEVEL": "WARNING"}, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while "mincards playground: http" not in log.read_text(encoding="utf-8"):
            if process.poll() is not None or time.monotonic() > deadline:
                print(log.read_text(encoding="utf-8"), file=sys.stderr)
                return 1
            time.sleep(0.1)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            for tag, width, height, phone in (("d", 1200, 620, False), ("p", 420, 900, True)):
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(f"http://127.0.0.1:{port}/")
                page.wait_for_selector("#pane-title span")
                if phone:
                    page.check("#phone")
                page.fill("#text", "@mincards qwen 2.5 72b lora 8k?")
                page.press("#text", "Enter")
                page.locator("#messages .replies").last.click()
                page.locator("#thread .message.bot").last.wait_for()
                page.screenshot(path=str(args.out / f"playground-{tag}.png"))
                page.close()
            browser.close()
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
    print(f"wrote {args.out}/playground-d.png and playground-p.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
