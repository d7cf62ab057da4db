"""A name only the Hub knows (issue 38, item 2): searched on the Hub (the local fake Hub's
model search), the most downloaded id of the one family found read as an id is, the reply naming
the id; several families asked about; the Hub off or unreachable said in one line; a config that
is another model's refused."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mincards.bot.facts.knowledge import default_data_dir, load_knowledge
from mincards.handlers.hub_search import SEARCH_LIMIT, name_query, pick
from tests.fake_hub import FakeHub, HubModel

ROOT = Path(__file__).resolve().parent.parent
MINCARDS = Path(sys.executable).with_name("mincards")  # the venv running the tests
CONFIG = (ROOT / "tests" / "configs" / "mistralai--Mistral-Small-24B-Instruct-2501.json"
          ).read_bytes()
COPIES = [f"someone{i}/Olmo-3-24B-Think-copy-{i}" for i in range(300)]


@pytest.fixture(scope="module")
def hub() -> Iterator[FakeHub]:
    with FakeHub({"allenai/Olmo-3-24B-Think": HubModel(CONFIG, total=23_572_403_200,
                                                        downloads=900),
                  "quant/Olmo-3-24B-Think-GGUF": HubModel(CONFIG, downloads=50),
                  "nous/Hermes-5-24B": HubModel(CONFIG, downloads=10),
                  "merge/Hermes-5-24B-x-Mistral": HubModel(CONFIG, downloads=9),
                  "fake/Reasoner-70B": HubModel(CONFIG, downloads=5),
                  "acme/Nova-24B": HubModel(CONFIG, downloads=7),
                  "other/SuperNova-24B": HubModel(CONFIG, downloads=8)},
                 extra_ids=COPIES) as running:
        yield running


def run(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "MINCARDS_"))}
    full.update({"MINCARDS_CACHE": str(tmp_path / "cache"), "HF_HOME": str(tmp_path / "hf"),
                 "HF_HUB_DISABLE_TELEMETRY": "1", "MINCARDS_HUB_TIMEOUT": "10", **env})
    return subprocess.run([str(MINCARDS), *args], capture_output=True, text=True, env=full,
                          cwd=tmp_path, timeout=120)


@pytest.mark.parametrize(("question", "asked", "query"), [
    ("olmo 3 24b lora?", "olmo-3-24b", "olmo 3 24b"),
    ("Hermes-5-24B full 8k", "hermes", "Hermes-5-24B"),
    ("how many cards for frob 7b at 8k on 16 cards", "frob-7b", "frob 7b"),
    ("how many cards for 24b", "24b", None),            # a bare size is no name
    ("quokka 3 24b 做 LoRA 要几张卡？", "24b", "quokka 3 24b"),  # the word the reader dropped
    ("lora 24b", "24b", None),
])
def test_the_name_searched_for_is_the_question_s_own(question: str, asked: str,
                                                     query: str | None) -> None:
    words = load_knowledge(default_data_dir()).vocabulary.not_name_words()
    assert name_query(question, asked, words) == query


def test_one_family_reads_its_most_downloaded_and_several_are_asked() -> None:
    assert pick("olmo 3 24b", ["allenai/Olmo-3-24B-Think", "quant/Olmo-3-24B-Think-GGUF"]
                ).repo == "allenai/Olmo-3-24B-Think"
    several = pick("qwen3 24b", ["Qwen/Qwen3-24B", "deepseek/DeepSeek-R1-Distill-Qwen3-24B"])
    assert several.repo is None and several.choices == (
        "Qwen/Qwen3-24B", "deepseek/DeepSeek-R1-Distill-Qwen3-24B")
    # An id that is not a Hub model id, or does not hold the name, is never read.
    assert pick("olmo 3 24b", ["../../etc/passwd", "x/" + "a" * 300, "allenai/Olmo-2-7B"]
                ).repo is None


def test_a_name_only_the_hub_knows_is_estimated_naming_the_id(hub: FakeHub,
                                                              tmp_path: Path) -> None:
    before = len(hub.searches)
    done = run(["ask", "olmo 3 24b lora?"], tmp_path, HF_ENDPOINT=hub.url)
    assert done.returncode == 0, done.stderr
    assert ("Estimate, not the table's, for allenai/Olmo-3-24B-Think (23.57B, from its "
            "configuration on Hugging Face, found by searching the Hub") in done.stdout
    assert hub.searches[before:] == ["olmo 3 24b"]
    # Hundreds of copies found: one page asked for, the family's most downloaded read.
    assert any(f"limit={SEARCH_LIMIT}" in r or "/api/models" in r for r in hub.requests)
    again = run(["estimate", "--json", "olmo 3 24b"], tmp_path, HF_ENDPOINT=hub.url)
    assert again.returncode == 0, again.stderr
    assert '"source": "hub-search"' in again.stdout
    assert hub.searches[before:] == ["olmo 3 24b"]  # kept: not searched again


def test_several_families_are_asked_about(hub: FakeHub, tmp_path: Path) -> None:
    # Hermes and a merge named after it are one family (the name's first word): read.
    one = run(["ask", "Hermes-5-24B full"], tmp_path, HF_ENDPOINT=hub.url)
    assert "Estimate, not the table's, for nous/Hermes-5-24B" in one.stdout
    # Nova and SuperNova are two: asked which, nothing estimated.
    two = run(["ask", "nova-24b lora"], tmp_path, HF_ENDPOINT=hub.url)
    assert two.returncode == 0
    assert "several models called “nova-24b”" in two.stdout
    assert "other/SuperNova-24B" in two.stdout and "acme/Nova-24B" in two.stdout
    assert "Estimate, not the table's" not in two.stdout


def test_a_config_of_another_size_is_refused(hub: FakeHub, tmp_path: Path) -> None:
    done = run(["ask", "fake/Reasoner-70B lora"], tmp_path, HF_ENDPOINT=hub.url)
    assert done.returncode == 0
    assert "describes 23.6B parameters, not the 70B its name says" in done.stdout
    assert "Estimate, not the table's" not in done.stdout


def test_nothing_found_is_one_line(hub: FakeHub, tmp_path: Path) -> None:
    done = run(["estimate", "zzyzx"], tmp_path, HF_ENDPOINT=hub.url)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "found no model called “zzyzx”" in done.stderr


def test_the_hub_off_or_unreachable_says_the_name_was_not_looked_up(hub: FakeHub,
                                                                    tmp_path: Path) -> None:
    before = len(hub.requests)
    off = run(["ask", "olmo 3 24b lora?"], tmp_path, HF_ENDPOINT=hub.url, MINCARDS_HUB="off")
    assert "MINCARDS_HUB=off), so the name was not looked up" in off.stdout
    assert len(hub.requests) == before
    (tmp_path / "other").mkdir()
    gone = run(["ask", "olmo 3 24b lora?"], tmp_path / "other",
               HF_ENDPOINT="http://127.0.0.1:9")
    assert "cannot reach Hugging Face at 127.0.0.1" in gone.stdout
    assert "Traceback" not in gone.stderr
