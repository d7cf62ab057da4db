"""Every entry of the table, asked for by name, strategy and length, answers with its numbers."""

from __future__ import annotations

import json

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.replies.render_json import render_json
from tests.conftest import SHARED, needs_shared

TRUTH = SHARED / "eval" / "truth.json"
STRATEGY_WORDS = {"en": {"full": "full", "lora": "lora"},
                  "zh": {"full": "全参", "lora": "LoRA微调"}}


@needs_shared("eval", "truth.json")
@pytest.mark.parametrize("style", ["table-key", "display-name", "chinese"])
def test_every_truth_entry_answers_with_its_numbers(engine: Engine, style: str) -> None:
    truth = json.loads(TRUTH.read_text(encoding="utf-8"))
    for want in truth:
        info = engine.knowledge.catalogue[want["model"]]
        name = {"table-key": info.key, "display-name": info.display.replace("-", " "),
                "chinese": info.display}[style]
        lang = "zh" if style == "chinese" else "en"
        strategy = STRATEGY_WORDS[lang][want["strategy"]]
        seq = f"序列长度{want['seq_len']}" if lang == "zh" else f"seq {want['seq_len']}"
        question = f"{name} {strategy} {seq}"
        if info.key == "DeepSeek-V3/R1" and style != "table-key":
            question = f"DeepSeek-R1 {strategy} {seq}"  # the display name names two models
        payload = render_json(engine.knowledge, engine.ask(question))
        assert payload["intent"] == "lookup", question
        assert payload["models"] == [want["model"]], question
        (row,) = payload["rows"]
        got = (row["strategy"], row["seq_len"], row["mindspeed_llm"]["snt9b"],
               row["mindspeed_llm"]["snt9b23"], row["llama_factory"]["snt9b"],
               row["llama_factory"]["snt9b23"])
        assert got == (want["strategy"], want["seq_len"], want["mindspeed_snt9b"],
                       want["mindspeed_snt9b23"], want["llamafactory_snt9b"],
                       want["llamafactory_snt9b23"]), question
