"""Benchmark: per-question time inside one process, and the time of a whole `mincards ask`.

Run: make bench   (or .venv/bin/python bench/questions.py [--count N] [--runs N])
Questions are generated from the catalogue: names in many spellings, typos, strategies, lengths,
English and Chinese, names the table does not have, budgets ("on 8 cards", "16 DIE 够吗"), what
fits a budget, comparisons, plans (time and cluster size), models the table lacks (stand-ins of
the same architecture, quantized copies, sizes between table models), and follow-ups answered
in the context of a question before them.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from mincards.bot.answering.conversation import context_after
from mincards.bot.answering.engine import Engine
from mincards.bot.replies.render_json import render_json

STRATEGY_WORDS = ["", "full", "lora", "全参", "LoRA微调", "full-parameter", "全量微调"]
SEQ_WORDS = ["", "4k", "8K", "4096", "seq 8192", "序列长度8192", "8k context", "1k", "32k"]
FRAMES = ["{q}", "how many cards for {q}?", "{q} 需要几张卡", "@mincards {q}", "min NPUs: {q}",
          "{q} on LLaMA-Factory Snt9B23", "can I train {q} on 8 cards?", "{q} 16 DIE 够吗",
          "{q}, 1000 samples, 3 epochs, bs 32, two Snt9B23 nodes enough?"]
CAPACITY = ["what can I train on {n} cards?", "{n}卡能全参训练哪些模型",
            "lora at 8k on {n} DIE: which models?",
            "what fits on {n} nodes?", "which qwen models fit on {n} cards"]
COMPARE = ["{a} vs {b}", "{a} or {b}, which needs fewer cards?", "{a} 和 {b} 对比 lora"]
FOLLOW_UPS = ["and lora?", "what about 8k", "on Snt9B23?", "那全参呢", "8卡够吗", "the 72b?", "2.5"]
PLANS = ["how long for {q}, 1M samples of 2k tokens, 3 epochs at TPS 1800 on 32 cards?",
         "{q} 20亿 tokens 吞吐 1500 两天内需要几张卡",
         "{q}, 2B tokens at 1500 tokens/s, within 24h",
         "{q} 要多久", "{q} on 2 nodes, 500k samples avg 1024 tokens, TPS 2500, 95% efficiency"]
PLAN_FOLLOW_UPS = ["and with 64 cards?", "what if TPS is 2500?", "那两天内呢"]
EDGES = ["Qwen2.5-Coder-32B-Instruct", "DeepSeek-R1-Distill-Qwen-32B", "QwQ-32B",
         "Llama-3.3-70B-Instruct", "Qwen2.5-Math-72B", "Meta-Llama-3.1-70B-Instruct-AWQ",
         "qwen2.5:72b-instruct-q4_K_M", "Gemma-3-12B", "qwen2.5 3b", "Qwen2.5-Coder-3B",
         "unsloth/Qwen2.5-7B-Instruct-bnb-4bit", "Mixtral-8x22B", "llama 3.1 405b"]
OTHERS = ["gpt-4o", "phi-3-mini", "Mistral-7B-Instruct-v0.2", "qwen2.5-coder-7b", "llama-2-7b",
          "falcon-40b", "qwen 7b", "llama 3.1", "千问3", "list", "help", "", "what is this"]


def typo(rng: random.Random, word: str) -> str:
    if len(word) < 5:
        return word
    i = rng.randrange(1, len(word) - 2)
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]


def spellings(engine: Engine, rng: random.Random) -> list[str]:
    out: list[str] = []
    for info in engine.knowledge.catalogue:
        out += [info.key, info.display, info.display.replace("-", " "), *info.aliases]
        out.append(typo(rng, info.display))
    return out


def questions(engine: Engine, count: int, seed: int = 7) -> list[tuple[str, str | None]]:
    """(question, the question before it in the same conversation, or None)."""
    rng = random.Random(seed)
    names = spellings(engine, rng) + OTHERS
    out: list[tuple[str, str | None]] = []
    for _ in range(count):
        q = " ".join(w for w in (rng.choice(names), rng.choice(STRATEGY_WORDS),
                                 rng.choice(SEQ_WORDS)) if w)
        kind = rng.random()
        if kind < 0.05:
            plan = rng.choice(PLANS).format(q=q)
            out.append((rng.choice(PLAN_FOLLOW_UPS), plan) if rng.random() < 0.3
                       else (plan, None))
        elif kind < 0.1:
            edge = " ".join(w for w in (rng.choice(EDGES), rng.choice(STRATEGY_WORDS),
                                        rng.choice(SEQ_WORDS)) if w)
            out.append((rng.choice(FRAMES).format(q=edge), None))
        elif kind < 0.15:
            out.append((rng.choice(CAPACITY).format(n=rng.choice([1, 2, 4, 8, 16, 32])), None))
        elif kind < 0.22:
            out.append((rng.choice(COMPARE).format(a=rng.choice(names), b=rng.choice(names)),
                        None))
        elif kind < 0.3:
            out.append((rng.choice(FOLLOW_UPS), q))
        else:
            out.append((rng.choice(FRAMES).format(q=q), None))
    return out


def per_question(engine: Engine, qs: list[tuple[str, str | None]]) -> dict[str, float]:
    """Time to read, resolve and render one question; a follow-up is timed with the context
    of the question before it (that one answered untimed)."""
    contexts = {before: context_after(engine.ask(before), None)
                for _, before in qs if before is not None}
    for q, before in qs[:200]:  # warm caches and the regex engine before timing
        render_json(engine.knowledge, engine.ask(q, contexts.get(before or "")))
    times, table = [], []
    for q, before in qs:
        context = contexts.get(before or "")
        start = time.perf_counter()
        answer = engine.ask(q, context)
        render_json(engine.knowledge, answer)
        spent = time.perf_counter() - start
        times.append(spent)
        if answer.intent not in ("not_found", "help", "ambiguous"):
            table.append(spent)  # answered from the table (never estimated)
    return {"questions": len(qs), **_spread(times),
            "answered_by_table": {"questions": len(table), **_spread(table)}}


def _spread(times: list[float]) -> dict[str, float]:
    times = sorted(times)
    return {"median_ms": statistics.median(times) * 1e3,
            "p99_ms": times[int(len(times) * 0.99) - 1] * 1e3, "max_ms": times[-1] * 1e3}


def whole_process(runs: int) -> dict[str, float]:
    exe = Path(sys.executable).with_name("mincards")
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([str(exe), "ask", "qwen 2.5 72b lora 8k?"], check=True,
                       capture_output=True)
        times.append(time.perf_counter() - start)
    return {"runs": runs, "median_s": statistics.median(times), "max_s": max(times)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    start = time.perf_counter()
    engine = Engine()
    built = time.perf_counter() - start
    result = {"engine_build_ms": built * 1e3,
              "per_question": per_question(engine, questions(engine, args.count)),
              "whole_ask_process": whole_process(args.runs)}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
