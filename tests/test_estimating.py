"""The estimator (bot/estimating): fitted on the table in use, measured on the table's own
models held out one at a time, said as an estimate and never as the table's numbers."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.estimating import calibrate as calibrate_module
from mincards.bot.estimating.calibrate import calibrate, samples_of
from mincards.bot.estimating.calibration_file import dump_calibration
from mincards.bot.estimating.estimate import current_calibration, estimator
from mincards.bot.estimating.fit import Coefficients, Sample, fit_group
from mincards.bot.estimating.hf_config import parse_config
from mincards.bot.estimating.observations import Observation, Unit, inputs_digest, observations
from mincards.bot.estimating.shape import Shape, ShapeError
from mincards.bot.facts.calibration import FILE, Calibration, load_calibration
from mincards.bot.facts.knowledge import Knowledge, default_data_dir, load_knowledge
from mincards.bot.replies.render_blocks import message
from mincards.bot.replies.render_estimate import short_reply
from mincards.bot.replies.render_json import render_json
from mincards.bot.replies.render_rows import render_rows
from mincards.bot.replies.render_text import render_text
from tests.pages import SEED
from tests.process_exit import run_to_exit

MINCARDS = Path(sys.executable).with_name("mincards")
CONFIGS = Path(__file__).resolve().parent / "configs"
LABEL = {"en": "Estimate, not the table's", "zh": "估算（不是表中数据）"}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_to_exit([str(MINCARDS), *args], capture_output=True, text=True, check=False,
                       env={**os.environ})


@pytest.fixture(scope="module")
def knowledge() -> Knowledge:
    return load_knowledge(default_data_dir())


@pytest.fixture(scope="module")
def fitted(knowledge: Knowledge) -> Calibration:
    """As `mincards estimate --calibrate` makes it: measured nested (some seconds)."""
    return calibrate(knowledge, nested=True)


# --- the fit and its record ----------------------------------------------------------------


def test_on_the_shipped_table_the_method_meets_its_aims(fitted: Calibration
                                                         ) -> None:
    """Measured nested (each model held out of the choice of terms and the fit). Issue 38's aims
    are 75% exact, 98% within one step, 3% under and no LoRA cell under: the floors here are
    what the method reaches (74%, 97%, 3.9%, 8 LoRA cells), so that a change that loses
    ground fails."""
    v = fitted.validation
    assert fitted.nested
    assert v.held_out >= 250
    assert v.exact / v.held_out >= 0.73
    assert v.within_one / v.held_out >= 0.97
    assert (v.under_one + v.under_more) / v.held_out <= 0.04
    assert v.under_more == 0
    assert sum(g.validation.held_out for g in fitted.groups) == v.held_out


def test_the_stored_calibration_is_the_one_the_shipped_table_makes(
        knowledge: Knowledge, fitted: Calibration) -> None:
    """data/estimator.toml is current: made from these very facts, by this code."""
    stored = default_data_dir() / FILE
    assert stored.read_text(encoding="utf-8") == dump_calibration(fitted)
    assert knowledge.calibration == load_calibration(stored)
    assert current_calibration(knowledge) is knowledge.calibration


def test_policy_is_found_reported_and_left_out(fitted: Calibration) -> None:
    policy = "\n".join(fitted.policy)
    # The family whose small models all list 8 (Qwen3 0.6B to 14B), found, not fitted.
    assert "qwen3-0.6b · full · 4096 · mindspeed_llm.snt9b: the family's" in policy
    # The page contradicting itself (qwen2-7b: full below LoRA), both strategies left out.
    assert "qwen2-7b · full · 4096 · llama_factory.snt9b: the page lists full" in policy
    assert "qwen2-7b · lora · 4096 · llama_factory.snt9b: the page lists full" in policy
    # Nothing a table model lists by memory is left out: Qwen2.5-72B is fitted whole.
    assert "qwen2.5-72b" not in policy


def test_held_out_means_the_model_never_informs_its_own_prediction(
        knowledge: Knowledge) -> None:
    """Change every count of one model: its held-out predictions stay as they were (they come
    from the other models), while a fit on everything moves."""
    found, _ = observations(knowledge)
    samples = samples_of(found, knowledge)
    before = calibrate_module.held_out(samples, []).predictions
    target = "qwen2.5-32b"
    changed = [Sample(
        replace(s.observation, count=s.observation.count * 8), s.unit,
        s.shortest) if s.observation.model == target else s for s in samples]
    after = calibrate_module.held_out(changed, []).predictions
    mine = [label for label in before if label.startswith(target + " ")]
    assert mine and all(before[label] == after[label] for label in mine)
    # Not vacuous: a fit that includes the model's rows moves with them.
    group = [s for s in samples if s.observation.group == ("llama_factory", "full")
             and s.observation.model == target]
    moved = [s for s in changed if s.observation.group == ("llama_factory", "full")
             and s.observation.model == target]
    assert fit_group(group, [])[0] != fit_group(moved, [])[0]


def test_the_fit_prefers_erring_over_to_under() -> None:
    """Two models whose counts no single scale matches: the fit over-provisions the one it
    cannot meet rather than leave it short."""
    def sample(model: str, params: float, count: int) -> Sample:
        shape = Shape(name=model, params_b=params, source="known-models")
        return Sample(Observation(
            model, "f", "full", 4096, "fw", "fl", count, shape), Unit(64, 1),
            4096)
    fitted, _ = fit_group([sample("a", 10, 4), sample("b", 10.5, 2)], [])
    counts = [fitted.count(Shape(name="x", params_b=p, source="config"), 4096, 4096,
                           Unit(64, 1)) for p in (10, 10.5)]
    assert counts == [4, 4]  # b one step over, never a one step under


def test_counts_are_powers_of_two_and_never_below_the_flavours_unit() -> None:
    coefficients = Coefficients(2.0)
    die = Unit(64, 2)
    tiny = Shape(name="tiny", params_b=0.5, source="config")
    assert coefficients.count(tiny, 4096, 4096, die) == 2
    for params in (3, 17, 70, 400):
        count = coefficients.count(Shape(name="m", params_b=params, source="config"), 4096,
                                   4096, Unit(64, 1))
        assert count & (count - 1) == 0 and count * 64 >= 2.0 * params


# --- recalibration on another version of the page -------------------------------------------


def without_model(page: str, model: str) -> str:
    """The page with one model's rows (its first line and the continuation lines) removed."""
    out, skipping = [], False
    for line in page.splitlines():
        if line.startswith(model + "\t"):
            skipping = True
            continue
        if skipping and line.startswith("\t"):
            continue
        skipping = False
        out.append(line)
    return "\n".join(out) + "\n"


