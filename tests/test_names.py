"""Model names as people write them: parsed exactly, look-alikes kept apart."""

from __future__ import annotations

import pytest

from mincards.bot.answering.engine import Engine


def resolved(engine: Engine, text: str) -> tuple[str, tuple[str, ...]]:
    answer = engine.ask(text)
    return answer.intent, answer.models or answer.candidates


@pytest.mark.parametrize(("text", "model"), [
    ("qwen 2.5 72b", "qwen2.5-72b"),
    ("Qwen2.5-72B", "qwen2.5-72b"),
    ("qwen2.5_72b", "qwen2.5-72b"),
    ("Qwen/Qwen2.5-72B-Instruct", "qwen2.5-72b"),
    ("https://huggingface.co/Qwen/Qwen2.5-72B-Instruct/tree/main", "qwen2.5-72b"),
    ("https://hf.co/Qwen/Qwen2-VL-7B-Instruct", "qwen2vl-7b"),
    ("qwen2.5:72b", "qwen2.5-72b"),
    ("https://ollama.com/library/llama3.1:70b", "llama3.1-70b"),
    ("QWEN2.5-72B-INSTRUCT", "qwen2.5-72b"),
    ("qwne2.5-72b", "qwen2.5-72b"),
    ("千问2.5-72B", "qwen2.5-72b"),
    ("通义千问2.5 72b", "qwen2.5-72b"),
    ("google/gemma-3-27b-it", "gemma3-27b"),
    ("THUDM/glm-4-9b-chat", "glm4-9b"),
    ("llama3.1:8b", "llama3.1-8b"),
    ("lamma3.1 8b", "llama3.1-8b"),
    ("Llaam-3.1-70B", "llama3.1-70b"),
    ("gemm-3-27b", "gemma3-27b"),
    ("Meta-Llama-3.1-70B-Instruct", "llama3.1-70b"),
    ("qwen3_moe-30B_A3B", "qwen3_moe-30B_A3B"),
    ("qwen3 a3b", "qwen3_moe-30B_A3B"),
    ("Mistral-Small-3.1-24B-Instruct-2503", None),
    ("Qwen2.5-72B-Instruct-2501", "qwen2.5-72b"),  # a date the data does not know
    ("DeepSeek-V3/R1", "DeepSeek-V3/R1"),
    ("qwen2.5_vl-7b", "qwen2.5_vl-7b"),
    ("InternVL2_5-78B-MPO", None),
    ("mistralai/Mixtral-8x7B-v0.1", "mixtral-8x7b"),
])
def test_names_resolve_to_their_table_model(engine: Engine, text: str, model: str | None) -> None:
    intent, models = resolved(engine, text)
    if model is None:
        assert intent == "not_found"
    else:
        assert (intent, models) == ("lookup", (model,))


def test_every_catalogue_alias_resolves_to_its_model(engine: Engine) -> None:
    for info in engine.knowledge.catalogue:
        for alias in (info.key, *info.aliases):
            assert resolved(engine, alias) == ("lookup", (info.key,)), alias


@pytest.mark.parametrize(("asked", "table_model"), [
    pytest.param("qwen2-72b", "qwen2.5-72b", id="qwen2-vs-qwen2.5"),
    pytest.param("qwen2.5-7b", "qwen2-7b", id="qwen2.5-vs-qwen2"),
    pytest.param("qwen2-7b", "qwen2vl-7b", id="qwen2-vs-qwen2-vl"),
    pytest.param("qwen2.5-7b", "qwen2.5-72b", id="7b-vs-72b"),
    pytest.param("qwen2.5-72b", "qwen2.5-7b", id="72b-vs-7b"),
    pytest.param("llama3.1-8b", "llama3.2-1b", id="llama3.1-vs-3.2"),
    pytest.param("mixtral-8x7b", "qwen2-7b", id="mixtral-is-not-a-7b"),
])
def test_look_alikes_resolve_to_themselves(engine: Engine, asked: str, table_model: str) -> None:
    intent, models = resolved(engine, asked)
    assert intent == "lookup"
    assert models == (asked,) and table_model not in models


@pytest.mark.parametrize("text", [
    pytest.param("Mistral-7B-Instruct-v0.3", id="mistral-is-not-mixtral"),
    pytest.param("Llama-3-70B", id="llama3-is-not-llama3.1"),
    pytest.param("Llama-2-70b-chat-hf", id="llama2-is-not-llama3.1"),
    pytest.param("Qwen2.5-Coder-32B-Instruct", id="coder-is-not-qwen2.5"),
    pytest.param("Qwen2.5-Math-72B-Instruct", id="math-is-not-qwen2.5"),
    pytest.param("DeepSeek-R1-Distill-Qwen-32B", id="distill-is-neither"),
    pytest.param("DeepSeek-R1-Distill-Llama-8B", id="distill-llama-is-neither"),
    pytest.param("glm-4v-9b", id="glm4v-is-not-glm4"),
    pytest.param("InternVL2-26B", id="internvl2-is-not-2.5"),
    pytest.param("internlm2_5-7b-chat", id="internlm-is-not-internvl"),
    pytest.param("llava-v1.6-mistral-7b", id="llava-is-not-llama"),
    pytest.param("Qwen2.5-3B", id="size-not-in-table"),
    pytest.param("qwen3-72b", id="qwen3-has-no-72b"),
    pytest.param("Mixtral-8x22B", id="8x22b-is-not-8x7b"),
    pytest.param("gemma-3-12b-it", id="gemma3-other-size"),
    pytest.param("deepseek-v2-lite", id="deepseek-v2"),
    pytest.param("InternVL2.-58B", id="garbled-size-is-not-bridged"),
    pytest.param("qwen25-7b", id="version-25-is-not-2.5"),
    pytest.param("Qwen2.5-7B-Instruct-1M", id="1m-context-is-another-model"),
    pytest.param("glm-4-9b-chat-1m", id="glm4-1m-is-another-model"),
    pytest.param("llama 3.3 70b", id="llama3.3-is-not-3.1"),
    pytest.param("Qwen1.5-72B-Chat", id="qwen1.5-is-not-qwen2"),
])
def test_different_models_are_not_found_never_bridged(engine: Engine, text: str) -> None:
    answer = engine.ask(text)
    assert answer.intent == "not_found"
    assert answer.rows == () and answer.models == ()


