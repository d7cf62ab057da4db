"""Bounds a noisy member or a bad file cannot get past, in the core: every reading pass linear
(and fast) on the shapes that once took hundreds of milliseconds, budgets as typed, forged
values that never reach a count, and imports bounded in size, grid, digits and names."""

from __future__ import annotations

import csv
import io
import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.answering.followup import FollowUp
from mincards.bot.errors import DataError, ImportTableError
from mincards.bot.facts.table import parse_table, read_text_file
from mincards.bot.importing.importer import import_table
from mincards.bot.reading.asked import Budget
from mincards.bot.replies.feedback import Feedback
from mincards.bot.replies.render_json import render_json
from mincards.bot.replies.render_text import render_text
from mincards.bot.replies.render_views import SEQ_INPUT, read_modal
from tests.pages import SEED, hardware, vocabulary
from tests.process_exit import run_to_exit

# The shapes the issue measured (2,000 characters each), and their kin.
PATHOLOGICAL = {
    "cjk-numerals": "八" * 2000,
    "cjk-numerals-mixed": "一二三四五六七八九十百千万" * 154,
    "digit-then-spaces": "1" + " " * 1990,
    "digit-spaces-k": "8" + " " * 1990 + "k",
    "digits-and-spaces": "1 " * 1000,
    "distinct-digits": " ".join(str(i) for i in range(450)),
    "seq-then-spaces": "seq" + " " * 1990,
    "lora-then-spaces": "lora" + " " * 1990,
    "strategy-words-and-spaces": "seq lora full " * 150,
    "cards-repeated": "8 cards " * 250,
    "ascend-repeated": "8*Ascend " * 220,
    "numbers-with-punctuation": "1%1,1:" * 333,
}
PASS_LIMIT_SECONDS = 0.005


def _passes(engine: Engine, text: str) -> dict[str, tuple[Callable[[Any], Any], Any]]:
    """Each reading pass with the input it gets when reading `text`."""
    reader = engine.questions
    normal = reader.normalize(text)
    filtered = reader.filters.read(normal)
    planned = reader.workload.read(filtered.text)
    numbers = reader.numbers.read(planned.text)
    spaced = re.sub(r"\s+", " ", numbers.text)
    return {"normalize": (reader.normalize, text), "filters": (reader.filters.read, normal),
            "workload": (reader.workload.read, filtered.text),
            "numbers": (reader.numbers.read, planned.text),
            "intents": (lambda t: (reader._capacity.search(t), reader._list.search(t),
                                   reader._help.search(t)), numbers.text),
            "names": (reader.names.read, spaced), "loose": (reader._loose, numbers.text)}


def _best_of(work: Callable[[Any], Any], value: Any, runs: int = 5) -> float:
    # This thread's CPU time, not the clock: beside a CPU burner a few-ms run is descheduled
    # for whole time slices, and a wall-clock ratio of 4x the text read 8.4x (a fresh-clone CI
    # run, issue 36). The growth being checked is the reader's work, which CPU time measures.
    best = float("inf")
    for _ in range(runs):
        started = time.thread_time()
        work(value)
        best = min(best, time.thread_time() - started)
    return best


@pytest.mark.parametrize("shape", PATHOLOGICAL)
def test_every_reading_pass_stays_under_5_ms_on_pathological_text(engine: Engine,
                                                                 shape: str) -> None:
    text = PATHOLOGICAL[shape]
    engine.ask("warm up: qwen2.5-72b lora 8k on 8 cards")
    slow = {name: round(took * 1000, 1) for name, (work, value) in _passes(engine, text).items()
            if (took := _best_of(work, value)) > PASS_LIMIT_SECONDS}
    assert not slow, f"{shape}: passes over 5 ms (ms): {slow}"


@pytest.mark.parametrize("unit", ["八", "1 ", "seq "])
def test_reading_time_grows_linearly(engine: Engine, unit: str) -> None:
    """Four times the text takes well under sixteen times as long (quadratic would)."""
    short, long = unit * 500, unit * 2000
    engine.ask(short)
    ratio = _best_of(engine.ask, long) / _best_of(engine.ask, short)
    assert ratio < 8, f"{unit!r}: x4 text took x{ratio:.1f} time"


# --- budgets as typed ---------------------------------------------------------------------


def test_a_negative_budget_is_said_to_be_none(engine: Engine) -> None:
    answer = engine.ask("qwen2.5-72b lora on -5 cards")
    assert answer.budget is None
    assert answer.note("budget_not_positive") is not None
    assert "-5 cards is not a budget" in render_text(engine.knowledge, answer)
    zh = engine.ask("qwen2.5-72b lora -8卡")
    assert zh.budget is None and zh.note("budget_not_positive") is not None


