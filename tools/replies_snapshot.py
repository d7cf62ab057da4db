#!/usr/bin/env python3
"""Every reply to a fixed set of questions, one JSON line each: the proof that a refactor is a move.

    .venv/bin/python tools/replies_snapshot.py > before.jsonl
    ... change the code ...
    .venv/bin/python tools/replies_snapshot.py > after.jsonl && cmp before.jsonl after.jsonl

The questions: ../shared/eval's dev cases and every truth entry in three spellings (when
../shared is beside the repo), tests/cases/*, bench/questions.py's generated questions (lookups,
budgets, capacity, comparisons and follow-ups), and the conversations of tests/cases/intents.py.
For each: the JSON of `mincards ask --json`, the plain text, the Slack message (blocks and
text, as shared and not), the view blocks, the modal; then every button the message carries,
clicked, and its answer's JSON and message. Also the Home tab, the ask form and the help.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))

from bench.questions import questions as generated  # noqa: E402
from mincards.bot.answering.conversation import Context, context_after  # noqa: E402
from mincards.bot.answering.engine import Engine  # noqa: E402
from mincards.bot.answering.followup import FollowUp  # noqa: E402
from mincards.bot.language import LANGUAGES  # noqa: E402
from mincards.bot.replies.render_blocks import message, view_blocks  # noqa: E402
from mincards.bot.replies.render_json import render_json  # noqa: E402
from mincards.bot.replies.render_text import render_text  # noqa: E402
from mincards.bot.replies.render_views import answer_modal, ask_modal, home_view  # noqa: E402


def _module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def conversations(engine: Engine, count: int) -> Iterator[list[str]]:
    """Each a list of questions asked one after another in one conversation."""
    cases = [ROOT / "tests" / "cases" / "paraphrases.py"]
    if (SHARED / "eval" / "dev_cases.py").exists():
        cases.insert(0, SHARED / "eval" / "dev_cases.py")
    for path in cases:
        for case in _module(path).CASES:
            yield [case[0]]
    intents = _module(ROOT / "tests" / "cases" / "intents.py")
    for group in (intents.BUDGET, intents.CAPACITY, intents.COMPARE):
        for case in group:
            yield [case[0]]
    for asked, _ in intents.FOLLOW_UPS:
        yield list(asked)
    truth = SHARED / "eval" / "truth.json"
    if truth.exists():
        for want in json.loads(truth.read_text(encoding="utf-8")):
            info = engine.knowledge.catalogue[want["model"]]
            for name, words in ((info.key, "{s} seq {n}"), (info.display, "{s} seq {n}"),
                                (info.display, "{s} 序列长度{n}")):
                yield [f"{name} " + words.format(s=want["strategy"], n=want["seq_len"])]
    for question, before in generated(engine, count):
        yield [question] if before is None else [before, question]


def clicks(blocks: list[dict[str, Any]]) -> Iterator[str]:
    """The value of every button and menu option a message offers."""
    for block in blocks:
        for element in block.get("elements", []):
            if isinstance(element, dict):
                if "value" in element:
                    yield element["value"]
                for option in element.get("options", []):
                    yield option["value"]


def replies(engine: Engine, count: int) -> Iterator[dict[str, Any]]:
    known = engine.knowledge
    for asked in conversations(engine, count):
        context: Context | None = None
        for question in asked:
            answer = engine.ask(question, context)
            context = context_after(answer, context)
        blocks = message(known, answer, question=question)
        yield {"asked": asked, "json": render_json(known, answer),
               "text": render_text(known, answer), "message": blocks,
               "shared": message(known, answer, question=question, shareable=True,
                                 asked_by="U0123ABC"),
               "view": view_blocks(known, answer), "modal": answer_modal(known, answer)}
        for value in clicks(blocks["blocks"]):
            follow = FollowUp.decode(value)
            if follow is not None:
                clicked = engine.follow(follow)
                yield {"clicked": value, "json": render_json(known, clicked),
                       "message": message(known, clicked, question=follow.text or "",
                                          page=follow.page)}
    for language in LANGUAGES:
        yield {"home": language, "view": home_view(known, language)}
        yield {"form": language, "view": ask_modal(known, language)}
        for model in known.table.models():
            yield {"home": language, "model": model,
                   "view": home_view(known, language, engine.form(language, model))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=5000,
                        help="how many generated questions (bench/questions.py)")
    args = parser.parse_args()
    engine = Engine()
    for reply in replies(engine, args.count):
        print(json.dumps(reply, ensure_ascii=False))


if __name__ == "__main__":
    main()
