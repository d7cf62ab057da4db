"""Pages of the ModelArts table written for tests: any frameworks, flavours and rows."""

from __future__ import annotations

from pathlib import Path

from mincards.bot.facts.hardware import Hardware, load_hardware
from mincards.bot.facts.knowledge import default_data_dir
from mincards.bot.facts.vocabulary import Vocabulary, load_vocabulary
from mincards.bot.importing.importer import import_table

FIVE = ["MindSpeed-LLM", "Llama-Factory", "VeRL", "MindSpeed-RL", "MindSpeed-MM"]
KEY_HEADERS = ["支持模型参数量", "训练策略类型", "序列长度SEQ_LEN"]
SEED = default_data_dir() / "source" / "modelarts-2025-06-24.txt"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def vocabulary() -> Vocabulary:
    return load_vocabulary(default_data_dir() / "vocabulary.toml")


def hardware() -> Hardware:
    return load_hardware(default_data_dir() / "hardware.toml")


def text_page(frameworks: list[str], rows: list[str], *, flavours: tuple[str, ...] = (
        "Snt9B", "Snt9B23"), date: str | None = "2025-09-01") -> str:
    """The page as copied: each framework's header cell spans its flavours (then empty cells),
    trailing empty cells dropped, as a browser copies them."""
    first = KEY_HEADERS + [c for fw in frameworks
                           for c in (f"{fw}规格卡数/DIE", *[""] * (len(flavours) - 1))]
    second = KEY_HEADERS + list(flavours) * len(frameworks)
    head = ["模型最小卡数配置", ""]
    if date:
        head += [f"时间：{date} 10:00:00", ""]
    head += ["以下配置仅参考，一般小于8卡使用8卡训练。", "表1 模型最小卡数配置"]
    return "\n".join([*head, "\t".join(first).rstrip("\t"), "\t".join(second), *rows]) + "\n"


def five_framework_page() -> str:
    """The seed's table with three more frameworks: VeRL twice MindSpeed-LLM's count on LoRA
    entries only, MindSpeed-RL all '-', MindSpeed-MM 16 on VL models. Test numbers, not Huawei's."""
    seed = import_table(SEED.read_text(encoding="utf-8"), vocabulary(), hardware().flavours)
    rows = []
    for e in seed.entries:
        cells = ["-" if (c := e.count(fw, fl)) is None else f"{c}*Ascend"
                 for fw, fl in seed.columns()]
        ms = e.count("mindspeed_llm", "snt9b")
        cells += [f"{2 * ms}*Ascend", ""] if e.strategy == "lora" and ms else ["-", "-"]
        cells += ["-", "-"]
        cells += ["16*Ascend", ""] if "vl" in e.model else ["-", "-"]
        rows.append(f"{e.model}\t{e.strategy}\t{e.seq_len}\t" + "\t".join(cells))
    return text_page(FIVE, rows, date="2025-10-22")
