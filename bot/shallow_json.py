"""JSON from strangers (a button's value, a stored context, a Slack payload), parsed only when
it is shallow.

Python's parser recurses once per level of nesting: 2,000 brackets raise RecursionError deep in
the C code, slowly. A linear scan counts the depth first and refuses anything deeper than
this bot ever writes, before the parser sees it.
"""

from __future__ import annotations

import json
import re
from typing import Any

# What this bot writes nests 4 levels at most; Slack's payloads about 12.
MAX_DEPTH = 32
# A string (with its escapes), or one bracket: everything else cannot change the depth.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*+"|[\[\]{}]')


def too_deep(text: str, max_depth: int = MAX_DEPTH) -> bool:
    depth = 0
    for token in _TOKENS.finditer(text):
        mark = token.group()
        if mark in "[{":
            depth += 1
            if depth > max_depth:
                return True
        elif mark in "]}":
            depth -= 1
    return False


def loads(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """json.loads, raising ValueError (never RecursionError) for text nested too deeply."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    if too_deep(text, max_depth):
        raise ValueError(f"JSON nested deeper than {max_depth} levels")
    return json.loads(text)
