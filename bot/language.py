"""The languages the bot answers in, and which one a question is written in."""

from __future__ import annotations

import re
from typing import Literal

Language = Literal["en", "zh"]
LANGUAGES: tuple[Language, ...] = ("en", "zh")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def language_of(text: str) -> Language:
    return "zh" if _CJK.search(text) else "en"
