"""Models the table does not list by name: stand-ins driven by data/stand_ins.toml and the
vocabulary's quantization words, and brackets checked against tests/oracle.py."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.errors import DataError
from mincards.bot.facts.knowledge import PACKAGE_DATA, load_knowledge
from mincards.bot.replies.render_blocks import message
from mincards.bot.replies.render_json import render_json
from mincards.bot.replies.render_text import render_text
from tests import oracle

STAND_INS = tomllib.loads((oracle.DATA / "stand_ins.toml").read_text(encoding="utf-8"))[
    "stand_in"]
VOCABULARY = tomllib.loads((oracle.DATA / "vocabulary.toml").read_text(encoding="utf-8"))
DISPLAY = {m: str(i["display"]) for m, i in oracle.catalogue().items()}


def ask(engine: Engine, text: str) -> dict[str, Any]:
    return render_json(engine.knowledge, engine.ask(text))


def rows_of(payload_rows: list[dict[str, Any]]) -> list[tuple[str, str, int]]:
    return [(r["model"], r["strategy"], r["seq_len"]) for r in payload_rows]


# --- same architecture, from the data file ------------------------------------------------------

NAMES = [pytest.param(item, name, id=name) for item in STAND_INS
         for name in (item["display"], *item["names"])]


@pytest.mark.parametrize(("item", "name"), NAMES)
@pytest.mark.parametrize("strategy", ["lora", "full"])
def test_every_stand_in_name_answers_with_its_base_and_stays_not_found(
        engine: Engine, item: dict[str, Any], name: str, strategy: str) -> None:
    payload = ask(engine, f"{name} {strategy}")
    assert (payload["intent"], payload["models"], payload["rows"]) == ("not_found", [], [])
    stand_in = payload["stand_in"]
    assert (stand_in["asked"], stand_in["model"], stand_in["relation"]) == (
        item["display"], item["model"], "same_architecture")
    assert stand_in["source"] == item["source"]
    context = item.get("context")
    want = [r.key for r in oracle.select(item["model"], strategy)
            if not context or r.seq_len <= context]
    assert rows_of(stand_in["rows"]) == want
    base = DISPLAY[item["model"]]
    assert payload["lead"].startswith(f"{item['display']} is not in the table; it has "
                                      f"{base}'s architecture")
    # The best is the base's, per flavour, from its rows.
    for flavour in oracle.flavours():
        counts = [c for r in oracle.rows() if r.key in want for (fw, fl), c in r.counts.items()
                  if fl == flavour and c is not None]
        best = stand_in["best"][flavour]
        assert (best or {}).get("count") == (min(counts) if counts else None)


@pytest.mark.parametrize(("text", "display"), [
    ("deepseek r1 distill qwen 32b lora", "DeepSeek-R1-Distill-Qwen-32B"),
    ("DeepSeek R1 Distill Llama 70B", "DeepSeek-R1-Distill-Llama-70B"),
    ("qwen 2.5 coder 32b", "Qwen2.5-Coder-32B"),
    ("QwQ 32B", "QwQ-32B"),
    ("llama 3.3 70b full", "Llama-3.3-70B"),
    ("deepseek-r1-distill-qwen-32b-awq lora", "DeepSeek-R1-Distill-Qwen-32B"),
])
def test_stand_ins_written_apart_or_quantized(engine: Engine, text: str, display: str) -> None:
    payload = ask(engine, text)
    assert payload["intent"] == "not_found" and payload["stand_in"]["asked"] == display


def test_a_distill_written_apart_never_reads_as_its_teacher(engine: Engine) -> None:
    payload = ask(engine, "deepseek r1 distill qwen 1.5b lora")
    assert payload["intent"] == "not_found" and "671" not in payload["lead"]
    assert payload["bracket"]["size_b"] == 1.5


def test_a_stand_in_answers_in_chinese_too(engine: Engine) -> None:
    payload = ask(engine, "DeepSeek-R1-Distill-Qwen-32B 全参 需要几张卡")
    assert payload["lead"].startswith(
        "表中没有 DeepSeek-R1-Distill-Qwen-32B；它与 Qwen2.5-32B 架构相同")


# A context shorter than a length the table lists (Llama 3's 8,192 is not, on this page).
@pytest.mark.parametrize("item", [i for i in STAND_INS if i.get("context") and any(
    r.seq_len > i["context"] for r in oracle.select(i["model"], "lora"))],
                         ids=lambda i: i["display"])
def test_a_shorter_context_answers_its_own_lengths_only(engine: Engine,
                                                         item: dict[str, Any]) -> None:
    context = item["context"]
    longer = [r.seq_len for r in oracle.select(item["model"], "lora") if r.seq_len > context]
    assert longer, "the table must list a length beyond the model's context"
    payload = ask(engine, f"{item['display']} lora {longer[0]}")
    assert all(r["seq_len"] <= context for r in payload["stand_in"]["rows"])
    assert payload["stand_in"]["rows"]
    notes = [n for n in payload["notes"] if n["kind"] == "beyond_context"]
    assert notes and notes[0]["context"] == context and notes[0]["seq_len"] == longer[0]
    assert "beyond" in render_text(engine.knowledge, engine.ask(
        f"{item['display']} lora {longer[0]}"))


def test_a_stand_in_thread_keeps_the_asked_model(engine: Engine) -> None:
    from mincards.bot.answering.conversation import context_after

    first = engine.ask("Qwen2.5-Coder-32B full")
    then = engine.ask("and lora?", context_after(first, None))
    assert then.intent == "not_found" and then.stand_in is not None
    assert then.stand_in.asked == "Qwen2.5-Coder-32B"
    assert {e.strategy for e in then.stand_in.rows} == {"lora"}


def test_a_stand_in_whose_base_this_table_lacks_is_not_used(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(PACKAGE_DATA, data, ignore=shutil.ignore_patterns("__pycache__"))
    table = data / "table.csv"
    table.write_text("".join(line for line in table.read_text(encoding="utf-8")
                             .splitlines(keepends=True) if not line.startswith("qwen2.5-32b,")),
                     encoding="utf-8")
    engine = Engine(load_knowledge(data, cached=False))
    answer = engine.ask("QwQ-32B lora")
    assert answer.intent == "not_found" and answer.stand_in is None


def test_a_stand_in_for_a_model_missing_from_the_catalogue_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(PACKAGE_DATA, data, ignore=shutil.ignore_patterns("__pycache__"))
    (data / "stand_ins.toml").write_text(
        '[[stand_in]]\ndisplay = "Foo-7B"\nnames = ["foo-7b"]\nmodel = "qwen9-7b"\n'
        'relation = "same_architecture"\nsource = "none"\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"Foo-7B"):
        load_knowledge(data, cached=False)


def test_every_stand_in_names_a_table_model_and_a_source() -> None:
    for item in STAND_INS:
        assert item["model"] in oracle.table_models()
        assert "config.json" in item["source"]


# --- quantized copies --------------------------------------------------------------------------

QUANT = [
    ("Meta-Llama-3.1-70B-Instruct-AWQ", "llama3.1-70b"),
    ("qwen2.5:72b-instruct-q4_K_M", "qwen2.5-72b"),
    ("Qwen/Qwen2.5-72B-Instruct-GPTQ-Int4", "qwen2.5-72b"),
    ("unsloth/Qwen2.5-7B-Instruct-bnb-4bit", "qwen2.5-7b"),
    ("Qwen2.5-14B-Instruct-GGUF", "qwen2.5-14b"),
    ("qwen3-8b fp8", "qwen3-8b"),
    ("gemma-3-27b-it-q8_0", "gemma3-27b"),
    *[(f"{DISPLAY['qwen2.5-32b']}-{word}", "qwen2.5-32b")
      for word in VOCABULARY["quantized"]["words"]],
]


@pytest.mark.parametrize(("name", "model"), QUANT)
def test_a_quantized_copy_is_the_table_model_said_to_be_one(engine: Engine, name: str,
                                                            model: str) -> None:
    payload = ask(engine, f"{name} lora")
    assert (payload["intent"], payload["models"]) == ("lookup", [model])
    assert rows_of(payload["rows"]) == [r.key for r in oracle.select(model, "lora")]
    stand_in = payload["stand_in"]
    assert (stand_in["model"], stand_in["relation"]) == (model, "quantized_copy")
    assert set(stand_in) == {"asked", "model", "relation", "source"}
    assert "full-precision" in payload["lead"]


@pytest.mark.parametrize("name", ["Qwen/Qwen2.5-72B-Instruct", "qwen2.5-72b-chat",
                                  "google/gemma-3-27b-it", "meta-llama/Llama-3.1-8B-hf",
                                  "Qwen/Qwen3-30B-A3B", "qwen2.5-72b-base"])
def test_naming_variants_are_the_model_with_no_stand_in(engine: Engine, name: str) -> None:
    payload = ask(engine, name)
    assert payload["intent"] == "lookup" and "stand_in" not in payload


# --- not found: honest names, no family-only neighbours ----------------------------------------

@pytest.mark.parametrize("name", ["Qwen2.5-Coder-3B", "Qwen2.5-Math-1.5B",
                                  "DeepSeek-R1-Distill-Qwen-1.5B", "qwen2.5-vl-32b",
                                  "Qwen2.5-7B-Instruct-1M", "glm-4v-9b", "InternVL2-26B"])
def test_not_found_never_names_a_table_model_as_missing(engine: Engine, name: str) -> None:
    answer = engine.ask(name)
    payload = render_json(engine.knowledge, answer)
    assert payload["intent"] == "not_found"
    assert answer.asked_display not in DISPLAY.values()
    assert f"\u201c{answer.asked_display}\u201d" in payload["lead"]


def test_a_distill_is_never_offered_its_family_words_giant(engine: Engine) -> None:
    payload = ask(engine, "DeepSeek-R1-Distill-Qwen-1.5B lora")
    assert "DeepSeek-V3/R1" not in payload["candidates"]
    assert all(oracle.catalogue()[c]["family"] == "qwen" for c in payload["candidates"])
    # Qwen2-1.5B is the table's Qwen model of its size (1.5B): the same size, said first.
    assert [n["model"] for n in payload["bracket"]["same"]] == ["qwen2-1.5b"]


# --- brackets ---------------------------------------------------------------------------------

BRACKETS = [
    # (question, size, kind, family, versions); a size known_models.toml lists is its own
    ("Gemma-3-12B full", 12.2, "text", "gemma", {"3"}),
    ("qwen2.5 3b lora", 3.09, "text", "qwen", {"2.5"}),
    ("qwen3-2b full 4k", 2.0, "text", "qwen", {"3"}),
    ("glm-4-12b lora", 12.0, "text", "glm", {"4"}),
    ("qwen 13b", 13.0, "text", "qwen", set()),
    ("llama 3.1 405b lora", 405.0, "text", "llama", {"3.1"}),
    ("Llama-2-13b full", 13.0, "text", "llama", {"2"}),
    ("mistral 7b lora", 7.24, "text", None, set()),
    ("Qwen2-VL-32B lora", 32.0, "vl", "qwen", {"2"}),
    ("internvl2.5-26b full", 25.5, "vl", "internvl", {"2.5"}),
    ("Mixtral-8x22B", 141.0, "moe", "mixtral", set()),
    ("qwen3-14b-a3b lora", 14.0, "moe", "qwen", {"3"}),
    ("qwen 0.1b", 0.1, "text", "qwen", set()),
]


@pytest.mark.parametrize(("text", "size", "kind", "family", "versions"), BRACKETS)
def test_brackets_are_the_nearest_of_the_same_kind(engine: Engine, text: str, size: float,
                                                   kind: str, family: str | None,
                                                   versions: set[str]) -> None:
    payload = ask(engine, text)
    assert (payload["intent"], payload["models"], payload["rows"]) == ("not_found", [], [])
    got = payload["bracket"]
    assert (got["size_b"], got["kind"]) == (size, kind)
    assert (got["size"]["params_b"], got["size"]["kind"]) == (size, kind)
    same, below, above = oracle.bracket(size, kind, family, versions)
    strategy = next((s for s in ("lora", "full") if s in text), None)
    seq = 4096 if " 4k" in text else None
    assert [n["model"] for n in got["same"]] == same
    for side, want in (("below", below), ("above", above)):
        if want is None:
            assert got[side] is None
            continue
        assert got[side]["model"] == want
        assert got[side]["size_b"] == oracle.sizes()[want]
        assert rows_of(got[side]["rows"]) == [r.key for r in oracle.select(want, strategy, seq)]
    for near in got["same"]:
        assert rows_of(near["rows"]) == [r.key for r in oracle.select(near["model"], strategy,
                                                                      seq)]
    assert "not a table entry" in payload["lead"]


def test_ties_go_to_table_order(engine: Engine) -> None:
    payload = ask(engine, "glm-4-12b lora")
    fourteens = [m for m in oracle.table_models() if oracle.sizes()[m] == 14.0]
    assert len(fourteens) > 1
    assert payload["bracket"]["above"]["model"] == fourteens[0]


def test_bracket_lines_in_slack_show_both_neighbours_unbolded(engine: Engine) -> None:
    answer = engine.ask("Gemma-3-12B full")
    blocks = message(engine.knowledge, answer)["blocks"]
    texts = [b["text"]["text"] for b in blocks if b["type"] == "section"]
    lines = next(t for t in texts if t.startswith("•"))
    assert "GLM-4-9B" in lines and "Qwen2.5-14B" in lines and "*" not in lines


def test_a_bracket_in_chinese(engine: Engine) -> None:
    payload = ask(engine, "Gemma-3-12B 全参 需要几张卡")
    assert "之间" in payload["lead"] and "不是它的表项" in payload["lead"]


# --- dated re-releases: their own models, said so ------------------------------------------------

@pytest.mark.parametrize(("name", "display", "model"), [
    ("Qwen/Qwen3-4B-Instruct-2507", "Qwen3-4B-2507", "qwen3-4b"),
    ("qwen3 4b thinking 2507", "Qwen3-4B-2507", "qwen3-4b"),
    ("Qwen3-30B-A3B-Thinking-2507", "Qwen3-30B-A3B-2507", "qwen3_moe-30B_A3B"),
    ("Qwen/Qwen3-235B-A22B-Instruct-2507", "Qwen3-235B-A22B-2507", "qwen3_moe-235B_A22B"),
    ("deepseek-ai/DeepSeek-R1-0528", "DeepSeek-R1-0528", "DeepSeek-V3/R1"),
    ("deepseek-v3-0324", "DeepSeek-V3-0324", "DeepSeek-V3/R1"),
])
def test_a_dated_re_release_the_data_knows_is_a_stand_in(engine: Engine, name: str,
                                                         display: str, model: str) -> None:
    payload = ask(engine, f"{name} lora")
    assert payload["intent"] == "not_found" and payload["models"] == []
    assert (payload["stand_in"]["asked"], payload["stand_in"]["model"]) == (display, model)
    assert payload["stand_in"]["relation"] == "same_architecture"
    assert payload["lead"].startswith(f"{display} is not in the table")


@pytest.mark.parametrize("name", ["Qwen3-4B", "qwen3-4b-instruct", "Qwen3-4B-Instruct-2601",
                                  "DeepSeek-R1", "Qwen3-30B-A3B-Instruct"])
def test_the_same_name_without_that_date_is_the_table_model(engine: Engine, name: str) -> None:
    payload = ask(engine, f"{name} lora")
    assert payload["intent"] == "lookup" and "stand_in" not in payload, payload["intent"]
