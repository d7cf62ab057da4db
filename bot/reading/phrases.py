"""Phrases from the vocabulary compiled into patterns; matched case-folded, separators loose."""

from __future__ import annotations

import re
from collections.abc import Iterable

_SEPARATORS = re.compile(r"[\s_-]+")


def _is_ascii(word: str) -> bool:
    return all(ord(c) < 128 for c in word)


def phrase_pattern(phrases: Iterable[str], *, attached: bool = True,
                   alone: bool = False) -> str:
    """One alternation for phrases, longest first; ASCII ones need word edges, CJK ones do not.

    attached=False also refuses an ASCII phrase joined by '-' or '_' to a further word, so that
    'mindspeed' is not read out of 'MindSpeed-RL' when no phrase names that. alone=True also
    refuses one joined to the word before it: the 'pt' of 'gemma-3-27b-pt' is part of a name.
    """
    tail = "" if attached else r"(?![_-][a-z])"
    head = r"(?<![a-z0-9][-_/.])" if alone else ""
    ascii_parts: list[str] = []
    cjk_parts: list[str] = []
    for phrase in sorted({p.lower() for p in phrases}, key=len, reverse=True):
        if _is_ascii(phrase):
            # A space or dash inside a phrase stands for any separator, or none.
            ascii_parts.append(r"[\s_-]?".join(re.escape(w) for w in re.split(r"[\s-]+", phrase)))
        else:
            cjk_parts.append(r"\s*".join(re.escape(w) for w in phrase.split()))
    # The word edges stand once outside the alternation, so a position inside a word is given
    # up at once instead of once per phrase (a question is read with some twenty of these).
    parts = []
    if ascii_parts:
        parts.append(rf"{head}(?<![a-z0-9])(?:{'|'.join(ascii_parts)})(?![a-z0-9]){tail}")
    if cjk_parts:
        parts.append(f"(?:{'|'.join(cjk_parts)})")
    return "|".join(parts) if parts else r"(?!x)x"


def compile_phrases(phrases: Iterable[str]) -> re.Pattern[str]:
    return re.compile(phrase_pattern(phrases))


def _fold(text: str) -> str:
    return _SEPARATORS.sub("", text.lower())


class PhraseIndex:
    """Phrases that each name a key (a framework, a flavour, a strategy), found in one pass.

    One alternation over every key's phrases, longest first, so a longer name always wins over a
    shorter one inside it ('mindspeed-rl' over 'mindspeed'), whatever order the keys come in.
    """

    def __init__(self, phrases: Iterable[tuple[str, str]], *, attached: bool = True,
                 alone: bool = False) -> None:
        pairs = [(p, key) for p, key in phrases if p.strip()]
        self._key: dict[str, str] = {}
        for phrase, key in pairs:
            self._key.setdefault(_fold(phrase), key)  # the first key to claim a phrase keeps it
        self._pattern = re.compile(phrase_pattern([p for p, _ in pairs], attached=attached,
                                                  alone=alone))

    def take(self, text: str, mark: str = " ") -> tuple[list[str], str]:
        """(the keys named, in order, each once; the text with their phrases replaced by
        `mark`)."""
        keys: list[str] = []
        for match in self._pattern.finditer(text):
            key = self._key.get(_fold(match.group(0)))
            if key is not None and key not in keys:
                keys.append(key)
        return keys, self._pattern.sub(mark, text) if keys else text
