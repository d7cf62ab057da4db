"""Start-up: a whole `mincards ask` process against importing pydantic and rapidfuzz, side by side.

Run: make startup   (or .venv/bin/python bench/startup.py [--runs 15] [--max-ratio 2.0])

Both are timed with this interpreter, alternately, so that whatever else the machine is doing
weighs on both alike: `python -c "from pydantic import BaseModel; from rapidfuzz import fuzz,
process"` (the least a program using the two can start in) and `mincards ask "qwen2.5 72b lora
8k"` (the console script next to this interpreter). Two untimed runs of each come first: they
fill the checked-facts cache and the file cache, as any earlier use would have. Prints the
medians, the ratio of the medians, and the conditions; with --max-ratio, exits 1 above it.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

BASELINE = [sys.executable, "-c", "from pydantic import BaseModel; from rapidfuzz import fuzz, "
            "process"]
QUESTION = "qwen2.5 72b lora 8k"


def mincards_command() -> list[str]:
    script = Path(sys.executable).with_name("mincards")
    if not script.exists():
        sys.exit(f"no mincards next to {sys.executable}: run `make setup` and use .venv/bin/python")
    return [str(script), "ask", QUESTION]


def bytecode_compiled() -> bool:
    """Whether mincards' modules have bytecode to load (pip compiles a wheel's at install; an
    editable install under PYTHONDONTWRITEBYTECODE has none unless `make setup` compiled it)."""
    spec = importlib.util.find_spec("mincards.bot.cli")
    if spec is None or spec.origin is None:
        return False
    return Path(importlib.util.cache_from_source(spec.origin)).exists()


def timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def measure(runs: int, env: dict[str, str]) -> dict[str, object]:
    ask = mincards_command()
    for _ in range(2):
        timed(BASELINE, env)
        timed(ask, env)
    base: list[float] = []
    whole: list[float] = []
    for _ in range(runs):
        base.append(timed(BASELINE, env))
        whole.append(timed(ask, env))
    median_base, median_ask = statistics.median(base), statistics.median(whole)
    return {
        "runs_each": runs,
        "import_pydantic_rapidfuzz_median_ms": round(median_base * 1e3, 1),
        "mincards_ask_median_ms": round(median_ask * 1e3, 1),
        "mincards_ask_min_max_ms": [round(min(whole) * 1e3, 1), round(max(whole) * 1e3, 1)],
        "ratio": round(median_ask / median_base, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="timed runs of each (default 15)")
    parser.add_argument("--max-ratio", type=float, help="exit 1 when the ratio is above this")
    parser.add_argument("--no-cache", action="store_true",
                        help="time mincards with the checked-facts cache off (MINCARDS_CACHE=off)")
    args = parser.parse_args()
    env = dict(os.environ)
    if args.no_cache:
        env["MINCARDS_CACHE"] = "off"
    result = measure(args.runs, env)
    result["conditions"] = {
        "python": sys.version.split()[0],
        "executable": sys.executable,
        "checked_facts_cache": env.get("MINCARDS_CACHE", "default (~/.cache/mincards)"),
        "PYTHONDONTWRITEBYTECODE": env.get("PYTHONDONTWRITEBYTECODE", ""),
        "mincards_bytecode_compiled": bytecode_compiled(),
        "cpus": os.cpu_count(),
    }
    print(json.dumps(result, indent=2))
    ratio = result["ratio"]
    assert isinstance(ratio, float)
    if args.max_ratio is not None and ratio > args.max_ratio:
        print(f"start-up ratio {ratio} is above {args.max_ratio}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
