"""The Workflow step for a model or a length the table lacks (issue 38, item 5): the estimate's
fewest per flavour, with `estimated: true` and the estimate's label in the lead; a table count
says `estimated: false`; an extrapolation fails the step with its reason."""

from __future__ import annotations

from mincards.bot.answering.engine import Engine
from mincards.bot.replies.step_outputs import output_names, step_result


def test_a_table_count_is_not_estimated(engine: Engine) -> None:
    result = step_result(engine.knowledge, engine.ask("qwen2.5-72b lora 8k"), False)
    assert result.error is None and result.outputs["estimated"] is False


def test_a_model_newer_than_the_page_gives_its_estimate_said_so(engine: Engine) -> None:
    answer = engine.ask("gpt-oss-120b lora")
    result = step_result(engine.knowledge, answer, False)
    assert result.error is None and result.outputs["estimated"] is True
    assert "Estimate, not the table's" in result.outputs["lead"]
    assert answer.estimate is not None
    for flavour in engine.knowledge.table.flavours:
        fewest = min(c.count for c in answer.estimate.cells if c.flavour == flavour)
        assert result.outputs[f"{flavour}_fewest"] == fewest
        assert result.outputs[f"{flavour}_nodes"] >= 1
    assert set(result.outputs) <= set(output_names(engine.knowledge))


def test_a_length_past_the_table_is_estimated_and_an_extrapolation_is_not(
        engine: Engine) -> None:
    within = step_result(engine.knowledge, engine.ask("qwen3-8b full 32k"), False)
    assert within.error is None and within.outputs["estimated"] is True
    far = step_result(engine.knowledge, engine.ask("qwen2.5-72b lora 128k"), False)
    assert far.error and not far.outputs