def test_import_recalibrates_and_a_removed_model_is_estimated(data_copy: Path,
                                                             tmp_path: Path) -> None:
    page = tmp_path / "page.txt"
    text = without_model(SEED.read_text(encoding="utf-8"), "qwen2.5-14b")
    page.write_text(text.replace("时间：2025-06-24", "时间：2025-09-01"), encoding="utf-8")
    before = (data_copy / FILE).read_text(encoding="utf-8")
    result = run("import-table", str(page), "--data-dir", str(data_copy), "--allow-removals")
    assert result.returncode == 0, result.stderr
    after = (data_copy / FILE).read_text(encoding="utf-8")
    assert after != before
    loaded = load_knowledge(data_copy, cached=False)
    assert loaded.calibration is not None
    found, _ = observations(loaded)
    assert loaded.calibration.inputs == inputs_digest(found, loaded)
    assert loaded.calibration.page_date == "2025-09-01"
    assert current_calibration(loaded) is loaded.calibration
    # The model the page dropped is answered as missing from this version, with an estimate
    # from its shape, by name and from its config.json alike.
    answer = Engine(loaded).ask("Qwen2.5-14B lora 4k")
    assert answer.intent == "not_found" and answer.estimate is not None
    by_config = run("estimate", "--data-dir", str(data_copy), "--json", "--config",
                    str(CONFIGS / "Qwen--Qwen2.5-14B-Instruct.json"), "Qwen2.5-14B")
    assert by_config.returncode == 0, by_config.stderr
    said = json.loads(by_config.stdout)
    assert said["calibrated_on"] == "2025-09-01"
    assert {(e["framework"], e["strategy"]) for e in said["estimates"]} == {
        ("mindspeed-llm", "full"), ("mindspeed-llm", "lora"), ("llama-factory", "full"),
        ("llama-factory", "lora")}
    # Within one step of what the June page listed for it, which this fit never saw.
    listed = {("llama-factory", "lora", 4096, "snt9b"): 4, ("mindspeed-llm", "full", 4096,
                                                          "snt9b"): 8}
    for e in said["estimates"]:
        key = (e["framework"], e["strategy"], e["seq_len"], e["flavour"])
        if key in listed:
            assert abs(math.log2(e["count"] / listed[key])) <= 1


