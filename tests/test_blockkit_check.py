"""Slack's own limits as the project's shared checker reads them (../shared/tools/
blockkit_check.py: slack_sdk's models and what they skip): no message, Home tab or modal the
bot makes, in any reply kind or language, is one Slack would refuse, and none draws a warning
but the long notification of a comparison over every strategy."""

from __future__ import annotations

import os
from types import ModuleType

import pytest

from bench.questions import questions
from mincards.bot.answering.engine import Engine
from mincards.bot.answering.preferences import Preferences
from mincards.bot.facts.checked_cache import CACHE_ENV
from mincards.bot.replies.render_blocks import message
from mincards.bot.replies.render_settings import settings_blocks, settings_modal
from mincards.bot.replies.render_views import answer_modal, ask_modal, home_view
from tests.blockkit import assert_valid_home, assert_valid_modal
from tests.conftest import SHARED, load_module, needs_shared
from tests.process_exit import run_to_exit
from tests.test_blocks import QUESTIONS

CHECKER = SHARED / "tools" / "blockkit_check.py"


@pytest.fixture(scope="module")
def checker() -> ModuleType:
    return load_module(CHECKER, "blockkit_check")


@needs_shared("tools", "blockkit_check.py")
def test_every_reply_passes_slacks_checker(engine: Engine, checker: ModuleType) -> None:
    # With the estimate beside a bracket, with a budget, in both languages.
    estimated = ["phi-4", "Yi-1.5-34B 需要几张卡", "Mistral-Small-3.2-24B full 8k 16 cards?",
                 "DeepSeek-V2 全参", "Llama-3.2-90B-Vision lora"]
    asked = [*QUESTIONS, *estimated, *(q for q, _ in questions(engine, 300))]
    assert all(engine.ask(q).estimate is not None for q in estimated)
    problems = []
    for i, question in enumerate(asked):
        answer = engine.ask(question)
        for shape, payload in (
                ("message", message(engine.knowledge, answer, question=question,
                                    shareable=True, asked_by="U0123ABC")),
                ("modal", answer_modal(engine.knowledge, answer))):
            rep = checker.Report(f"{i}:{shape}", "message" if shape == "message" else "view")
            if shape == "message":
                checker.check_message(payload, rep)
            else:
                checker.check_view(payload, rep)
            problems += [(question[:60], shape, e) for e in rep.errors]
            # A warning, accepted: a comparison over every strategy says a line a strategy
            # (all of it is the answer); every other notification is short.
            problems += [(question[:60], shape, w) for w in rep.warnings
                         if not (answer.intent == "compare" and not answer.strategies
                                 and w.startswith("notification text is"))]
    assert problems == []


@needs_shared("tools", "blockkit_check.py")
def test_the_home_tab_and_the_form_pass_slacks_checker(engine: Engine,
                                                       checker: ModuleType) -> None:
    problems = []
    for language in ("en", "zh"):
        chosen = Preferences(flavours=("snt9b23",), frameworks=("llama_factory",),
                             language="zh", length="short")
        settings = settings_blocks(engine.knowledge, language, chosen, Preferences(),
                                   problem="not saved")
        views = [home_view(engine.knowledge, language), ask_modal(engine.knowledge, language),
                 home_view(engine.knowledge, language, settings=settings),
                 settings_modal(engine.knowledge, language, chosen, chosen),
                 *(home_view(engine.knowledge, language, engine.form(language, m))
                   for m in engine.knowledge.table.models())]
        for view in views:
            rep = checker.Report(language, "view")
            checker.check_view(view, rep)
            # The shared checker does not know multi-select menus (the Settings section's
            # flavours and frameworks): tests/blockkit.py checks those (options, values, the
            # initial choices among them), and this view as a whole.
            problems += [*rep.errors, *(w for w in rep.warnings
                                        if "'multi_static_select' not checked" not in w)]
            if view["type"] == "home":
                assert_valid_home(view)
            else:
                assert_valid_modal(view)
    assert problems == []


@needs_shared("tools", "blockkit_check.py")
def test_unfurl_cards_and_the_picked_form_pass_slacks_checker(engine: Engine,
                                                             checker: ModuleType) -> None:
    from mincards.bot.answering.preferences import Preferences as Asked
    from mincards.bot.facts.links import model_sites
    from mincards.bot.reading.model_links import read_link
    from mincards.bot.replies.render_unfurl import unfurl_card

    problems = []
    urls = ["https://huggingface.co/Qwen/Qwen2.5-72B-Instruct",
            "https://huggingface.co/deepseek-ai/DeepSeek-R1-Distill-Qwen-7B",
            "https://huggingface.co/meta-llama/Llama-3.1-405B",
            "https://ollama.com/library/qwen2.5:72b"]
    for language in ("en", "zh"):
        for url in urls:
            link = read_link(url, model_sites())
            assert link is not None
            card = unfurl_card(engine.knowledge, engine.ask(link.name, None,
                                                            Asked(language=language)), link)
            assert card is not None
            rep = checker.Report(url, "message")
            checker.check_message({"text": "card", **card}, rep)
            problems += [*rep.errors, *rep.warnings]
        from mincards.bot.replies.assistant_prompts import greeting

        rep = checker.Report("greeting", "message")
        checker.check_message(greeting(engine.knowledge, language), rep)
        problems += [*rep.errors, *rep.warnings]
        for model in engine.knowledge.table.models()[:5]:
            rep = checker.Report(model, "view")
            checker.check_view(ask_modal(engine.knowledge, language, model), rep)
            problems += [*rep.errors, *rep.warnings]
    assert problems == []


@needs_shared("tools", "blockkit_check.py")
def test_ask_blocks_prints_what_slack_takes_for_every_reply_kind(engine: Engine,
                                                                checker: ModuleType) -> None:
    """`mincards ask --blocks`: the chat.postMessage payload, one JSON object per question."""
    import json
    import sys
    from pathlib import Path

    mincards = Path(sys.executable).with_name("mincards")
    asked = [q for q in QUESTIONS if q.strip()]  # an empty line asks nothing
    done = run_to_exit([str(mincards), "ask", "--blocks", "-"], input="\n".join(asked),
                       capture_output=True, text=True, check=True,
                       env={"PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": "/nonexistent",
                            CACHE_ENV: os.environ[CACHE_ENV]})
    decoder, at, payloads = json.JSONDecoder(), 0, []
    out = done.stdout
    while at < len(out):
        if out[at].isspace():
            at += 1
            continue
        payload, at = decoder.raw_decode(out, at)
        payloads.append(payload)
    assert len(payloads) == len(asked)
    intents = {engine.ask(q).intent for q in asked}
    assert {"lookup", "capacity", "compare", "not_found", "ambiguous", "help"} <= intents
    problems = []
    for question, payload in zip(asked, payloads, strict=True):
        assert payload["text"] and payload["blocks"], question
        rep = checker.Report(question[:40], "message")
        checker.check_message(payload, rep)
        problems += [(question[:40], e) for e in rep.errors]
    assert problems == []
