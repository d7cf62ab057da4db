"""A malformed TOML data file stops loading with the file and the field named, never a traceback.

The files are validated into plain dataclasses (facts/datafiles.py); these break each file the
ways a hand edit would: a typo in a key, a zero, a name that refers to nothing, a missing section.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mincards.bot.errors import DataError
from mincards.bot.facts.knowledge import load_knowledge
from mincards.bot.replies.slack_limits import load_limits


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(("file", "old", "new", "field", "words"), [
    pytest.param("hardware.toml", "per_node = 8 ", "per_node = 0 ", "flavours.snt9b",
                 "per_node must be a whole number above 0", id="zero-per-node"),
    pytest.param("hardware.toml", "die_per_card = 2", "die_per_card = -2", "flavours.snt9b23",
                 "die_per_card", id="negative-die"),
    pytest.param("hardware.toml", "per_node = 8 ", "per_nodes = 8 ", "flavours.snt9b.per_node",
                 "'flavours.snt9b.per_nodes'", id="typo-in-a-key"),
    pytest.param("hardware.toml", 'chip = "Ascend 910B"\n', "", "flavours.snt9b.chip",
                 "required", id="missing-key"),
    pytest.param("hardware.toml", "per_node = 8 ", 'per_node = "eight" ',
                 "flavours.snt9b.per_node", "integer", id="not-a-number"),
    pytest.param("vocabulary.toml", 'needs_no_more_than = "full"', 'needs_no_more_than = "ful"',
                 None, "needs_no_more_than names unknown strategy 'ful'", id="unknown-reference"),
    pytest.param("vocabulary.toml", "[strategies.lora]", "[strategies.LoRA]", None,
                 "are not ids", id="strategy-not-an-id"),
    pytest.param("vocabulary.toml", 'label = { en = "LoRA", zh = "LoRA" }',
                 'label = { en = "LoRA", fr = "LoRA" }', "strategies.lora.label.fr.[key]",
                 "'en' or 'zh'", id="unknown-language"),
    pytest.param("vocabulary.toml", "[sequence]", "[sequences]", "sequence", "'sequences'",
                 id="misspelt-section"),
    pytest.param("models.toml", 'size = "27b"', 'size = "huge"', None,
                 "size: 'huge' is not a size", id="bad-size"),
    pytest.param("known_models.toml", "params_b = 14.7\n", "params_b = -14.7\n", None,
                 "params_b: -14.7 is not a size in billions", id="known-negative-size"),
    pytest.param("known_models.toml", "params_b = 141.0\nactive_b = 39.0\n",
                 "params_b = 141.0\nactive_b = 390.0\n", None, "active_b", id="known-active"),
    pytest.param("known_models.toml", 'display = "Phi-4"\n', 'display = "Phi-4"\nlayers = 40\n',
                 None, "layers", id="known-unknown-key"),
    pytest.param("known_models.toml", 'params_b = 14.7\nkind = "text"', 'params_b = 14.7\nkind = '
                 '"audio"', None, "kind", id="known-unknown-kind"),
])
def test_a_broken_data_file_names_the_file_and_field(data_copy: Path, file: str, old: str,
                                                     new: str, field: str | None,
                                                     words: str) -> None:
    _edit(data_copy / file, old, new)
    with pytest.raises(DataError) as caught:
        load_knowledge(data_copy)
    err = caught.value
    assert err.path == str(data_copy / file)
    if field is not None:
        assert err.field == field
    assert words in str(err)


def test_slack_limits_must_be_above_zero(tmp_path: Path) -> None:
    path = tmp_path / "slack.toml"
    source = Path(__file__).resolve().parent.parent / "data" / "slack.toml"
    path.write_text(source.read_text(encoding="utf-8").replace(
        "max_button_value = 2000", "max_button_value = 0"), encoding="utf-8")
    with pytest.raises(DataError, match="max_button_value must be a whole number above 0"):
        load_limits(path)