@pytest.mark.parametrize("typed", ["8*Ascend", "8 Ascend", "8 x Ascend", "8×ascend"])
def test_the_pages_own_notation_is_a_budget_in_each_flavours_unit(engine: Engine,
                                                                   typed: str) -> None:
    answer = engine.ask(f"will qwen2.5-7b lora fit on {typed}?")
    assert answer.budget == Budget(8, "ascend")
    flavours = engine.knowledge.hardware.flavours
    # 8 in each flavour's own unit: 8 cards on one counted in cards, 8 DIE on one in DIE.
    assert answer.room == dict.fromkeys(engine.knowledge.table.flavours, 8)
    assert all(flavours[f].unit for f in answer.room)
    shown = render_json(engine.knowledge, answer, typed)
    assert shown["budget"]["unit"] == "ascend"


def test_ascend_npus_are_cards_not_the_pages_unit(engine: Engine) -> None:
    assert engine.ask("qwen2.5-7b lora on 8 ascend npus").budget == Budget(8, "card")


def test_a_bare_number_in_the_forms_budget_asks_for_its_unit(engine: Engine) -> None:
    assert engine.budget_problem("8") == ("unit", 8)
    assert engine.budget_problem("-5 cards") == ("not_positive", None)
    assert engine.budget_problem("lots") == ("unread", None)
    assert engine.budget_problem("8 cards") is None
    assert engine.budget_problem("8*Ascend") is None


# --- forged values never reach a count ----------------------------------------------------


@pytest.mark.parametrize("meta", [5, {"l": "zh"}, ["x"], None, True, "[" * 3000])
def test_a_forms_private_metadata_of_any_shape_reads(meta: object) -> None:
    form = read_modal({"private_metadata": meta, "state": {"values": {}}})
    assert form.language in ("en", "zh")


@pytest.mark.parametrize("typed", ["²", "①", "٣", "4096²", "８１９２"])
def test_length_options_that_only_look_like_digits_are_no_length(typed: str) -> None:
    form = read_modal({"state": {"values": {SEQ_INPUT: {SEQ_INPUT: {
        "selected_option": {"value": typed}}}}}})
    assert form.seq_len is None


def test_deeply_nested_button_values_are_refused_quickly() -> None:
    from mincards.bot import shallow_json

    value = "[" * 1000 + "]" * 1000  # 2,000 characters: within Slack's limit for a value
    started = time.thread_time()
    assert FollowUp.decode(value) is None
    assert Feedback.decode('{"k":' * 400 + "1" + "}" * 400) is None
    assert time.thread_time() - started < 0.05
    with pytest.raises(ValueError, match="nested deeper"):
        shallow_json.loads(value)
    assert shallow_json.loads('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}') == {
        "a": "[" * 36}  # brackets inside a string are text, not depth


@pytest.mark.parametrize("count", [True, False, 1.5, "8", -3, 10**9])
def test_a_forged_budget_count_never_reaches_an_answer(engine: Engine, count: object) -> None:
    value = json.dumps({"l": "en", "m": "Qwen2.5-72B", "c": {
        "kind": "lookup", "models": ["Qwen2.5-72B"], "seq_lens": [True, 4096],
        "budget": {"count": count, "unit": "card"}}})
    follow = FollowUp.decode(value)
    assert follow is not None and follow.context is not None
    assert follow.context.budget is None
    assert follow.context.seq_lens == (4096,)
    text = render_text(engine.knowledge, engine.follow(follow))
    assert "True" not in text and "False" not in text


# --- imports bounded ----------------------------------------------------------------------

HEADER = ("支持模型参数量\t训练策略类型\t序列长度SEQ_LEN\tMindSpeed-LLM规格卡数/DIE\n"
          "支持模型参数量\t训练策略类型\t序列长度SEQ_LEN\tSnt9B\tSnt9B23\n")


def _import(text: str) -> Any:
    return import_table(text, vocabulary(), hardware().flavours)


def test_a_span_bomb_is_refused_quickly_and_small() -> None:
    cells = "".join(f'<td rowspan="1000" colspan="1000">x{i}</td>' for i in range(1000))
    page = ("<table><tr><th>模型</th><th>策略</th><th>序列长度SEQ_LEN</th></tr><tr>" + cells
            + "</tr>" + "<tr><td>a</td></tr>" * 50 + "</table>")
    started = time.monotonic()
    with pytest.raises(ImportTableError, match="grows past 100,000 cells"):
        _import(page)
    assert time.monotonic() - started < 5


def test_a_page_of_too_many_rows_is_refused_before_its_rows_are_read() -> None:
    rows = "".join(f"qwen2.5-{i + 1000}b\tfull\t4096\t8*Ascend\n" for i in range(40_000))
    started = time.monotonic()
    with pytest.raises(ImportTableError, match="grows past"):
        _import("时间：2025-09-01\n" + HEADER + rows)
    assert time.monotonic() - started < 10


def test_duplicates_are_found_in_linear_time_and_listed_briefly() -> None:
    rows = "llama3.1-8b\tfull\t4096\t8*Ascend\n" * 20_000
    started = time.monotonic()
    with pytest.raises(ImportTableError, match="duplicate entries") as raised:
        _import("时间：2025-09-01\n" + HEADER + rows)
    assert time.monotonic() - started < 10
    assert len(str(raised.value)) < 300


