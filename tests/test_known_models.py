"""Sizes of models the table lacks (data/known_models.toml): brackets of the same kind, the same
size first, never a table entry; each number with its source."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.estimating.hf_config import of_known_model, shape_of_config
from mincards.bot.facts.known_models import load_known_models
from mincards.bot.replies.render_json import render_json
from mincards.bot.replies.render_text import render_text
from tests import oracle

KNOWN = tomllib.loads((oracle.DATA / "known_models.toml").read_text(encoding="utf-8"))["model"]
FAMILIES = ["llama", "mistral", "mixtral", "gemma", "phi", "yi", "internlm", "baichuan",
            "deepseek", "glm", "qwen", "minicpm"]


def ask(engine: Engine, text: str) -> dict[str, Any]:
    return render_json(engine.knowledge, engine.ask(text))


def test_the_file_covers_the_families_people_fine_tune() -> None:
    assert len(KNOWN) >= 50
    for family in FAMILIES:
        assert any(m["display"].lower().replace("-", "").startswith(family)
                   or family in m["display"].lower() for m in KNOWN), family
    for model in KNOWN:
        assert model["source"].strip() and model["kind"] in ("text", "vl", "moe")
        # A vision model may be a mixture of experts (Qwen3-VL-30B-A3B); a dense text one not.
        assert ("active_b" in model) == (model["kind"] == "moe") or model["kind"] == "vl"


@pytest.mark.parametrize("model", KNOWN, ids=lambda m: m["display"])
def test_each_shape_counts_to_its_published_size(model: dict[str, Any]) -> None:
    """Every entry has its Hub id and its config.json's shape, and the counter that reads a
    configuration from the Hub counts it within 2% of the weights' size (the shape was written
    right); the active size, which model cards count with or without embeddings and vision
    towers, within 25%. An architecture the counter cannot count says why."""
    assert model["hub_id"].count("/") == 1 and model["config"]
    counted = shape_of_config(model["config"], model["display"])
    assert counted.layers and counted.hidden and counted.vocab
    # A vision model has its tower (a model grouped as text or MoE may have one too: Gemma 3 and
    # Llama 4 read images, and the table groups their kin so).
    assert counted.vision or model["kind"] != "vl"
    if "uncounted" in model:
        assert counted.params_b < model["params_b"] * 0.98, "counted after all: drop uncounted"
        return
    assert counted.params_b == pytest.approx(model["params_b"], rel=0.02)
    if "active_b" in model:
        assert counted.active_b == pytest.approx(model["active_b"], rel=0.25)
    else:
        assert counted.active_b is None, "a dense model counted as a mixture of experts"


def test_a_known_model_s_shape_carries_its_layers() -> None:
    models = load_known_models(oracle.DATA / "known_models.toml")
    shape = of_known_model(models.items["Kimi-K2"])
    assert (shape.layers, shape.hidden, shape.vocab) == (61, 7168, 163840)
    assert (shape.params_b, shape.active_b) == (models.items["Kimi-K2"].params_b, 32.0)


@pytest.mark.parametrize("model", KNOWN, ids=lambda m: m["display"])
def test_every_known_model_is_found_by_each_of_its_names(engine: Engine,
                                                         model: dict[str, Any]) -> None:
    for name in (model["display"], *model["names"]):
        payload = ask(engine, f"{name} lora")
        # Never a table entry: the table lacks it, whatever is shown beside it.
        assert payload["intent"] == "not_found" and payload["rows"] == [], name
        size = payload["bracket"]["size"]
        assert (size["params_b"], size["active_b"], size["kind"], size["source"]) == (
            model["params_b"], model.get("active_b"), model["kind"], model["source"]), name


@pytest.mark.parametrize(("text", "same"), [
    ("mistral 7b lora", ["qwen2-7b", "qwen2.5-7b"]),  # the table's two 7B text models
    ("mistralai/Mistral-7B-Instruct-v0.3 全参", ["qwen2-7b", "qwen2.5-7b"]),
    ("phi-4 lora", ["qwen2.5-14b", "qwen3-14b"]),  # 14.7B, a size its name does not carry
    ("microsoft/phi-4 需要几张卡", ["qwen2.5-14b", "qwen3-14b"]),
    ("internvl2 8b", ["internvl2.5-8b"]),  # the family's own 8B, not Qwen2-VL-7B
    ("OpenGVLab/InternVL2-8B lora", ["internvl2.5-8b"]),
    ("gemma-2-9b lora", ["glm4-9b"]),
])
def test_the_same_size_comes_first(engine: Engine, text: str, same: list[str]) -> None:
    payload = ask(engine, text)
    got = payload["bracket"]
    assert [n["model"] for n in got["same"]] == same
    assert got["below"] is None and got["above"] is None
    assert "same size" in payload["lead"] or "相同" in payload["lead"]


@pytest.mark.parametrize(("text", "kind"), [
    ("glm-4v-9b lora", "vl"), ("THUDM/glm-4v-9b 全参", "vl"),
    ("llama 3.2 11b vision lora", "vl"), ("MiniCPM-V-2_6 lora", "vl"),
    ("Mixtral-8x22B full", "moe"), ("deepseek-ai/DeepSeek-V2-Lite lora", "moe"),
    ("Qwen/Qwen2-57B-A14B full", "moe"), ("qwen3-14b-a3b lora", "moe"),
])
def test_a_model_is_bracketed_among_its_own_kind(engine: Engine, text: str, kind: str) -> None:
    payload = ask(engine, text)
    got = payload["bracket"]
    assert got["kind"] == kind
    shown = [n["model"] for n in (*got["same"], got["below"], got["above"]) if n]
    assert shown and all(oracle.catalogue()[m]["kind"] == kind for m in shown)
    words = {"vl": "vision-language", "moe": "mixture-of-experts"}[kind]
    assert words in payload["lead"] or payload["language"] == "zh"


def test_a_mixture_of_experts_is_placed_by_total_size_and_says_its_active(
        engine: Engine) -> None:
    payload = ask(engine, "Mixtral-8x22B full")
    got = payload["bracket"]
    assert got["size"]["params_b"] == 141.0 and got["size"]["active_b"] == 39.0
    below, above = oracle.sizes()[got["below"]["model"]], oracle.sizes()[got["above"]["model"]]
    assert below < 141 < above
    assert "141B, 39B active" in payload["lead"] and "by total size" in payload["lead"]


def test_a_size_read_from_the_name_says_so(engine: Engine) -> None:
    payload = ask(engine, "qwen 13b lora")
    assert payload["bracket"]["size"] == {"params_b": 13.0, "active_b": None, "kind": "text",
                                          "source": "the name qwen-13b"}


@pytest.mark.parametrize(("text", "model"), [
    ("llama3 8b lora", "llama3.1-8b"), ("meta-llama/Meta-Llama-3-8B-Instruct 全参", "llama3.1-8b"),
    ("llama3:70b lora", "llama3.1-70b"),
])
def test_llama_3_is_a_stand_in_of_llama_3_1(engine: Engine, text: str, model: str) -> None:
    answer = engine.ask(text)
    assert answer.stand_in is not None and answer.stand_in.model == model
    assert answer.stand_in.relation == "same_architecture"
    assert "32 layers, hidden 4096" in answer.stand_in.source or "80 layers" in (
        answer.stand_in.source)
    text_out = render_text(engine.knowledge, answer)
    assert "is not in the table" in text_out or "表中没有" in text_out


def test_the_table_s_own_models_are_answered_as_before(engine: Engine) -> None:
    for key in oracle.table_models():
        payload = ask(engine, key)
        assert payload["models"] == [key] or payload["intent"] == "ambiguous"
        assert "bracket" not in payload


# Models released after the page, as people type them (issue 38): each gets an estimate or a
# stand-in from the data alone, with no Hub.
NEWER = ["gpt-oss-20b", "gpt oss 120b", "qwen3 next 80b", "Qwen3-VL-8B", "qwen3-vl-30b-a3b",
         "Qwen3-VL-235B-A22B", "qwen3-coder-30b-a3b", "Qwen3-Coder-480B-A35B", "GLM-4.5",
         "GLM4.5 air", "glm-4.6", "kimi-k2", "kimi k2", "DeepSeek-V3.1", "deepseek v3.2",
         "llama 4 scout", "Llama-4-Maverick", "gemma-3n-e4b", "Mistral-Small-3.2-24B", "phi-4",
         "MiniMax-M2", "InternVL3-8B", "InternVL3-78B", "千问3 VL 30B", "seed-oss 36b",
         "ERNIE-4.5-21B-A3B", "baidu/ERNIE-4.5-300B-A47B-PT", "hunyuan a13b", "magistral small",
         "devstral small", "InternVL3.5-38B", "gemma 3 1b", "GLM-4.5V", "Kimi-K2-Thinking",
         "microsoft/Phi-4-reasoning"]


@pytest.mark.parametrize("name", NEWER)
def test_a_model_newer_than_the_page_gets_an_estimate_without_the_hub(engine: Engine,
                                                                      name: str) -> None:
    answer = engine.ask(f"{name} lora")
    assert answer.estimate is not None or answer.stand_in is not None, name
    payload = render_json(engine.knowledge, answer)
    assert not payload.get("rows"), name  # never a table entry of its own


def test_a_vision_mixture_of_experts_is_bracketed_among_vision_models(engine: Engine) -> None:
    answer = engine.ask("Qwen/Qwen3-VL-30B-A3B-Instruct lora")
    assert answer.estimate is not None
    assert answer.estimate.shape.vision and answer.estimate.shape.active_b == 3.3
