#!/usr/bin/env python3
"""Draw the bot's replies as the playground draws them, and screenshot them.

    .venv/bin/python tools/previews.py --out DIR    # HTML and PNGs of every scene into DIR
    .venv/bin/python tools/previews.py --docs       # the README's pictures into docs/ (the
                                                    # rest into docs/previews/, not committed)
    .venv/bin/python tools/previews.py --out DIR --html-only   # no Chromium needed
    .venv/bin/python tools/previews.py --check-width  # does every reply fit 420 px and 900 px?

One renderer for the playground and these pictures: playground/static/blockkit.js (Block Kit as
DOM) and scene.js (a question and its reply), in headless Chromium (`apt-get install -y chromium
fonts-noto-cjk`) at a desktop and a phone width. Every reply is built by the same pure functions
the bot uses. Nothing outside the repository is needed.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mincards.bot.answering.engine import Engine  # noqa: E402
from mincards.bot.replies.render_blocks import message  # noqa: E402
from mincards.bot.replies.render_views import home_view  # noqa: E402

# (file name, question, asked with the slash command): one per kind of reply, both languages.
SCENES = [
    ("lookup-one", "qwen 2.5 72b lora 8k?", False),
    ("lookup-table", "Qwen/Qwen2.5-72B-Instruct", False),
    ("lookup-zh", "Qwen/Qwen2.5-72B-Instruct 全参 需要几张卡", False),
    ("budget", "/mincards can I train llama3.1-70b full on 4 nodes?", True),
    ("capacity", "what fits on 2 nodes?", False),
    ("compare", "qwen2.5-32b vs qwen2.5-72b lora", False),
    ("not-found", "qwen2.5-3b", False),
    ("not-covered", "mixtral lora", False),
    ("ambiguous-zh", "千问 7b 全参", False),
    ("stand-in", "DeepSeek-R1-Distill-Qwen-32B full", False),
    ("quantized", "qwen2.5:72b-instruct-q4_K_M lora", False),
    ("bracket", "Gemma-3-12B full", False),
    ("plan", "how long will qwen2.5-72b lora take on 32 cards, 1M samples of 2k tokens, "
             "3 epochs at TPS 1800?", False),
    ("plan-zh", "千问2.5-72B LoRA 20亿 tokens 吞吐 1500 两天内完成需要几张卡", False),
    ("plan-missing", "how long to train qwen2.5-7b lora on 8 cards?", False),
    ("help", "help", False),
    ("list", "list", False),
]
# The pictures the README shows, at desktop (d) and phone (p) width.
DOCS = ["lookup-table", "lookup-one", "lookup-zh", "budget", "not-found", "home-zh",
        "unfurl", "assistant", "workflow-step"]
LINK = "https://huggingface.co/Qwen/Qwen2.5-72B-Instruct"


def payloads(engine: Engine) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name, question, slash in SCENES:
        text = question.removeprefix("/mincards ").strip()
        answer = engine.ask(text)
        out[name] = {**message(engine.knowledge, answer, question=text, shareable=slash),
                     "_question": question, "_ephemeral": slash, "_thread": not slash}
    out.update(surfaces(engine))
    out["home-en"] = home_view(engine.knowledge, "en",
                               engine.ask("qwen2.5-72b lora 8k"))
    out["home-zh"] = home_view(engine.knowledge, "zh",
                               engine.ask("千问2.5-72b LoRA 8K"))
    return out


def surfaces(engine: Engine) -> dict[str, dict[str, Any]]:
    """The newer surfaces as people see them: the card under a pasted model link, the
    assistant pane's greeting (its suggested prompts drawn as the buttons Slack shows above the
    composer) and an answer in its thread, and a workflow's message made from the step's
    outputs."""
    from mincards.bot.facts.links import model_sites
    from mincards.bot.reading.model_links import read_link
    from mincards.bot.replies.assistant_prompts import suggested_prompts
    from mincards.bot.replies.i18n import t
    from mincards.bot.replies.render_unfurl import unfurl_card
    from mincards.bot.replies.step_outputs import step_result

    knowledge = engine.knowledge
    link = read_link(LINK, model_sites())
    assert link is not None
    card = unfurl_card(knowledge, engine.ask(link.name), link)
    assert card is not None
    greeting = t("en", "assistant.greeting", date=knowledge.table.source.date_text())
    prompts = [{"type": "button", "action_id": f"prompt_{i}", "value": p.message,
                "text": {"type": "plain_text", "text": p.title}}
               for i, p in enumerate(suggested_prompts(knowledge, "en"))]
    outputs = step_result(knowledge, engine.ask("qwen2.5-72b lora 8k on 16 cards"), True).outputs
    fields = [{"type": "mrkdwn", "text": f"*{name}*\n{value}"}
              for name, value in outputs.items() if name != "lead"]
    return {
        "unfurl": {**card, "text": link.url, "_question": LINK, "_unfurl": LINK},
        "assistant": {"text": greeting, "blocks": [
            {"type": "section", "text": {"type": "mrkdwn", "text": greeting}},
            {"type": "context", "elements": [{"type": "mrkdwn", "text": t(
                "en", "assistant.prompts.title")}]},
            {"type": "actions", "elements": prompts}], "_question": "(opens the pane)"},
        "assistant-answer": {**message(knowledge, engine.ask(prompts[0]["value"]),
                                       question=prompts[0]["value"]),
                             "_question": prompts[0]["value"], "_thread": True},
        "workflow-step": {"text": outputs["lead"], "blocks": [
            {"type": "section", "text": {"type": "mrkdwn",
                                         "text": f"*Minimum NPUs* · {outputs['lead']}"}},
            {"type": "section", "fields": fields[:10]}],
            "_question": "(a workflow's Send a message step, from the step's outputs)"},
    }


STATIC = ROOT / "playground" / "static"


def render(payload: dict[str, Any], width: int, html: Path) -> None:
    """A page drawing one scene `width` px wide with the playground's renderer."""
    data = json.dumps(payload, ensure_ascii=False).replace("</", "<\\/")
    html.write_text(f"""<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="{(STATIC / 'style.css').as_uri()}">
<style>body {{ background: #fff; }} #scene {{ width: {width}px; padding: 8px; }}</style>
</head><body><div id="scene"></div>
<script id="payload" type="application/json">{data}</script>
<script src="{(STATIC / 'blockkit.js').as_uri()}"></script>
<script src="{(STATIC / 'scene.js').as_uri()}"></script>
</body></html>""", encoding="utf-8")