@pytest.mark.parametrize("cell", ["9" * 5000, "9" * 8 + "*Ascend"])
def test_a_count_of_thousands_of_digits_is_one_short_error(cell: str) -> None:
    with pytest.raises(ImportTableError) as raised:
        _import("时间：2025-09-01\n" + HEADER + f"qwen2-7b\tfull\t4096\t{cell}\n")
    assert "not a card count" in str(raised.value) and len(str(raised.value)) < 200


@pytest.mark.parametrize("name", ["=qwen9-8b+cmd|' /C calc'!A0", "+qwen", "-2+3", "@SUM(A1)",
                                  "qwen|calc", "qwen'7b"])
def test_a_model_cell_that_is_a_formula_is_refused(name: str) -> None:
    with pytest.raises(ImportTableError, match="model name"):
        _import("时间：2025-09-01\n" + HEADER + f"{name}\tfull\t4096\t8*Ascend\n")


def test_a_formula_in_table_csv_is_refused(data_copy: Path) -> None:
    path = data_copy / "table.csv"
    text = path.read_text(encoding="utf-8")
    bad = re.sub(r"^llama3\.1-8b,", "=HYPERLINK(1),", text, count=1, flags=re.MULTILINE)
    with pytest.raises(DataError, match="formula"):
        parse_table(bad, path)


def test_files_past_the_size_limit_are_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "page.html"
    big.write_bytes(b"<table>" + b"x" * (21 * 1024 * 1024))
    with pytest.raises(DataError, match="larger than 20 MB"):
        read_text_file(big)
    started = time.monotonic()
    # A device is refused before anything is read from it.
    with pytest.raises(DataError, match="not a regular file"):
        read_text_file(Path("/dev/zero"))
    assert time.monotonic() - started < 5


def _excel_csv_utf8(text: str) -> str:
    """What Excel writes for 'CSV UTF-8': a BOM, CRLF, every row padded with commas to the
    widest, and a comment line holding a comma quoted as one cell."""
    lines = text.splitlines()
    width = max(len(next(csv.reader([line]))) for line in lines if not line.startswith("#"))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for line in lines:
        cells = [line] if line.startswith("#") else next(csv.reader([line]))
        writer.writerow(cells + [""] * (width - len(cells)))
    return "\ufeff" + out.getvalue()


def test_excels_padded_csv_utf8_loads_as_the_same_table(data_copy: Path) -> None:
    text = (data_copy / "table.csv").read_text(encoding="utf-8")
    padded = _excel_csv_utf8(text)
    assert '"# ' in padded and ",,," in padded.splitlines()[1]
    assert parse_table(padded) == parse_table(text)


def test_the_seed_page_still_imports() -> None:
    table = _import(SEED.read_text(encoding="utf-8"))
    assert len(table.entries) > 100


# --- the long probes (make slow): whole pages through the command, time and memory measured --


def _assert_refused_in_bounds(tmp_path: Path, page: Path, says: str) -> None:
    """import-table refuses `page` with one line saying `says`, within 30 s and 1 GB (the
    child's peak memory)."""
    import resource
    import shutil

    from mincards.bot.facts.knowledge import default_data_dir
    from tests.bot_process import MINCARDS

    data = tmp_path / "data"
    shutil.copytree(default_data_dir(), data)
    started = time.monotonic()
    result = run_to_exit([str(MINCARDS), "import-table", "--allow-older", "--allow-removals",
                          "--data-dir", str(data), str(page)], capture_output=True,
                         text=True, check=False)
    took = time.monotonic() - started
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert result.returncode == 2 and says in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert took < 30 and peak_kb < 1024 * 1024, (took, peak_kb)


@pytest.mark.slow
def test_a_100000_row_page_is_refused_within_30_s_and_1_gb(tmp_path: Path) -> None:
    page = tmp_path / "page.txt"
    rows = "".join(f"qwen2.5-{i + 1000}b\tfull\t4096/8192\t4*Ascend\n" for i in range(100_000))
    page.write_text("时间：2025-09-01\n" + HEADER + rows, encoding="utf-8")
    _assert_refused_in_bounds(tmp_path, page, "grows past")


@pytest.mark.slow
def test_a_200_mb_page_is_refused_within_30_s_and_1_gb(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    with page.open("wb") as out:
        out.write(b"<table>")
        for _ in range(200):
            out.write(b"<tr><td>x</td></tr>" * (1024 * 1024 // 19))
    _assert_refused_in_bounds(tmp_path, page, "larger than 20 MB")


@pytest.mark.slow
def test_a_span_bomb_page_is_refused_within_30_s_and_1_gb(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    cells = "".join(f'<td rowspan="1000" colspan="1000">x{i}</td>' for i in range(1000))
    page.write_text("<table><tr><th>模型</th><th>策略</th><th>序列长度SEQ_LEN</th></tr><tr>"
                    + cells + "</tr>" + "<tr><td>a</td></tr>" * 1000 + "</table>",
                    encoding="utf-8")
    _assert_refused_in_bounds(tmp_path, page, "grows past")
