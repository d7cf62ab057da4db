"""Model links (bot/reading/model_links.py, data/links.toml), the card under one
(bot/replies/render_unfurl.py) and the assistant pane's suggested prompts."""

from __future__ import annotations

from pathlib import Path

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.errors import DataError
from mincards.bot.facts.links import load_sites, model_sites
from mincards.bot.reading.model_links import read_link
from mincards.bot.replies.assistant_prompts import MAX_PROMPTS, suggested_prompts
from mincards.bot.replies.render_unfurl import UNFURL_ASK_ACTION, unfurl_card
from tests.blockkit import assert_valid_message

MODEL_PAGES = {
    "https://huggingface.co/Qwen/Qwen2.5-72B-Instruct": "Qwen/Qwen2.5-72B-Instruct",
    "https://www.huggingface.co/Qwen/Qwen2.5-72B-Instruct": "Qwen/Qwen2.5-72B-Instruct",
    "https://huggingface.co/Qwen/Qwen2.5-72B-Instruct/tree/main": "Qwen/Qwen2.5-72B-Instruct",
    "https://huggingface.co/Qwen/Qwen2.5-72B-Instruct/": "Qwen/Qwen2.5-72B-Instruct",
    "https://huggingface.co/Qwen/Qwen2.5-7B?library=transformers": "Qwen/Qwen2.5-7B",
    "https://huggingface.co/Qwen/Qwen2.5-7B#model-card": "Qwen/Qwen2.5-7B",
    "http://hf.co/meta-llama/Llama-3.1-70B": "meta-llama/Llama-3.1-70B",
    "https://www.hf.co/meta-llama/Llama-3.1-70B/tree/main": "meta-llama/Llama-3.1-70B",
    "https://modelscope.cn/models/Qwen/Qwen2.5-7B-Instruct": "Qwen/Qwen2.5-7B-Instruct",
    "https://www.modelscope.cn/models/Qwen/Qwen2.5-7B-Instruct/summary":
        "Qwen/Qwen2.5-7B-Instruct",
    "https://modelscope.cn/models/Qwen/Qwen2.5-7B-Instruct/files?revision=master":
        "Qwen/Qwen2.5-7B-Instruct",
    "https://ollama.com/library/qwen2.5:72b": "qwen2.5 72b",
    "https://www.ollama.com/library/llama3.1:70b?tab=x": "llama3.1 70b",
    "https://ollama.com/library/qwen2.5/tags": "qwen2.5",
    "https://ollama.com/someone/qwen2.5-tuned:7b": "someone/qwen2.5-tuned 7b",
}
NOT_MODEL_PAGES = [
    "https://huggingface.co/datasets/Qwen/some-data",
    "https://huggingface.co/spaces/Qwen/Qwen2.5-Max-Demo",
    "https://huggingface.co/Qwen/Qwen2.5-7B/blob/main/config.json",
    "https://huggingface.co/Qwen/Qwen2.5-7B/resolve/main/model.safetensors",
    "https://huggingface.co/Qwen",
    "https://huggingface.co/docs/transformers/index",
    "https://huggingface.co/papers/2407.10671",
    "https://modelscope.cn/datasets/Qwen/some-data",
    "https://modelscope.cn/studios/Qwen/demo",
    "https://modelscope.cn/models/Qwen/Qwen2.5-7B/file/view/master/config.json",
    "https://ollama.com/search?q=qwen",
    "https://ollama.com/blog/qwen",
    "https://example.com/Qwen/Qwen2.5-7B",
    "https://huggingface.co.evil.example/Qwen/Qwen2.5-7B",
    "https://user:pw@huggingface.co/Qwen/Qwen2.5-7B",
    "ftp://huggingface.co/Qwen/Qwen2.5-7B",
    "javascript:alert(1)//huggingface.co/Qwen/Qwen2.5-7B",
    "https://huggingface.co/Qwen/" + "x" * 3000,
    "https://huggingface.co/Qwen/Qwen%3Cscript%3E",
    "https://[::1/Qwen/x",
    "",
]


@pytest.mark.parametrize(("url", "name"), MODEL_PAGES.items())
def test_a_model_page_reads_as_its_model(url: str, name: str) -> None:
    link = read_link(url, model_sites())
    assert link is not None and link.name == name and link.url == url