def screenshot(chromium: str, html: Path, png: Path, width: int, height: int) -> None:
    subprocess.run([chromium, "--headless", "--no-sandbox", "--hide-scrollbars",
                    f"--screenshot={png}", f"--window-size={width},{height}",
                    html.resolve().as_uri()], check=True, capture_output=True)


# Marks every element whose content is wider than its box (a table cut off, a line that does
# not wrap), and the page itself when it scrolls sideways; the count goes in the title.
_MEASURE = """<script>
const wide = [...document.querySelectorAll('body *')].filter(
  e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).display !== 'inline');
const page = document.documentElement.scrollWidth > window.innerWidth + 1;
document.title = 'overflow:' + (wide.length + (page ? 1 : 0));
</script>"""


def overflow(chromium: str, html: Path, width: int) -> int:
    """How many boxes of the drawn reply are wider than a window `width` px wide lets them be
    (0: it reads without scrolling sideways)."""
    measured = html.with_suffix(".measure.html")
    measured.write_text(html.read_text(encoding="utf-8").replace("</body>", _MEASURE + "</body>"),
                        encoding="utf-8")
    try:
        dom = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                              "--hide-scrollbars", f"--window-size={width},1500", "--dump-dom",
                              measured.resolve().as_uri()], check=True, capture_output=True,
                             text=True, timeout=60).stdout
    finally:
        measured.unlink()
    match = re.search(r"<title>overflow:(\d+)</title>", dom)
    if match is None:
        raise RuntimeError(f"no measurement in {html}")
    return int(match.group(1))


WIDTHS = (("d", 860, 900, 1100), ("p", 400, 420, 1500))  # (tag, drawn at, window, height)


def measure(chromium: str, widths: tuple[tuple[str, int, int, int], ...] = WIDTHS
            ) -> dict[tuple[str, int], int]:
    """Every scene drawn at each width: (scene, window px) -> boxes cut off (0: it fits)."""
    with tempfile.TemporaryDirectory() as folder:
        jobs = []
        for name, payload in payloads(Engine()).items():
            for tag, width, window, _ in widths:
                html = Path(folder) / f"{name}-{tag}.html"
                render(payload, width, html)
                jobs.append(((name, window), html))
        # Two browsers at a time: each is a process of its own.
        with ThreadPoolExecutor(max_workers=2) as pool:
            counts = pool.map(lambda job: overflow(chromium, job[1], job[0][1]), jobs)
            return {key: boxes for (key, _), boxes in zip(jobs, counts, strict=True)}


def check_width(chromium: str) -> int:
    """Every scene at both widths: a line each, and 1 if any reply is cut off."""
    result = measure(chromium)
    for (name, window), boxes in result.items():
        print(f"{name:14} {window:4} px  " + (f"CUT OFF ({boxes} boxes)" if boxes else "fits"))
    return 1 if any(result.values()) else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--out", type=Path, help="the folder to write the pictures into")
    where.add_argument("--docs", action="store_true",
                       help="write the README's pictures into docs/ (and the rest into "
                       "docs/previews/)")
    ap.add_argument("--html-only", action="store_true")
    ap.add_argument("--check-width", action="store_true",
                    help="measure each reply at 900 and 420 px; exit 1 if any is cut off")
    args = ap.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if (args.check_width or not args.html_only) and not chromium:
        print("no chromium: apt-get install -y chromium fonts-noto-cjk, or --html-only",
              file=sys.stderr)
        return 2
    if args.check_width:
        assert chromium is not None
        return check_width(chromium)
    if args.out is None and not args.docs:
        print("say where: --out DIR, or --docs for the README's pictures", file=sys.stderr)
        return 2
    out = ROOT / "docs" if args.docs else args.out
    work = out / "previews" if args.docs else out
    work.mkdir(parents=True, exist_ok=True)
    for name, payload in payloads(Engine()).items():
        for tag, width, window, height in WIDTHS:
            html = work / f"{name}-{tag}.html"
            render(payload, width, html)
            if args.html_only or chromium is None:
                continue
            target = out if args.docs and name in DOCS else work
            screenshot(chromium, html, target / f"{name}-{tag}.png", window, height)
    print(f"wrote {work}" + ("" if args.html_only else f" and PNGs in {out}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
