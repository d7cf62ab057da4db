"""How long an estimate takes once the model's shape is at hand: from a Hub shape kept on disk
(handlers/hub.cached_shape), and from a config.json given as text, each estimated and rendered.

Run: .venv/bin/python bench/estimate.py [--count 2000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mincards.bot.answering.engine import Engine
from mincards.bot.estimating.hf_config import parse_config
from mincards.bot.facts.checked_cache import CACHE_ENV
from mincards.bot.replies.render_estimate import estimate_text

CONFIG = Path(__file__).resolve().parent.parent / "tests/configs/microsoft--phi-4.json"


def timed(count: int, work: Callable[[], object]) -> dict[str, float]:
    for _ in range(50):
        work()
    times = []
    for _ in range(count):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    times.sort()
    return {"median_ms": statistics.median(times) * 1e3,
            "p99_ms": times[int(count * 0.99) - 1] * 1e3, "max_ms": times[-1] * 1e3}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=2000)
    args = parser.parse_args()
    os.environ[CACHE_ENV] = tempfile.mkdtemp(prefix="mincards-bench-")
    from mincards.handlers import hub

    engine = Engine()
    text = CONFIG.read_text(encoding="utf-8")
    shape = parse_config(text, "microsoft/phi-4", "hub")
    hub._keep("microsoft/phi-4", shape)  # as a fetch would have left it
    question = "how many cards for microsoft/phi-4 lora?"
    answer = engine.ask(question)

    def from_kept() -> object:
        kept = hub.cached_shape("microsoft/phi-4")
        assert kept is not None
        made = engine.with_shape(answer, question, kept)
        assert made.estimate is not None
        return estimate_text(engine.knowledge, made.estimate, "en")

    def from_config() -> object:
        made = engine.ask(f"lora? ```{text}```")
        assert made.estimate is not None
        return estimate_text(engine.knowledge, made.estimate, "en")

    print(json.dumps({"kept_hub_shape": timed(args.count, from_kept),
                      "pasted_config": timed(args.count, from_config)}, indent=2))


if __name__ == "__main__":
    main()