@pytest.mark.parametrize("url", NOT_MODEL_PAGES)
def test_anything_else_is_no_model(url: str) -> None:
    assert read_link(url, model_sites()) is None


def test_the_sites_file_is_checked(tmp_path: Path) -> None:
    assert load_sites(tmp_path / "missing.toml").site == ()
    bad = tmp_path / "links.toml"
    bad.write_text('[[site]]\ndisplay = "x"\nhosts = ["a.com"]\npath = ["{org}"]\n',
                   encoding="utf-8")
    with pytest.raises(DataError):
        load_sites(bad)
    bad.write_text('[[site]]\ndisplay = "x"\nhosts = ["a.com"]\npath = ["{org}", "{name}"]\n'
                   '[[site]]\ndisplay = "y"\nhosts = ["a.com"]\npath = ["{org}", "{name}"]\n',
                   encoding="utf-8")
    with pytest.raises(DataError, match="twice"):
        load_sites(bad)


@pytest.mark.parametrize(("url", "says"), [
    ("https://huggingface.co/Qwen/Qwen2.5-72B-Instruct", "Qwen2.5-72B needs at least"),
    ("https://huggingface.co/Qwen/Qwen2.5-72B-Instruct-AWQ", "quantized copy of Qwen2.5-72B"),
    ("https://huggingface.co/deepseek-ai/DeepSeek-R1-Distill-Qwen-7B",
     "Qwen2.5-7B's architecture"),
    ("https://ollama.com/library/qwen2.5:72b", "Qwen2.5-72B needs at least"),
    ("https://huggingface.co/meta-llama/Llama-3.1-405B", "above every text model"),
])
def test_a_card_for_what_the_table_answers(engine: Engine, url: str, says: str) -> None:
    link = read_link(url, model_sites())
    assert link is not None
    card = unfurl_card(engine.knowledge, engine.ask(link.name), link)
    assert card is not None
    assert_valid_message({"blocks": card["blocks"], "text": "x"})
    text = str(card["blocks"])
    assert says in text and engine.knowledge.table.source.date_text() in text
    (button,) = card["blocks"][-1]["elements"]
    assert button["action_id"] == UNFURL_ASK_ACTION
    # The table's sentence first; the estimator's numbers only for a model the table lacks
    # (issue 38: a link to any model gets its estimate), labelled, after it.
    answer = engine.ask(link.name)
    if answer.intent == "not_found" and answer.estimate is not None:
        assert text.index(says) < text.index("Estimate, not the table's")
    else:
        assert "estimate" not in text.lower()


@pytest.mark.parametrize("url", ["https://huggingface.co/moonshotai/Kimi-K2-Instruct",
                                 "https://huggingface.co/openai/gpt-oss-120b",
                                 "https://huggingface.co/zai-org/GLM-4.6"])
def test_a_link_to_a_model_newer_than_the_page_gets_its_estimate_card(
        engine: Engine, url: str) -> None:
    link = read_link(url, model_sites())
    assert link is not None
    answer = engine.ask(link.name)
    card = unfurl_card(engine.knowledge, answer, link)
    assert card is not None and answer.estimate is not None
    assert_valid_message({"blocks": card["blocks"], "text": "x"})
    assert "Estimate, not the table's" in str(card["blocks"])


@pytest.mark.parametrize("url", ["https://huggingface.co/google/bert-base-uncased",
                                 "https://ollama.com/library/llama3.1"])
def test_no_card_where_the_table_has_no_answer(engine: Engine, url: str) -> None:
    """A name the table cannot place, and a "which one?" (no size): silence."""
    link = read_link(url, model_sites())
    assert link is not None
    assert unfurl_card(engine.knowledge, engine.ask(link.name), link) is None


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("flavour", [None, "snt9b", "snt9b23"])
def test_suggested_prompts_are_answered_from_the_table(
        engine: Engine, language: str, flavour: str | None) -> None:
    prompts = suggested_prompts(engine.knowledge, language, flavour)  # type: ignore[arg-type]
    assert 1 <= len(prompts) <= MAX_PROMPTS
    for prompt in prompts:
        answer = engine.ask(prompt.message)
        assert answer.intent in ("lookup", "compare", "capacity"), prompt
        assert answer.language == language, prompt
        assert prompt.title and len(prompt.title) <= 75
    if flavour is not None:
        display = engine.knowledge.hardware.flavours[flavour].display
        assert any(display in p.message for p in prompts)
