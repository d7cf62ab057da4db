"""A question as typed, read into what it asks: models, strategy, sequence length, filters."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.language import Language, language_of
from bot.names import Mention, NameReader
from bot.phrases import PhraseIndex, compile_phrases, phrase_pattern
from bot.vocabulary import Vocabulary

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
_SPACES = re.compile(r"\s+")


@dataclass
class Question:
    """What a question asks. Empty sets mean the person did not narrow it down."""

    text: str
    language: Language
    mentions: list[Mention] = field(default_factory=list)
    strategies: set[str] = field(default_factory=set)
    seq_lens: list[int] = field(default_factory=list)
    frameworks: set[str] = field(default_factory=set)
    flavours: set[str] = field(default_factory=set)
    uncovered_stage: str | None = None
    wants_list: bool = False
    wants_help: bool = False

    @property
    def mention(self) -> Mention | None:
        return next((m for m in self.mentions if m.named), None)


def _clean(text: str) -> str:
    text = unicodedata.normalize("NFKC", text[:MAX_READ])
    # Control and format characters (NUL, zero-width, bidi marks) carry no meaning here.
    text = "".join(" " if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c for c in text)
    return text.lower()


class QuestionReader:
    """Reads questions; built once from the vocabulary, then cheap per question.

    `frameworks` and `flavours` map each id a question may name to its name (the table's
    frameworks with their page names, then the vocabulary's others; the hardware's flavours).
    """

    def __init__(self, vocabulary: Vocabulary, names: NameReader,
                 frameworks: Mapping[str, str] | None = None,
                 flavours: Mapping[str, str] | None = None) -> None:
        self.vocabulary = vocabulary
        self.names = names
        cjk_families = [(w, key) for key, fam in vocabulary.families.items() for w in fam.cjk]
        cjk_families += list(vocabulary.other_families.cjk.items())
        self._cjk_family = sorted(cjk_families, key=lambda p: len(p[0]), reverse=True)
        orgs = phrase_pattern(vocabulary.orgs.names).replace(r"[\s_-]?", "-")
        self._org = re.compile(rf"(?:{orgs})/|(?<![\w./-])[a-z][a-z_.-]*/(?=[a-z][\w.-]*\d)")
        frameworks = frameworks or {}
        # A framework's own name, then the vocabulary's other words for it; never a shorter
        # name read out of a longer one (MindSpeed-RL is not MindSpeed-LLM).
        self._frameworks = PhraseIndex(
            [(name, key) for key, name in frameworks.items()]
            + [(w, key) for key, fw in vocabulary.frameworks.items() for w in fw.words],
            attached=False)
        flavours = flavours or {}
        self._flavours = PhraseIndex(
            [(p, key) for key, display in flavours.items() for p in (display, key)]
            + [(w, key) for key, words in vocabulary.flavours.items() for w in words])
        self._strategies = PhraseIndex(vocabulary.strategy_words())
        # A stage the vocabulary makes a strategy (a page that adds GRPO rows) is asked about,
        # no longer outside the table.
        strategy_words = {w.lower() for w, _ in vocabulary.strategy_words()}
        self._uncovered = compile_phrases([w for w in vocabulary.stages.uncovered
                                           if w.lower() not in strategy_words])
        self._covered = compile_phrases(vocabulary.stages.covered)
        units = phrase_pattern(vocabulary.quantities.units)
        self._quantity = re.compile(rf"(?<![\w.])\d+\s*(?:{units})")
        keywords = phrase_pattern(vocabulary.sequence.keywords)
        number = r"(\d+(?:\.\d+)?)\s*(k)?(?![a-z0-9])"
        self._seq_keyword = re.compile(rf"(?:{keywords})\s*(?:[:=]|is|of|为|是)?\s*{number}")
        self._seq_k = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)\s?k(?![a-z0-9])")
        self._seq_bare = re.compile(r"(?<![\w.\-:/])(\d{3,7})(?![\w.\-:])")
        self._list = compile_phrases(vocabulary.intents.list)
        self._help = compile_phrases(vocabulary.intents.help)

    def normalize(self, text: str) -> str:
        text = _clean(text)
        text = _HF_URL.sub(lambda m: f" {m.group(2)} ", text)
        text = _OLLAMA_URL.sub(lambda m: f" {m.group(1)} ", text)
        text = _ANY_URL.sub(" ", text)
        for word, key in self._cjk_family:
            if word in text:
                text = text.replace(word, f" {key}")
        text = _CJK_EDGE.sub(" ", text)
        text = _DIGIT_UNDERSCORE.sub(".", text)
        text = self._org.sub("", text)
        return _OLLAMA_TAG.sub(r"\1-\2", text)

    def _seq_value(self, number: str, k: str | None) -> int | None:
        try:
            value = float(number) * (self.vocabulary.sequence.k if k else 1)
        except ValueError:
            return None
        return int(value) if value >= 1 and value == int(value) else None

    def _take(self, pattern: re.Pattern[str], text: str) -> tuple[list[re.Match[str]], str]:
        found = list(pattern.finditer(text))
        return found, pattern.sub(" ", text) if found else text

    def read(self, raw: str) -> Question:
        question = Question(text=raw, language=language_of(raw))
        text = self.normalize(raw)
        frameworks, text = self._frameworks.take(text)
        question.frameworks.update(frameworks)
        flavours, text = self._flavours.take(text)
        question.flavours.update(flavours)
        found, text = self._take(self._uncovered, text)
        if found:
            question.uncovered_stage = found[0].group(0).strip()
        strategies, text = self._strategies.take(text)
        question.strategies.update(strategies)
        _, text = self._take(self._covered, text)
        _, text = self._take(self._quantity, text)
        seqs: list[int] = []
        for pattern in (self._seq_keyword, self._seq_k):
            found, text = self._take(pattern, text)
            seqs += [v for m in found if (v := self._seq_value(m.group(1), m.group(2)
                                                                if m.re.groups > 1 else "k"))]
        found = list(self._seq_bare.finditer(text))
        bare = [m for m in found if int(m.group(1)) >= self.vocabulary.sequence.bare_minimum]
        seqs += [int(m.group(1)) for m in bare]
        for m in reversed(bare):
            text = text[:m.start()] + " " + text[m.end():]
        question.seq_lens = sorted(set(seqs))
        question.wants_list = bool(self._list.search(text))
        question.wants_help = bool(self._help.search(text))
        question.mentions = self.names.read(_SPACES.sub(" ", text))
        return question
