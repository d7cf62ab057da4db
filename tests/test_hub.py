"""Shapes from the Hugging Face Hub (handlers/hub.py) against a local Hub on loopback: found,
gated with and without a token, missing, slow, garbage; cached on disk; every failure one
line. Tests never reach the real Hub."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mincards.handlers.hub import HubError, _explain, hub_shape, repo_id
from tests.fake_hub import TOKEN, FakeHub, HubModel
from tests.process_exit import run_to_exit

MINCARDS = Path(sys.executable).with_name("mincards")
CONFIGS = Path(__file__).resolve().parent / "configs"
PHI4 = "microsoft/phi-4"


def config(name: str) -> bytes:
    return (CONFIGS / f"{name}.json").read_bytes()


@pytest.fixture()
def hub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeHub]:
    models = {
        PHI4: HubModel(config("microsoft--phi-4"), total=14_659_507_200),
        "mistralai/Mistral-Small-24B-Instruct-2501": HubModel(
            config("mistralai--Mistral-Small-24B-Instruct-2501"), total=23_572_403_200),
        "acme/ReasonerX-24B": HubModel(
            config("mistralai--Mistral-Small-24B-Instruct-2501"), total=23_572_403_200),
        "meta-llama/Llama-3.1-8B": HubModel(config("meta-llama--Llama-3.1-8B"),
                                            total=8_030_261_248, gated=True),
        "slow/model": HubModel(config("microsoft--phi-4"), slow=5.0),
        "garbage/api": HubModel(b"{}", garbage=True),
        "garbage/config": HubModel(b"<html>oops</html>", total=1_000_000_000),
        "huge/config": HubModel(b'{"pad": "' + b"x" * 1_100_000 + b'"}'),
        "absurd/config": HubModel(b'{"hidden_size": 4096, "num_hidden_layers": 32, '
                                  b'"vocab_size": 32000}', total=10**18),
    }
    with FakeHub(models) as running:
        monkeypatch.setenv("HF_ENDPOINT", running.url)
        monkeypatch.delenv("HF_TOKEN", raising=False)
        monkeypatch.setenv("MINCARDS_CACHE", str(tmp_path / "cache"))
        monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
        monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
        yield running


def test_a_model_is_read_from_the_hub_and_kept(hub: FakeHub) -> None:
    shape = hub_shape(PHI4)
    assert shape.source == "hub" and shape.name == PHI4
    assert abs(shape.params_b - 14.66) < 0.01  # the weights' count, not the layers'
    assert shape.layers == 40 and not shape.moe
    asked = len(hub.requests)
    again = hub_shape(PHI4)
    assert again == shape and len(hub.requests) == asked  # from the disk, no request
    started = time.perf_counter()
    for _ in range(20):
        hub_shape(PHI4)
    assert len(hub.requests) == asked
    print(f"kept shape: {(time.perf_counter() - started) / 20 * 1000:.2f} ms")


def test_a_gated_model_needs_a_token(hub: FakeHub, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(HubError) as caught:
        hub_shape("meta-llama/Llama-3.1-8B")
    assert "gated" in str(caught.value) and "set HF_TOKEN" in str(caught.value)
    monkeypatch.setenv("HF_TOKEN", "hf_wrong")
    with pytest.raises(HubError) as wrong:
        hub_shape("meta-llama/Llama-3.1-8B")
    assert "HF_TOKEN has no access" in str(wrong.value)
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    assert abs(hub_shape("meta-llama/Llama-3.1-8B").params_b - 8.03) < 0.01


@pytest.mark.parametrize("repo,said", [
    ("nobody/no-such-model", "no model nobody/no-such-model on Hugging Face"),
    ("garbage/api", "cannot read garbage/api"),
    ("garbage/config", "not JSON"),
    ("huge/config", "a few KB"),
    ("absurd/config", "beyond any model"),
])
def test_what_the_hub_cannot_give_is_one_line(hub: FakeHub, repo: str, said: str) -> None:
    with pytest.raises(HubError) as caught:
        hub_shape(repo)
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_a_slow_hub_is_given_up_on_at_the_deadline(hub: FakeHub) -> None:
    started = time.monotonic()
    with pytest.raises(HubError) as caught:
        hub_shape("slow/model", deadline=1.0)
    # The model answers after 5 s: giving up well before that is the behaviour; how soon after
    # the 1 s deadline depends on the machine's load, so the bound is not tight.
    assert time.monotonic() - started < 4.5
    assert "did not answer within 1 s" in str(caught.value)


def test_the_http_clients_own_timeout_reads_as_the_deadline() -> None:
    """The client's read timeout equals the deadline, so on a loaded machine it can fire before
    the wait does (seen in a CI run beside a CPU burner): the asker reads the same line."""
    import huggingface_hub.utils._http as http

    client = next(getattr(http, name) for name in ("httpx2", "httpx", "requests")
                  if hasattr(http, name))
    read_timeout = getattr(client, "ReadTimeout", None) or client.exceptions.ReadTimeout
    for exc in (read_timeout("timed out"), TimeoutError()):
        assert _explain("slow/model", exc, 1.0) == \
            "Hugging Face did not answer within 1 s for slow/model"
    assert "did not answer" not in _explain("slow/model", ValueError("x"), 1.0)


def test_a_hub_that_is_down_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import socket

    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("MINCARDS_CACHE", str(tmp_path / "cache"))
    with pytest.raises(HubError) as caught:
        hub_shape(PHI4, deadline=5)
    # Said at once, naming where and why (not after the client's 24 s of retries).
    assert str(caught.value).startswith("cannot reach Hugging Face at 127.0.0.1 (")


@pytest.mark.parametrize("text,repo", [
    ("microsoft/phi-4", "microsoft/phi-4"),
    ("https://huggingface.co/microsoft/phi-4", "microsoft/phi-4"),
    ("https://huggingface.co/microsoft/phi-4/tree/main", "microsoft/phi-4"),
    ("hf.co/Qwen/Qwen3-8B", "Qwen/Qwen3-8B"),
    ("<https://huggingface.co/01-ai/Yi-1.5-34B>", "01-ai/Yi-1.5-34B"),
    ("https://huggingface.co/datasets/openai/gsm8k", None),
    ("https://huggingface.co/spaces/someone/demo", None),
    ("https://huggingface.co/microsoft/phi-4/resolve/main/config.json", None),
    ("https://example.com/microsoft/phi-4", None),
    ("phi-4", None),
    ("../../etc/passwd", None),
    ("a/b/c", None),
])
def test_which_names_are_hub_models(text: str, repo: str | None) -> None:
    assert repo_id(text) == repo


def test_the_command_line_estimates_from_the_hub(hub: FakeHub) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return run_to_exit([str(MINCARDS), "estimate", *args], capture_output=True,
                           text=True, env={**os.environ}, check=False)

    result = run("--json", "https://huggingface.co/acme/ReasonerX-24B")
    assert result.returncode == 0, result.stderr
    said = json.loads(result.stdout)
    assert said["shape"]["source"] == "hub" and abs(said["shape"]["params_b"] - 23.572) < 0.01
    assert said["estimates"] and said["label"] == "estimate, not the table's"
    assert any("acme/ReasonerX-24B" in r for r in hub.requests)
    # The known-models data comes first: Mistral-Small-24B is estimated without the Hub.
    hub.requests.clear()
    known = run("--json", "mistralai/Mistral-Small-24B-Instruct-2501")
    assert json.loads(known.stdout)["shape"]["source"] == "known-models"
    # A table model is answered by the table: never fetched, never estimated.
    table = run("meta-llama/Llama-3.1-8B")
    assert table.returncode == 0 and "is in the table" in table.stdout
    assert hub.requests == []
    missing = run("nobody/nothing-here")
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr.strip() == ("mincards: error: no model nobody/nothing-here on "
                                      "Hugging Face (if it is private, set HF_TOKEN)")


@pytest.mark.parametrize("question,repo", [
    ("how many cards for acme/ReasonerX-24B lora?", "acme/ReasonerX-24B"),
    ("https://huggingface.co/openai/whisper-large 全参", "openai/whisper-large"),
    ("foo-13b full/lora 4k/8k", None),
    ("qwen2.5-7b lora", None),
    ("（acme/ReasonerX-24B）需要几张卡", "acme/ReasonerX-24B"),
])
def test_which_words_of_a_question_are_looked_up(question: str, repo: str | None) -> None:
    from mincards.handlers.estimates import hub_repo

    assert hub_repo(question) == repo


def test_ask_adds_the_hubs_estimate_as_slack_does(hub: FakeHub) -> None:
    result = run_to_exit([str(MINCARDS), "ask", "--json", "acme/ReasonerX-24B lora 4k"],
                         capture_output=True, text=True, env={**os.environ},
                         check=False)
    said = json.loads(result.stdout)
    assert said["intent"] == "not_found" and said["estimate"]["shape"]["source"] == "hub"
    assert said["rows"] == [] and "Estimate, not the table's" in said["text"]