def test_a_stale_calibration_is_fitted_again_with_its_terms(data_copy: Path) -> None:
    table = data_copy / "table.csv"
    table.write_text(table.read_text(encoding="utf-8").replace(
        "qwen2.5-32b,full,4096,16,16,32,32", "qwen2.5-32b,full,4096,16,16,64,64"),
        encoding="utf-8")
    loaded = load_knowledge(data_copy, cached=False)
    made = current_calibration(loaded)
    assert made is not loaded.calibration and loaded.calibration is not None
    assert made.inputs != loaded.calibration.inputs
    assert {g.key: tuple(g.factors) for g in made.groups} == {
        g.key: tuple(g.factors) for g in loaded.calibration.groups}


# --- shapes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name,published", sorted(
    tomllib.loads((CONFIGS / "expected.toml").read_text(encoding="utf-8")).items()))
def test_parameters_counted_from_a_config_match_the_published_count(name: str,
                                                                    published: float) -> None:
    shape = parse_config((CONFIGS / f"{name}.json").read_bytes(), name)
    assert abs(shape.params_b / published - 1) < 0.02, shape.params_b


def test_what_a_config_says_of_experts_and_images() -> None:
    mixtral = parse_config((CONFIGS / "mistralai--Mixtral-8x7B-v0.1.json").read_bytes(), "m")
    assert mixtral.moe and mixtral.active_b is not None and 12 < mixtral.active_b < 14
    assert parse_config((CONFIGS / "Qwen--Qwen2-VL-7B-Instruct.json").read_bytes(), "v").vision
    dense = parse_config((CONFIGS / "meta-llama--Llama-3.1-8B.json").read_bytes(), "d")
    assert not dense.moe and not dense.vision and dense.layers == 32
    # The weights' own count wins over the layers' when given (the Hub's safetensors).
    assert parse_config((CONFIGS / "meta-llama--Llama-3.1-8B.json").read_bytes(), "d",
                        params_b=8.0).params_b == 8.0


@pytest.mark.parametrize("text,said", [
    (b"not json", "not JSON"),
    (b"[1, 2]", "not a JSON object"),
    (b"\xff\xfe{}", "not UTF-8"),
    (b"{" + b'"a": {' * 40 + b"}" * 41, "not JSON"),
    (b'{"x": "' + b"a" * 1_100_000 + b'"}', "over 1 MB"),
    (b'{"hidden_size": 4096, "vocab_size": 32000}', "no layer count"),
    (b'{"num_hidden_layers": 32, "vocab_size": 32000}', "no hidden size"),
    (b'{"hidden_size": 4096, "num_hidden_layers": -3, "vocab_size": 1}', "not a size"),
    (b'{"hidden_size": 0, "num_hidden_layers": 3, "vocab_size": 1}', "not a size"),
    (b'{"hidden_size": "big", "num_hidden_layers": 3, "vocab_size": 1}', "not a number"),
    (b'{"hidden_size": 1e300, "num_hidden_layers": 3, "vocab_size": 1}', "beyond any model"),
    (b'{"hidden_size": 999999, "num_hidden_layers": 999, "vocab_size": 999999, '
     b'"intermediate_size": 999999}', "beyond any model"),
    (b'{"hidden_size": 4, "num_hidden_layers": 1, "vocab_size": 4}', "not a model size"),
    (b'{"hidden_size": NaN, "num_hidden_layers": 1, "vocab_size": 4}', "not a number"),
])
def test_a_bad_config_is_one_clear_line(text: bytes, said: str) -> None:
    with pytest.raises(ShapeError) as caught:
        parse_config(text, "bad")
    message = str(caught.value)
    assert said in message and "\n" not in message


