"""One typesetting convention for every reply, applied by one function to every sentence the
replies make (`i18n.t`):

- one parenthesis per place: two side by side, "(1 node) (MindSpeed-LLM)" or "（1 个节点）（…）",
  become one, their clauses joined by a semicolon;
- Chinese: no space between two Chinese characters or a Chinese character and Chinese
  punctuation ("16 张卡 可训练" is "16 张卡可训练"), and one space between Chinese and Latin
  letters or digits ("表中LoRA" is "表中 LoRA"), as the rest of the replies write them.
"""

from __future__ import annotations

import functools
import re

_HAN = r"\u3400-\u9fff"
_ZH_PUNCT = r"\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\u2014\u2026"
_LATIN = r"A-Za-z0-9"
_PAREN_PAIR = re.compile(r"\(([^()]*)\)\s*\(([^()]*)\)")
_ZH_PAREN_PAIR = re.compile(r"（([^（）]*)）\s*（([^（）]*)）")
_HAN_GAP = re.compile(rf"(?<=[{_HAN}{_ZH_PUNCT}]) +(?=[{_HAN}{_ZH_PUNCT}])")
_HAN_LATIN = re.compile(rf"(?<=[{_HAN}])(?=[{_LATIN}])|(?<=[{_LATIN}])(?=[{_HAN}])")
# Whether a Chinese sentence needs any of the above: most need none, and are left at one look.
_ZH_NEEDS = re.compile(rf"[{_HAN}{_ZH_PUNCT}] +[{_HAN}{_ZH_PUNCT}]|[{_HAN}][{_LATIN}]"
                       rf"|[{_LATIN}][{_HAN}]|）\s*（|\)\s*\(")


def _merge(pattern: re.Pattern[str], joined: str, text: str) -> str:
    while True:
        merged = pattern.sub(joined, text)
        if merged == text:
            return text
        text = merged


# Replies repeat their sentences ("Snt9B 16 张卡，2 个节点"): each typeset once, then
# remembered (a string's hash is kept by the string, so a repeat costs a look-up).
@functools.lru_cache(maxsize=16384)
def typeset(language: str, text: str) -> str:
    if language == "zh":
        if not _ZH_NEEDS.search(text):
            return text
        text = _merge(_ZH_PAREN_PAIR, r"（\1；\2）", text)
        text = _merge(_PAREN_PAIR, r"(\1; \2)", text)
        text = _HAN_GAP.sub("", text)
        return _HAN_LATIN.sub(" ", text)
    # Two side by side are written ") (" or ")(": a look for those is cheaper than a pattern.
    if ") (" in text or ")(" in text:
        return _merge(_PAREN_PAIR, r"(\1; \2)", text)
    return text
