"""Preferences (bot/answering/preferences.py): a person's or workspace's flavours, frameworks,
language and length narrow every reply unless the question names its own, and say so."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mincards.bot.answering.conversation import context_after
from mincards.bot.answering.engine import Engine
from mincards.bot.answering.followup import FollowUp
from mincards.bot.answering.preferences import Preferences
from mincards.bot.replies.render_blocks import message
from mincards.bot.replies.render_json import render_json
from mincards.bot.replies.render_text import render_text
from tests.process_exit import run_to_exit

MINCARDS = Path(sys.executable).with_name("mincards")
A3 = Preferences(flavours=("snt9b23",), frameworks=("llama_factory",))


@pytest.mark.parametrize("question", [
    "qwen 2.5 72b lora 8k?", "Qwen/Qwen2.5-72B-Instruct 全参 需要几张卡", "what fits on 2 nodes?",
    "qwen2.5-32b vs qwen2.5-72b lora", "can I train llama3.1-70b full on 4 nodes?",
    "how long will qwen2.5-72b lora take on 32 cards, 1M samples of 2k tokens, 3 epochs at "
    "TPS 1800?"])
def test_settings_narrow_every_kind_of_reply_and_say_so(engine: Engine, question: str) -> None:
    answer = engine.ask(question, None, A3)
    assert answer.filters_from == "settings"
    text = render_text(engine.knowledge, answer)
    blocks = json.dumps(message(engine.knowledge, answer, question=question),
                        ensure_ascii=False)
    assert "Snt9B " not in text.replace("Snt9B23", "") and "MindSpeed-LLM" not in text
    assert "MindSpeed-LLM" not in blocks
    said = "Showing Snt9B23 and Llama-Factory, your settings" if answer.language == "en" else \
        "按你的设置只显示 Snt9B23 和 Llama-Factory"
    assert said in text and said in blocks
    shown = render_json(engine.knowledge, answer, question)
    assert shown["filters_from"] == "settings"
    assert all(set(r) - {"model", "strategy", "seq_len", "fits"} <= {"llama_factory",
                                                                     "mindspeed_llm"}
               for r in shown["rows"])


def test_a_question_naming_its_own_overrides_the_setting(engine: Engine) -> None:
    answer = engine.ask("qwen2.5-72b lora 8k with mindspeed-llm on snt9b", None, A3)
    assert answer.filters_from == "question"
    assert answer.frameworks == ("mindspeed_llm",) and answer.flavours == ("snt9b",)
    assert answer.note("from_settings") is None
    # Only the part the question left open comes from the settings, and only that is said.
    half = engine.ask("qwen2.5-72b lora 8k on snt9b", None, A3)
    note = half.note("from_settings")
    assert note is not None and note.args == {"frameworks": ["llama_factory"]}
    assert half.flavours == ("snt9b",)


def test_no_settings_is_todays_answer(engine: Engine) -> None:
    for question in ("qwen 2.5 72b lora 8k?", "what fits on 2 nodes?"):
        plain = engine.ask(question)
        assert engine.ask(question, None, Preferences()) == plain
        assert plain.filters_from is None and plain.note("from_settings") is None


def test_language_setting_and_a_person_over_the_workspace(engine: Engine) -> None:
    workspace = Preferences(flavours=("snt9b",), language="zh")
    person = Preferences(frameworks=("llama_factory",))
    both = person.over(workspace)
    assert both == Preferences(flavours=("snt9b",), frameworks=("llama_factory",),
                               language="zh")
    assert Preferences(flavours=("snt9b23",)).over(workspace).flavours == ("snt9b23",)
    answer = engine.ask("qwen2.5-72b lora 8k", None, both)
    assert answer.language == "zh" and answer.flavours == ("snt9b",)


def test_a_setting_the_table_lacks_is_ignored(engine: Engine) -> None:
    answer = engine.ask("qwen2.5-72b lora 8k", None, Preferences(frameworks=("verl",)))
    assert answer.filters_from is None and answer.frameworks == ()


def test_the_memory_keeps_answers_apart_by_preferences(engine: Engine) -> None:
    plain = engine.recall("qwen2.5-14b lora 4k")
    narrowed = engine.recall("qwen2.5-14b lora 4k", None, A3)
    assert plain is not narrowed and narrowed.filters_from == "settings"
    assert engine.recall("qwen2.5-14b lora 4k", None, A3) is narrowed


def test_buttons_the_form_and_follow_ups_keep_the_settings_and_show_all_drops_them(
        engine: Engine) -> None:
    first = engine.ask("qwen2.5-72b lora 8k", None, A3)
    # The thread remembers the question, not the settings' filters: a follow-up applies the
    # settings afresh and says so (and a changed setting holds for what follows).
    context = context_after(first, None)
    assert context is not None and context.flavours == () and context.frameworks == ()
    then = engine.ask("and full?", context, A3)
    assert then.strategies == ("full",) and then.note("from_settings") is not None
    assert set(then.flavours) == {"snt9b23"}
    assert "MindSpeed-LLM" in render_text(engine.knowledge, engine.ask("and full?", context))
    # A model picked from a button or a menu, and the form, are narrowed the same way.
    picked = engine.follow(FollowUp.pick(first, "qwen2.5-7b"), A3)
    menu = engine.follow(FollowUp(language="en", model="qwen2.5-7b"), A3)
    form = engine.form("en", "qwen2.5-7b", ("lora",), preferences=A3)
    for answer in (picked, menu, form):
        assert answer.models == ("qwen2.5-7b",) and answer.filters_from == "settings"
        assert "MindSpeed-LLM" not in render_text(engine.knowledge, answer)
    # "Show all": the same question, every flavour and framework; offered only when narrowed.
    show_all = FollowUp.show_all(first)
    assert show_all is not None
    decoded = FollowUp.decode(show_all.encode())
    assert decoded == show_all
    everything = engine.follow(decoded, A3)
    assert everything.note("from_settings") is None and everything.rows == engine.ask(
        "qwen2.5-72b lora 8k").rows
    assert FollowUp.show_all(engine.ask("qwen2.5-72b lora 8k")) is None
    blocks = message(engine.knowledge, first, question="qwen2.5-72b lora 8k")["blocks"]
    assert [e["action_id"] for b in blocks if b["type"] == "actions"
            for e in b["elements"]].count("show_all") == 1
    short = message(engine.knowledge, first, short=True)["blocks"]
    assert short[-1]["elements"][0]["text"]["text"] == "Show all"


def run(*args: str, config: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CONFIG_HOME": str(config or "/nonexistent")}
    return run_to_exit([str(MINCARDS), *args], capture_output=True, text=True, env=env, check=False)


def test_the_command_lines_flags_and_config_file(tmp_path: Path) -> None:
    flags = run("ask", "--json", "--flavour", "Snt9B23", "--framework", "llama factory",
                "qwen2.5-72b lora 8k")
    said = json.loads(flags.stdout)
    assert said["filters_from"] == "settings"
    assert "Llama-Factory" in said["lead"] and "MindSpeed-LLM" not in said["lead"]
    folder = tmp_path / "mincards"
    folder.mkdir()
    (folder / "config.toml").write_text('flavours = ["Snt9B"]\nlanguage = "zh"\n',
                                        encoding="utf-8")
    stored = json.loads(run("ask", "--json", "qwen2.5-72b lora 8k", config=tmp_path).stdout)
    assert stored["filters_from"] == "settings" and stored["language"] == "zh"
    assert "Snt9B23" not in stored["lead"]
    # A flag wins over the file; --no-settings sees everything.
    over = json.loads(run("ask", "--json", "--flavour", "snt9b23", "qwen2.5-72b lora 8k",
                          config=tmp_path).stdout)
    assert "Snt9B23" in over["lead"] and "Snt9B " not in over["lead"]
    bare = json.loads(run("ask", "--json", "--no-settings", "qwen2.5-72b lora 8k",
                          config=tmp_path).stdout)
    assert bare["filters_from"] is None and bare["language"] == "en"
    for bad in ('flavours = "x"\n', 'flavours = ["nope"]\n', 'colour = "red"\n', "= broken"):
        (folder / "config.toml").write_text(bad, encoding="utf-8")
        result = run("ask", "qwen2.5-72b", config=tmp_path)
        assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
        assert "Traceback" not in result.stderr
    assert run("ask", "--flavour", "nope", "qwen").returncode == 2