def test_bad_input_on_the_command_line_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "config.json"
    bad.write_text('{"hidden_size": 4096}', encoding="utf-8")
    for args in (["--config", str(bad)], ["--config", str(tmp_path / "missing.json")],
                 ["--config", str(tmp_path)], ["no-such-model-xyz"], []):
        result = run("estimate", *args)
        assert result.returncode == 2, (args, result.stdout)
        assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1, result.stderr
        assert result.stdout == ""


# --- answers -----------------------------------------------------------------------------------


@pytest.mark.parametrize("question", ["qwen2.5-7b lora", "Qwen/Qwen2.5-72B-Instruct 全参",
                                      "llama3.1-70b full on 4 nodes?", "qwen3-30b-a3b"])
def test_a_table_model_is_never_estimated(engine: Engine, question: str) -> None:
    answer = engine.ask(question)
    assert answer.models and answer.estimate is None
    text = render_text(engine.knowledge, answer)
    assert LABEL[answer.language] not in text


def test_estimate_command_on_a_table_model_points_to_the_table() -> None:
    result = run("estimate", "--json", "qwen2.5-72b")
    assert result.returncode == 0
    said = json.loads(result.stdout)
    assert said["estimates"] == [] and "is in the table" in said["in_table"]


@pytest.mark.parametrize("question,stand_in", [
    ("Qwen2.5-Coder-7B full", "qwen2.5-7b"), ("DeepSeek-R1-Distill-Qwen-32B 全参", "qwen2.5-32b"),
    ("DeepSeek-V3.1 lora", "deepseek-v3/r1"), ("Qwen3-4B-Instruct-2507 lora", "qwen3-4b")])
def test_a_stand_in_is_answered_by_the_table_alone(engine: Engine, question: str,
                                                    stand_in: str) -> None:
    """A model of a table model's architecture gets that model's counts and no estimate: the
    estimate of the same shape could only contradict the table (256 cards beside its 64)."""
    answer = engine.ask(question)
    assert answer.stand_in is not None and answer.stand_in.model.lower() == stand_in
    assert answer.estimate is None and answer.stand_in.rows
    assert "not the table's" not in render_text(engine.knowledge, answer)
    said = json.loads(run("estimate", "--json", question.split(" ")[0]).stdout)
    assert said["estimates"] == [] and "so the table answers it through" in said["in_table"]


@pytest.mark.parametrize("question,language", [
    ("phi-4 lora 4k", "en"), ("Yi-1.5-34B 需要几张卡", "zh"),
    ("Mistral-Small-3.2-24B full", "en"), ("GLM-4.5-Air 全参", "zh")])
def test_every_surface_labels_the_estimate_after_the_table(engine: Engine, question: str,
                                                           language: str) -> None:
    answer = engine.ask(question)
    assert answer.estimate is not None and answer.language == language
    label = LABEL[language]
    text = render_text(engine.knowledge, answer)
    assert label in text
    # After what the table says: the bracket's entries come first.
    first_count = min(text.find(w) for w in ("Snt9B", "Snt9B23") if w in text)
    assert first_count < text.find(label)
    blocks = json.dumps(message(engine.knowledge, answer, question=question), ensure_ascii=False)
    assert label in blocks
    shown = render_json(engine.knowledge, answer, question)
    assert shown["estimate"]["label"] == "estimate, not the table's"
    assert shown["estimate"]["estimates"] and "rows" in shown
    assert label.split("（")[0].split(",")[0] in short_reply(engine.knowledge, answer)
    assert render_rows(engine.knowledge, answer, "markdown").count(label) == 1


