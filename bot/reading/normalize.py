"""The first pass over a question: one spelling for everything later passes read.

Full-width characters and case folded (NFKC), control characters dropped, links reduced to the
model they name, Chinese family names to their family word, Hugging Face organisations and
Ollama tags to a plain name, and a size split from its unit ("32 B") joined again.
"""

from __future__ import annotations

import re
import unicodedata

from mincards.bot.facts.vocabulary import Vocabulary
from mincards.bot.reading.phrases import phrase_pattern

# Questions are a line or two; reading further only costs time, and no model name is that long.
MAX_READ = 2000
_HF_URL = re.compile(
    r"https?://(?:www\.)?(?:huggingface\.co|hf\.co|modelscope\.cn/models|hf-mirror\.com)"
    r"/(?:models/)?([\w.-]+)/([\w.-]+)[^\s|>]*")
_OLLAMA_URL = re.compile(r"https?://(?:www\.)?ollama\.com/(?:library/)?([\w.:-]+)[^\s|>]*")
_ANY_URL = re.compile(r"https?://\S+")
_OLLAMA_TAG = re.compile(r"(?<![\w.])([a-z][\w.-]*):(\d[\w.-]*)")
# InternVL2_5 means 2.5; qwen2.5_72b is a version then a size, so a size after it is left alone.
_DIGIT_UNDERSCORE = re.compile(r"(?<=[a-z]\d)_(?=\d+(?![\d.]*[bm]))")
_CJK_EDGE = re.compile(r"(?<=[\u3400-\u9fff])(?=[a-z0-9])|(?<=[a-z0-9])(?=[\u3400-\u9fff])")
# "Qwen 2.5 - 32 B": a size written apart from its B is still a size.
_SPLIT_SIZE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s+b(?![a-z0-9])")


def clean(text: str) -> str:
    text = unicodedata.normalize("NFKC", text[:MAX_READ])
    # Control and format characters (NUL, zero-width, bidi marks) carry no meaning here.
    text = "".join(" " if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c for c in text)
    return text.lower()


class Normalizer:
    def __init__(self, vocabulary: Vocabulary) -> None:
        cjk_families = [(w, key) for key, fam in vocabulary.families.items() for w in fam.cjk]
        cjk_families += list(vocabulary.other_families.cjk.items())
        self._cjk_family = sorted(cjk_families, key=lambda p: len(p[0]), reverse=True)
        orgs = phrase_pattern(vocabulary.orgs.names).replace(r"[\s_-]?", "-")
        self._org = re.compile(rf"(?:{orgs})/|(?<![\w./-])[a-z][a-z_.-]*/(?=[a-z][\w.-]*\d)")

    def __call__(self, text: str) -> str:
        text = clean(text)
        text = _HF_URL.sub(lambda m: f" {m.group(2)} ", text)
        text = _OLLAMA_URL.sub(lambda m: f" {m.group(1)} ", text)
        text = _ANY_URL.sub(" ", text)
        for word, key in self._cjk_family:
            if word in text:
                text = text.replace(word, f" {key}")
        text = _CJK_EDGE.sub(" ", text)
        text = _DIGIT_UNDERSCORE.sub(".", text)
        if "/" in text:
            text = self._org.sub("", text)
        if ":" in text:
            text = _OLLAMA_TAG.sub(r"\1-\2", text)
        return _SPLIT_SIZE.sub(r"\1b", text)
