"""Held-out questions for budgets, capacity, comparisons and follow-ups, worded unlike the issue's
examples. Expected answers are not written here: tests/test_intent_cases.py derives them from the
table (tests/oracle.py). Each case says only what the question asks.
"""

# (question, table model, strategy or None, length or None, (count, unit, flavour or None))
BUDGET = [
    ("is 1 node of snt9b enough to full-tune Llama-3.1-8B-Instruct?", "llama3.1-8b", "full",
     None, (1, "node", "snt9b")),
    ("we have 24 NPUs — does qwen2.5 72b lora at 8192 fit?", "qwen2.5-72b", "lora", 8192,
     (24, "card", None)),
    ("Qwen/Qwen3-32B full 4k with only 4 cards, possible?", "qwen3-32b", "full", 4096,
     (4, "card", None)),
    ("mixtral-8x7b full sft, 2 servers ok?", "mixtral-8x7b", "full", None, (2, "node", None)),
    ("internvl2.5-78b lora: would 48 DIE do?", "internvl2.5-78b", "lora", None,
     (48, "die", None)),
    ("gemma-3-27b-it full 8k on a single Snt9B23 machine?", "gemma3-27b", "full", 8192,
     (1, "node", "snt9b23")),
    ("qwen3_moe 30b a3b lora, 2 台 910C 够不够", "qwen3_moe-30B_A3B", "lora", None,
     (2, "node", "snt9b23")),
    ("DeepSeek-V3 全参 4096 要 64 台吗", "DeepSeek-V3/R1", "full", 4096, (64, "node", None)),
    ("llama3.2-3b 全量微调 2张卡行不行", "llama3.2-3b", "full", None, (2, "card", None)),
    ("千问2-1.5B LoRA 一张卡能跑吗", "qwen2-1.5b", "lora", None, (1, "card", None)),
    ("qwen2.5-14b lora 8k — 6 DIE?", "qwen2.5-14b", "lora", 8192, (6, "die", None)),
    ("glm-4-9b-chat: lora fine-tuning on three nodes, batch size 32, 2 epochs",
     "glm4-9b", "lora", None, (3, "node", None)),
]

# (question, (count, unit, flavour or None), strategy, length, frameworks counted or None)
CAPACITY = [
    ("which models can I fully fine-tune with 32 DIE at 8k", (32, "die", None), "full", 8192,
     None),
    ("our team got 2 nodes, what could we train?", (2, "node", None), None, None, None),
    ("anything fit on 1 card for lora?", (1, "card", None), "lora", None, None),
    ("8 张卡 lora 4096 能训哪些", (8, "card", None), "lora", 4096, None),
    ("一台 Snt9B 能训练什么模型", (1, "node", "snt9b"), None, None, None),
    ("what fits in 128 cards with llama-factory, full params",
     (128, "card", None), "full", None, ["llama_factory"]),
    ("with sixteen DIE which models fit (mindspeed only)?", (16, "die", None), None, None,
     ["mindspeed_llm"]),
]

# (question, [table models, in the order named], strategy, length)
COMPARE = [
    ("Qwen2.5-72B-Instruct vs Meta-Llama-3.1-70B-Instruct for lora", ["qwen2.5-72b",
                                                                     "llama3.1-70b"], "lora",
     None),
    ("compare qwen3 8b and qwen3 14b at 8k", ["qwen3-8b", "qwen3-14b"], None, 8192),
    ("gemma3 27b or qwen3 32b — which is cheaper to full-tune?", ["gemma3-27b", "qwen3-32b"],
     "full", None),
    ("千问2.5-7B 和 glm4-9b 哪个要的卡少 LoRA", ["qwen2.5-7b", "glm4-9b"], "lora", None),
    ("qwen2-vl-7b versus qwen2.5-vl-7b", ["qwen2vl-7b", "qwen2.5_vl-7b"], None, None),
]

# (questions in one conversation, what the last one asks:
#  (intent, models, strategy, length, (count, unit, flavour) or None))
FOLLOW_UPS = [
    (["llama3.1-70b full", "how about lora instead"],
     ("lookup", ["llama3.1-70b"], "lora", None, None)),
    (["qwen2.5-14b", "only 8192 please"], ("lookup", ["qwen2.5-14b"], None, 8192, None)),
    (["qwen3-32b lora", "would 8 cards be enough?"],
     ("lookup", ["qwen3-32b"], "lora", None, (8, "card", None))),
    (["qwen3 14b", "and the 32b?"], ("lookup", ["qwen3-32b"], None, None, None)),
    (["qwen 14b lora", "3"], ("lookup", ["qwen3-14b"], "lora", None, None)),
    (["glm4-9b 全参", "那 LoRA 呢"], ("lookup", ["glm4-9b"], "lora", None, None)),
    (["glm4-9b 全参", "换成 8k 呢", "两张卡够吗"],
     ("lookup", ["glm4-9b"], "full", 8192, (2, "card", None))),
    (["what fits on 4 cards?", "lora only"], ("capacity", [], "lora", None, (4, "card", None))),
    (["qwen2.5-32b vs qwen2.5-72b", "just lora at 4k"],
     ("compare", ["qwen2.5-32b", "qwen2.5-72b"], "lora", 4096, None)),
]