def test_the_estimate_says_its_record_and_its_range(engine: Engine) -> None:
    answer = engine.ask("phi-4 full 4k")
    text = render_text(engine.knowledge, answer)
    v = answer.estimate.validation if answer.estimate else None
    assert v is not None
    assert f"exact for {int(100 * v.exact / v.held_out)}%" in text
    assert "possibly" in text


def test_what_was_asked_narrows_the_estimate(engine: Engine) -> None:
    answer = engine.ask("phi-4 lora 8k on snt9b23 with llama-factory")
    assert answer.estimate is not None and answer.estimate.cells
    assert {(c.strategy, c.seq_len, c.flavour, c.framework) for c in answer.estimate.cells} == {
        ("lora", 8192, "snt9b23", "llama_factory")}
    assert engine.ask("phi-4 lora 32k").estimate is None  # no length the fit covers


def test_a_vision_model_is_not_estimated_where_the_table_has_none(knowledge: Knowledge) -> None:
    shape = parse_config((CONFIGS / "google--gemma-3-27b-it.json").read_bytes(), "Gemma-3-27B")
    made = estimator(knowledge).estimate(shape)
    assert {c.framework for c in made.cells} == {"llama_factory"}
    assert ("mindspeed_llm", "vision") in made.uncovered


MISTRAL = (CONFIGS / "mistralai--Mistral-Small-24B-Instruct-2501.json").read_text(encoding="utf-8")


def test_a_pasted_config_is_estimated_and_its_words_are_not_the_question(engine: Engine) -> None:
    answer = engine.ask(f"how many cards for this with lora?\n```json\n{MISTRAL}\n```")
    assert answer.intent == "not_found" and answer.estimate is not None
    assert answer.estimate.shape.source == "config"
    assert {c.strategy for c in answer.estimate.cells} == {"lora"}
    # A table model named beside a config is the table's answer, not an estimate.
    table = engine.ask(f"qwen2.5-7b lora ```{MISTRAL}```")
    assert table.models == ("qwen2.5-7b",) and table.estimate is None
    broken = engine.ask('cards for this? ```{"hidden_size": 4096}```')
    note = broken.note("no_estimate")
    assert broken.estimate is None and note is not None
    assert "no layer count" in str(note.args["reason"])
    # Fences far apart or unclosed are found in linear time, and are not a config.
    started = time.thread_time()
    assert engine.ask("```" + "{" * 100_000).estimate is None
    assert time.thread_time() - started < 2


def test_a_budget_is_judged_against_the_estimate_only_as_by_estimate(engine: Engine) -> None:
    answer = engine.ask("phi-4 lora 4k on 8 cards?")
    text = render_text(engine.knowledge, answer)
    line = next(li for li in text.splitlines() if "By estimate, not the table's" in li)
    assert "8 cards is enough for" in line
    short = engine.ask("Yi-1.5-34B 全参 8卡够吗")
    said = render_text(engine.knowledge, short)
    assert "按估算（不是表中数据）：8 卡不够" in said
    blocks = json.dumps(message(engine.knowledge, short, question="q"), ensure_ascii=False)
    assert "按估算（不是表中数据）" in blocks
    # The table's own verdict is never made from the estimate: a budget question about a
    # model the table lacks still says the table has no entry for it.
    assert "无法给出卡数" in said or "没有" in said.splitlines()[0]


def test_import_lists_entries_far_from_the_estimate(data_copy: Path, tmp_path: Path) -> None:
    page = tmp_path / "page.txt"
    text = SEED.read_text(encoding="utf-8").replace(
        "qwen2.5-32b\tfull\t4096\t16*Ascend\t\t32*Ascend",
        "qwen2.5-32b\tfull\t4096\t16*Ascend\t\t256*Ascend")
    assert text != SEED.read_text(encoding="utf-8")
    page.write_text(text.replace("时间：2025-06-24", "时间：2025-09-01"), encoding="utf-8")
    result = run("import-table", str(page), "--data-dir", str(data_copy))
    assert result.returncode == 0, result.stderr
    assert "worth checking against the source" in result.stdout
    assert ("qwen2.5-32b · full · 4096 · llama_factory.snt9b: the table lists 256, the "
            "estimate 32") in result.stdout
