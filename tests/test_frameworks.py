"""Answers over whatever frameworks a table has (1, 2 or 5), and honesty about those it lacks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.answering.followup import FollowUp
from mincards.bot.facts.knowledge import load_knowledge
from mincards.bot.importing.data_import import apply_import, plan_import
from mincards.bot.importing.importer import import_table
from mincards.bot.replies.examples import examples
from mincards.bot.replies.render_blocks import message
from mincards.bot.replies.render_json import render_json
from mincards.bot.replies.render_text import render_text
from mincards.bot.replies.render_views import home_view
from tests.blockkit import assert_valid_home, assert_valid_message
from tests.pages import FIXTURES, SEED, five_framework_page, hardware, text_page, vocabulary


def engine_on(data: Path, page_text: str, tmp_path: Path, allow_removals: bool = False) -> Engine:
    page = tmp_path / "page.txt"
    page.write_text(page_text, encoding="utf-8")
    # These pages are made up to exercise frameworks, whatever their date.
    apply_import(data, plan_import(data, page, allow_removals=allow_removals, allow_older=True))
    return Engine(load_knowledge(data))


@pytest.fixture()
def five(data_copy: Path, tmp_path: Path) -> Engine:
    return engine_on(data_copy, five_framework_page(), tmp_path)


@pytest.fixture()
def one(data_copy: Path, tmp_path: Path) -> Engine:
    """MindSpeed-LLM only, as the 2025-05-07 page was (a few of its rows)."""
    rows = ["qwen2-7b\tfull\t4096\t4*Ascend", "\tlora\t4096\t2*Ascend",
            "qwen2.5-32b\tfull/lora\t4096/8192\t16*Ascend",
            "llama3.2-1b\tfull/lora\t4096/8192\t1*Ascend\t2*Ascend"]
    return engine_on(data_copy, text_page(["MindSpeed-LLM"], rows, date="2025-05-07"), tmp_path,
                     allow_removals=True)


def test_five_frameworks_answer_render_and_fit_slacks_limits(five: Engine) -> None:
    answer = five.ask("Qwen/Qwen2-VL-7B-Instruct lora 4096")
    payload = render_json(five.knowledge, answer)
    assert payload["table"]["frameworks"] == ["mindspeed_llm", "llama_factory", "verl",
                                              "mindspeed_rl", "mindspeed_mm"]
    (row,) = payload["rows"]
    assert row["mindspeed_mm"] == {"snt9b": 16, "snt9b23": 16}
    assert row["mindspeed_rl"] == {"snt9b": None, "snt9b23": None}
    text = render_text(five.knowledge, answer)
    assert "MindSpeed-MM\n  LoRA · 4K: Snt9B 16 cards, 2 nodes" in text
    assert "MindSpeed-RL: not supported for any of these." in text
    for question in ("qwen2.5-72b", "qwen2.5-72b lora on verl", "qwen 7b", "list", "help"):
        answer = five.ask(question)
        assert_valid_message(message(five.knowledge, answer, question=question, shareable=True))
    assert_valid_home(home_view(five.knowledge, "en"))
    assert "VeRL" in json.dumps(home_view(five.knowledge, "en"), ensure_ascii=False)
    # A framework that supports none of the entries shown is said once, in the footer.
    blocks = message(five.knowledge, five.ask("qwen2-vl-7b"))["blocks"]
    numbers = [line for b in blocks if b["type"] == "section" and "text" in b
               for line in b["text"]["text"].split("\n")]
    assert not any("MindSpeed-RL" in line for line in numbers)
    assert any(line.startswith("*MindSpeed-MM") for line in numbers)
    assert "MindSpeed-RL" in json.dumps([b for b in blocks if b["type"] == "context"])


def test_an_rl_question_is_answered_from_the_rl_frameworks_when_the_table_has_them(
        five: Engine) -> None:
    answer = five.ask("qwen2.5-72b grpo lora 4k")
    assert answer.intent == "lookup" and answer.frameworks == ("verl", "mindspeed_rl")
    assert answer.rows[0].count("verl", "snt9b") == 32
    text = render_text(five.knowledge, answer)
    # Only the RL frameworks' rows are shown: the others do not train with GRPO.
    assert "VeRL\n  LoRA · 4K: Snt9B 32 cards" in text and "MindSpeed-LLM" not in text
    assert five.ask("qwen2.5-72b dpo").intent == "not_covered"  # no framework here does DPO
    # Llama-Factory has a column but does not train with GRPO: no SFT numbers stand in.
    other = five.ask("qwen2.5-72b grpo on llama-factory")
    assert (other.intent, other.rows) == ("not_covered", ())
    note = other.note("stage_not_covered")
    assert note is not None and note.args["in_table"] == ["verl", "mindspeed_rl"]
    assert "In this table, VeRL and MindSpeed-RL train with it" in render_text(five.knowledge,
                                                                               other)


def test_a_new_framework_needs_no_edit(data_copy: Path, tmp_path: Path) -> None:
    rows = ["qwen2.5-7b\tfull\t4096\t8*Ascend\t\t4*Ascend\t8*Ascend"]
    engine = engine_on(data_copy, text_page(["MindSpeed-LLM", "Ascend-Trainer X"], rows),
                       tmp_path, allow_removals=True)
    assert engine.knowledge.table.framework_ids == ("mindspeed_llm", "ascend_trainer_x")
    answer = engine.ask("qwen2.5-7b full on ascend trainer x")
    assert answer.intent == "lookup" and answer.frameworks == ("ascend_trainer_x",)
    assert ("Ascend-Trainer X\n  full-parameter · 4K: Snt9B 4 cards, 1 node | Snt9B23 8 DIE"
            in render_text(engine.knowledge, answer))


def test_one_framework(one: Engine) -> None:
    answer = one.ask("qwen2.5-32b lora 8k")
    (row,) = render_json(one.knowledge, answer)["rows"]
    assert set(row) == {"model", "strategy", "seq_len", "mindspeed_llm"}
    assert "Llama-Factory" not in render_text(one.knowledge, answer)
    assert_valid_message(message(one.knowledge, answer))
    assert_valid_home(home_view(one.knowledge, "en"))
    assert "MindSpeed-LLM on Snt9B" in render_text(one.knowledge, one.ask("help"))


@pytest.mark.parametrize("question", ["llama-factory qwen2.5-32b lora",
                                      "qwen2.5-32b lora 用 LLaMA-Factory 需要几张卡"])
def test_a_framework_this_version_lacks_is_said_and_no_numbers_stand_in(
        one: Engine, question: str) -> None:
    answer = one.ask(question)
    payload = render_json(one.knowledge, answer)
    assert (payload["intent"], payload["models"], payload["rows"]) == (
        "not_covered", ["qwen2.5-32b"], [])
    note = answer.note("framework_not_in_table")
    assert note is not None and note.args["frameworks"] == ["llama_factory"]
    text = payload["text"]
    assert "Llama-Factory" in text and "2025-05-07" in text  # the page's own spelling
    assert "16 cards" not in text and "16 卡" not in text


@pytest.mark.parametrize(("question", "lacking"), [
    ("qwen2.5-32b on VeRL", ["verl"]),
    ("MindSpeed-RL qwen2.5-32b", ["mindspeed_rl"]),
    ("qwen2.5-32b full mindspeed_mm", ["mindspeed_mm"]),
])
def test_todays_data_has_no_rl_or_mm_columns(engine: Engine, question: str,
                                             lacking: list[str]) -> None:
    answer = engine.ask(question)
    assert (answer.intent, answer.models, answer.rows) == ("not_covered", ("qwen2.5-32b",), ())
    note = answer.note("framework_not_in_table")
    assert note is not None and note.args["frameworks"] == lacking
    assert "cards," not in render_text(engine.knowledge, answer)


def test_mindspeed_alone_still_means_mindspeed_llm(engine: Engine) -> None:
    answer = engine.ask("mindspeed qwen2.5-32b lora")
    assert answer.intent == "lookup" and answer.frameworks == ("mindspeed_llm",)


def test_a_lacking_framework_beside_one_the_table_has(engine: Engine) -> None:
    answer = engine.ask("qwen2.5-32b lora 4k on verl or mindspeed-llm")
    assert answer.intent == "lookup" and answer.rows
    assert answer.note("framework_not_in_table") is not None
    text = render_text(engine.knowledge, answer)
    # The framework named narrows the rows shown to it.
    assert "MindSpeed-LLM\n  LoRA · 4K: Snt9B 16 cards" in text and "Llama-Factory\n" not in text


@pytest.mark.parametrize(("question", "stage"), [
    ("qwen2.5-7b grpo", "grpo"), ("qwen2.5-7b RL", "rl"), ("qwen2.5-7b inference", "inference"),
    ("qwen2.5-7b 推理需要几张卡", "推理"), ("qwen2.5-7b DPO lora", "dpo"),
])
def test_stages_the_table_lacks_say_it_covers_sft_and_pt(engine: Engine, question: str,
                                                         stage: str) -> None:
    answer = engine.ask(question)
    assert answer.intent == "not_covered" and answer.rows == ()
    note = answer.note("stage_not_covered")
    assert note is not None and note.args["stage"] == stage
    assert "SFT" in render_text(engine.knowledge, answer)


def test_a_strategy_is_a_data_change(data_copy: Path, tmp_path: Path) -> None:
    vocab = data_copy / "vocabulary.toml"
    vocab.write_text(vocab.read_text(encoding="utf-8") + (
        '\n[strategies.grpo]\nlabel = { en = "GRPO", zh = "GRPO" }\nwords = ["grpo"]\n'),
        encoding="utf-8")
    page = SEED.read_text(encoding="utf-8").rstrip("\n") + (
        "\nqwen2.5-7b\tgrpo\t4096/32k\t16*Ascend\t\t-\n")
    engine = engine_on(data_copy, page, tmp_path)
    answer = engine.ask("qwen2.5-7b grpo 32k")
    assert answer.intent == "lookup" and [e.key for e in answer.rows] == [
        ("qwen2.5-7b", "grpo", 32768)]
    assert "GRPO · 32K" in render_text(engine.knowledge, answer)
    assert engine.ask("qwen2.5-7b dpo").intent == "not_covered"


def test_a_data_folder_in_the_first_format_still_loads_and_answers_the_same(
        engine: Engine) -> None:
    old = Engine(load_knowledge(FIXTURES / "data-format-1"))
    assert old.knowledge.table.framework_ids == engine.knowledge.table.framework_ids
    assert [f.name for f in old.knowledge.table.frameworks] == ["MindSpeed-LLM", "LLaMA-Factory"]
    for question in ("qwen 2.5 72b lora 8k", "qwen2-7b", "mixtral lora", "qwen 7b",
                     "llama3.2-1b full 4k on llama-factory snt9b23"):
        a, b = old.ask(question), engine.ask(question)
        assert (a.intent, a.models, a.candidates) == (b.intent, b.models, b.candidates), question
        assert render_json(old.knowledge, a)["rows"] == render_json(engine.knowledge, b)["rows"]


def test_help_examples_come_from_the_loaded_table(five: Engine, one: Engine) -> None:
    for engine in (five, one):
        for language in ("en", "zh"):
            asks = examples(engine.knowledge, language)
            assert len(asks) >= 3
            for question in asks:
                answer = engine.ask(question)
                assert answer.intent in ("lookup", "compare", "capacity"), question
                assert answer.language == language


@pytest.mark.parametrize("frameworks", [7, 11])
def test_many_filled_frameworks_stay_within_slacks_table_characters(
        data_copy: Path, tmp_path: Path, frameworks: int) -> None:
    """Seven filled frameworks are 14 columns: a table, whose cells would pass Slack's 10,000
    characters in a capacity reply; eleven are too wide for a table. Every reply is within
    every limit, and every model that fits is shown or one click away."""
    names = ["MindSpeed-LLM", *[f"Trainer {chr(65 + i)}" for i in range(frameworks - 1)]]
    rows = []
    for e in import_table(SEED.read_text(encoding="utf-8"), vocabulary(),
                          hardware().flavours).entries:
        base = e.count("mindspeed_llm", "snt9b") or 8
        cells = [f"{base + i}*Ascend\t{2 * (base + i)}*Ascend" for i in range(len(names))]
        rows.append("\t".join([e.model, e.strategy, str(e.seq_len), *cells]))
    wide = engine_on(data_copy, text_page(names, rows), tmp_path, allow_removals=True)
    assert len(wide.knowledge.table.framework_ids) == frameworks
    for question in ("what fits on 64 nodes", "what can I train on 16 cards?",
                     "qwen2.5-72b", "qwen2.5-7b vs qwen2.5-72b", "DeepSeek-V3 full on 8 nodes"):
        answer = wide.ask(question)
        seen: list[str] = []
        page = 0
        while True:
            payload = message(wide.knowledge, answer, question=question, page=page)
            assert_valid_message(payload)
            shown = json.dumps(payload["blocks"], ensure_ascii=False)
            seen += [m for m in answer.models if wide.knowledge.catalogue[m].display in shown]
            more = [e for b in payload["blocks"] if b.get("block_id") == "mincards_next"
                    for e in b["elements"]]
            if not more:
                break
            follow = FollowUp.decode(more[0]["value"])
            assert follow is not None and follow.page > page
            page = follow.page
        assert set(answer.models) <= set(seen), question


def test_a_page_of_eleven_frameworks_is_written_out_whole(data_copy: Path,
                                                          tmp_path: Path) -> None:
    """Eleven frameworks are eleven lines an entry, within a section's characters: no number
    is cut off, and nothing is a table block."""
    names = ["MindSpeed-LLM", *[f"Trainer {chr(65 + i)}" for i in range(10)]]
    rows = []
    for e in import_table(SEED.read_text(encoding="utf-8"), vocabulary(),
                          hardware().flavours).entries[:40]:
        base = e.count("mindspeed_llm", "snt9b") or 8
        cells = [f"{base + i}*Ascend\t{2 * (base + i)}*Ascend" for i in range(len(names))]
        rows.append("\t".join([e.model, e.strategy, str(e.seq_len), *cells]))
    wide = engine_on(data_copy, text_page(names, rows), tmp_path, allow_removals=True)
    assert len(wide.knowledge.table.framework_ids) == 11
    for question in ("qwen2.5-72b", "what fits on 8 nodes", "qwen2.5-7b vs qwen2.5-72b",
                     "qwen2.5-72b lora 8k"):
        answer = wide.ask(question)
        payload = message(wide.knowledge, answer, question=question, shareable=True)
        assert_valid_message(payload)
        assert all(b["type"] != "table" for b in payload["blocks"])
        shown = json.dumps(payload["blocks"], ensure_ascii=False)
        if answer.intent == "capacity":
            continue  # a row a model, its fewest: the entries are a pick away
        for e in answer.rows[:3]:
            assert f"Trainer J: Snt9B {e.count('trainer_j', 'snt9b')} cards" in shown, question