@pytest.mark.parametrize(("text", "model", "framework", "flavour"), [
    ("qwen2.5-7b lora LLaMA-Factory", "qwen2.5-7b", "llama_factory", None),
    ("llamafactory qwen3-8b", "qwen3-8b", "llama_factory", None),
    ("mindspeed-llm qwen2.5-14b full", "qwen2.5-14b", "mindspeed_llm", None),
    ("qwen2.5-14b on Snt9B23 with 16 DIE", "qwen2.5-14b", None, "snt9b23"),
    ("qwen2.5-14b snt9b 8 cards 2 nodes", "qwen2.5-14b", None, "snt9b"),
])
def test_framework_and_hardware_words_are_filters_not_names(
        engine: Engine, text: str, model: str, framework: str | None, flavour: str | None) -> None:
    answer = engine.ask(text)
    assert (answer.intent, answer.models) == ("lookup", (model,))
    assert answer.frameworks == ((framework,) if framework else ())
    assert answer.flavours == ((flavour,) if flavour else ())


def test_llama_factory_alone_names_no_model(engine: Engine) -> None:
    answer = engine.ask("LLaMA-Factory on Snt9B23")
    assert answer.intent == "help"
    assert answer.note("no_model") is not None


def test_family_and_size_alone_assume_the_only_fit(engine: Engine) -> None:
    answer = engine.ask("llama 70b")
    assert (answer.intent, answer.models) == ("lookup", ("llama3.1-70b",))
    note = answer.note("assumed")
    assert note is not None and note.args["what"] == ["version"]


@pytest.mark.parametrize(("text", "candidates"), [
    ("qwen 7b", {"qwen2-7b", "qwen2.5-7b", "qwen2vl-7b", "qwen2.5_vl-7b"}),
    ("qwen 14b", {"qwen2.5-14b", "qwen3-14b"}),
    ("qwen2.5 vl", {"qwen2.5_vl-7b", "qwen2.5_vl-72b"}),
    ("llama", {"llama3.1-8b", "llama3.1-70b", "llama3.2-1b", "llama3.2-3b"}),
])
def test_ambiguous_names_list_exactly_the_fits(engine: Engine, text: str,
                                               candidates: set[str]) -> None:
    answer = engine.ask(text)
    assert answer.intent == "ambiguous"
    assert set(answer.candidates) == candidates
    assert answer.rows == ()


def test_not_found_suggests_the_nearest_table_models(engine: Engine) -> None:
    answer = engine.ask("qwen2.5-3b")
    assert answer.intent == "not_found"
    assert answer.candidates and all(c.startswith("qwen2.5") for c in answer.candidates)
    # Llama 3 has Llama 3.1's architecture: its stand-in, said to be so.
    llama3 = engine.ask("Meta-Llama-3-70B-Instruct")
    assert llama3.stand_in is not None and llama3.stand_in.model == "llama3.1-70b"
    assert llama3.intent == "not_found" and llama3.models == ()


@pytest.mark.parametrize(("text", "first"), [
    ("qwen 2b", "qwen2vl-2b"),  # the only 2B in the table is the VL one
    ("qwen2-vl-32b", "qwen2vl-72b"),  # a VL model asked for: VL models, the nearest size
    ("qwen2.5-3b", "qwen2.5-7b"),  # same version, nearest size by ratio (not 0.5B)
    ("qwen3-3b", "qwen3-4b"),
    ("Mistral-7B-Instruct-v0.2", "mixtral-8x7b"),  # a look-alike family
    ("internlm2.5-7b", "internvl2.5-8b"),
])
def test_suggestions_lead_with_the_likeliest(engine: Engine, text: str, first: str) -> None:
    answer = engine.ask(text)
    assert answer.intent == "not_found" and answer.candidates[0] == first


@pytest.mark.parametrize("text", ["gpt-4o", "yi-1.5-34b", "claude 3.5 sonnet"])
def test_unrelated_families_get_no_suggestions(engine: Engine, text: str) -> None:
    answer = engine.ask(text)
    assert answer.intent == "not_found" and answer.candidates == ()


def test_deepseek_names_no_size_so_none_is_assumed(engine: Engine) -> None:
    answer = engine.ask("deepseek-r1 lora")
    assert answer.intent == "lookup" and answer.note("assumed") is None
