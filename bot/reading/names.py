"""Model names as people write them, read into family, version, variant and size.

Names are parsed into parts before any fuzzy scoring: edit distance is used only to read a
misspelt family word, never to bridge a different version or size (qwen2 is not qwen2.5).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process
from rapidfuzz.distance import DamerauLevenshtein

from mincards.bot.facts.catalogue import Catalogue, ModelInfo
from mincards.bot.facts.sizes import normalize_size, normalize_version
from mincards.bot.facts.vocabulary import Vocabulary

_TOKEN = re.compile(r"[a-z0-9][a-z0-9._-]*")
_PART_SPLIT = re.compile(r"[-_]+")
_FAMILY_PART = re.compile(r"^([a-z]+)(.*)$")
_REST = re.compile(r"^([vr]?\d+(?:\.\d+)?)?([a-z]*)$")
_VERSION = re.compile(r"^[vr]?\d+(?:\.\d+)?$")
_ACTIVE = re.compile(r"^a(\d+(?:\.\d+)?)b$")
_DATE = re.compile(r"^\d{4}$")
_REVISION = re.compile(r"^v\d+(?:\.\d+)+$")
# Fuzzy family matching: how many edits a misspelling may have, by its length.
_MIN_FUZZY_LEN = 4
# Words (and tokens) remembered per reader with the family (or alias) they name.
_MAX_REMEMBERED_WORDS = 4096
# ...or, with the same first letter, how alike by rapidfuzz's ratio (lamma ~ llama is 80).
_MIN_FUZZY_RATIO = 80


def _max_edits(word: str) -> int:
    return 1 if len(word) < 7 else 2


@dataclass
class Mention:
    """One model name found in a question, as parts; None/empty means the person did not say."""

    family: str | None = None
    other_family: str | None = None
    versions: set[str] = field(default_factory=set)
    variants: set[str] = field(default_factory=set)
    distinct: list[str] = field(default_factory=list)
    size: str | None = None
    active: str | None = None
    words: list[str] = field(default_factory=list)
    # Quantization words and tags (awq, q4_k_m): a smaller copy of the model named, not another.
    quantized: list[str] = field(default_factory=list)
    # A dated release of the same name (Qwen3-4B-Instruct-2507's 2507): the model itself unless
    # the data knows that release as a model of its own (stand_ins.toml).
    release: str | None = None

    @property
    def named(self) -> bool:
        return bool(self.family or self.other_family or self.size or self.active)

    def spelled(self) -> str:
        """The mention's parts joined back, for suggestions and for showing what was read."""
        return "-".join(self.words)

    @classmethod
    def naming(cls, info: ModelInfo, words: list[str] | None = None) -> Mention:
        """The mention that names exactly this table model."""
        return cls(family=info.family, versions=set(info.versions), variants=set(info.variants),
                   size=info.size, active=info.active, words=words or [info.key.lower()])


def display_name(vocabulary: Vocabulary, mention: Mention) -> str:
    """A mention written as the table writes names (qwen 2.5 3b -> Qwen2.5-3B); a name of a
    family the vocabulary does not know stays as it was read."""
    if not mention.family or mention.family not in vocabulary.families:
        return mention.spelled()
    family = vocabulary.families[mention.family]
    name = family.display
    if mention.versions:
        name += family.version_sep + "/".join(sorted(mention.versions)).upper()
    shown = [vocabulary.variants.display.get(v, v.upper()) for v in sorted(mention.variants)
             if v not in vocabulary.variants.optional]
    # The words that make it another model stay in its name: Qwen2.5-Coder-3B is not Qwen2.5-3B.
    others = [_display_word(vocabulary, w) for w in mention.distinct]
    parts = [name, *shown, *others, *([str(mention.size).upper()] if mention.size else [])]
    if mention.active:
        parts.append(f"A{mention.active.upper()}")
    return "-".join(parts)


def _display_word(vocabulary: Vocabulary, word: str) -> str:
    """'coder' -> 'Coder', 'qwen' -> 'Qwen' (a family's own display), '1m' -> '1M'."""
    if word in vocabulary.families:
        return vocabulary.families[word].display
    return word.capitalize() if word.isalpha() else word.upper()


def kind_of(vocabulary: Vocabulary, mention: Mention) -> str:
    """The sort of model a name is (models.toml's `kind`): from its variant words, else its
    family's kind, 'moe' for an NxM or active size, else 'text'."""
    # A variant (vl) or a word that makes another model (GLM-4V's v, -Vision) may say it.
    for word in (*sorted(mention.variants), *mention.distinct):
        if word in vocabulary.variants.kinds:
            return vocabulary.variants.kinds[word]
    family = vocabulary.families.get(mention.family or "")
    if family is not None and family.kind:
        return family.kind
    if mention.active or (mention.size and "x" in mention.size):
        return "moe"
    return "text"


class NameReader:
    """Reads model mentions from normalised question text."""

    def __init__(self, vocabulary: Vocabulary, catalogue: Catalogue) -> None:
        self.vocabulary = vocabulary
        self.catalogue = catalogue
        self._family_of: dict[str, str] = {}
        for key, words in vocabulary.families.items():
            for name in words.names:
                self._family_of[name.replace("-", "")] = key
        self._others = {n.replace("-", "") for n in vocabulary.other_families.names}
        self._all_family_words = tuple(self._family_of) + tuple(self._others)
        v = vocabulary.variants
        self._table_variants = set(v.table)
        self._distinct = set(v.distinct)
        self._suffixes = set(v.suffixes)
        # Any word the vocabulary gives a meaning to is not a misspelt family.
        quantized = vocabulary.quantized
        self._quant_words = set(quantized.words)
        tags = "|".join(f"(?:{tag})" for tag in quantized.tags) or r"(?!x)x"
        # A whole tag after a separator, up to the next one: 72b-instruct-q4_k_m.
        self._quant_tag = re.compile(rf"(?:^|(?<=[-_.:]))(?:{tags})(?=$|[-_.])")
        self._known_words = (self._table_variants | self._distinct | self._suffixes
                             | self._quant_words
                             | {w for w, _ in vocabulary.strategy_words()}
                             | set(vocabulary.stages.covered) | set(vocabulary.stages.uncovered)
                             | {w for i in vocabulary.stages.implies for w in i.words})
        self._aliases: dict[str, str] = {}
        for info in catalogue:
            self._aliases[self._alias_key(info.key, org=False)] = info.key
            for alias in info.aliases:
                self._aliases[self._alias_key(alias)] = info.key
        self._joining = frozenset(v.joining)
        # Words a question uses around a size it gives ("cards for 24b"): never a model's name.
        self._not_names = vocabulary.not_name_words() | self._known_words
        # Remembered per word: a question repeats its words, and a long message of one word
        # repeated must not cost a fuzzy search (or an alias lookup) per repeat.
        self.family_of = functools.lru_cache(maxsize=_MAX_REMEMBERED_WORDS)(self._family_of_word)
        self._alias = functools.lru_cache(maxsize=_MAX_REMEMBERED_WORDS)(self._alias_of)

    # --- reading -----------------------------------------------------------------------------

    @staticmethod
    def _alias_key(name: str, org: bool = True) -> str:
        """`org`: a Hugging Face id's organisation is dropped (Qwen/Qwen2.5-7B); never from a
        table key, whose '/' joins two names (DeepSeek-V3/R1 is not an 'R1' alias)."""
        name = name.lower()
        if org and re.match(r"^[a-z0-9_.-]+/[a-z]", name):
            name = name.rsplit("/", 1)[-1]
        # Separators fold to one '-' but never vanish: 'internvl2.58b' is not InternVL2.5-8B.
        return re.sub(r"[^a-z0-9.]+", "-", name.replace(":", "-")).strip("-")

    def _alias_of(self, token: str) -> str | None:
        """The table model a whole token names by one of its aliases."""
        return self._aliases.get(self._alias_key(token))

    def _family_of_word(self, word: str) -> tuple[str | None, str | None]:
        """(table family, other family) that a word names, reading misspellings of length >= 4."""
        word = word.replace("-", "")
        if word in self._family_of:
            return self._family_of[word], None
        if word in self._others:
            return None, word
        if len(word) < _MIN_FUZZY_LEN or word in self._known_words:
            return None, None
        # Edit distance decides, the nearest family winning (intervl is one letter from
        # InternVL, two from InternLM); the looser ratio only speaks when none is within reach.
        reach = _max_edits(word)
        distances = {name: DamerauLevenshtein.distance(word, name, score_cutoff=reach)
                     for name in self._all_family_words}
        nearest = min(distances.values(), default=reach + 1)
        near = [name for name, d in distances.items() if d <= reach and d == nearest]
        if not near:
            near = [name for name in self._all_family_words
                    if name[0] == word[0] and fuzz.ratio(word, name) >= _MIN_FUZZY_RATIO]
        if len(near) != 1:
            # Near two families at once (internlv: InternVL or InternLM?): do not guess; the
            # word still names some model, so it is read as one the table may not have.
            return (None, word) if near else (None, None)
        name = near[0]
        return (self._family_of[name], None) if name in self._family_of else (None, name)

    def _family_part(self, part: str, next_is_number: bool) -> tuple[str | None, str | None, str]:
        m = _FAMILY_PART.match(part)
        if not m:
            return None, None, ""
        word, rest = m.groups()
        if not rest and not next_is_number and word not in self._family_of and (
                word not in self._others):
            # A bare prose word is read as a misspelt family only when a number follows it.
            return None, None, ""
        family, other = self.family_of(word)
        if family is None and other is None:
            return None, None, ""
        return family, other, rest

    def _take_rest(self, mention: Mention, rest: str) -> None:
        """'2.5', '2vl', '4v', 'v3' after a family word."""
        if not rest:
            return
        size = normalize_size(rest)
        if size:
            mention.size = size
            return
        m = _REST.match(rest)
        if not m:
            mention.distinct.append(rest)
            return
        version, letters = m.groups()
        if version:
            mention.versions.add(normalize_version(version))
        if letters:
            self._take_word(mention, letters, attached=True)

    def _take_word(self, mention: Mention, word: str, attached: bool) -> bool:
        """Adds a variant or suffix word; False when the word is not part of a model name."""
        if word in self._table_variants:
            mention.variants.add(word)
        elif word in self._distinct:
            mention.distinct.append(word)
        elif word in self._suffixes or self._is_suffix_typo(word):
            pass
        elif attached:
            # An unknown word inside a name (Qwen2.5-Foo-7B) makes it a model we do not know.
            mention.distinct.append(word)
        else:
            return False
        return True

    def _is_suffix_typo(self, word: str) -> bool:
        if len(word) < 5:
            return False
        found = process.extractOne(word, self._suffixes, scorer=DamerauLevenshtein.distance,
                                   score_cutoff=_max_edits(word))
        return found is not None

    def _take_part(self, mention: Mention, part: str, attached: bool) -> bool:
        """Adds one part after the family; False ends the mention (prose follows)."""
        if part in self._quant_words:
            mention.quantized.append(part)
            return True
        size = normalize_size(part)
        if size:
            if mention.size is None:
                mention.size = size
                return True
            if attached and size != mention.size:
                # A second size in the name (Qwen2.5-7B-Instruct-1M) makes it another model.
                mention.distinct.append(part)
                return True
            return attached
        if m := _ACTIVE.match(part):
            mention.active = normalize_size(m.group(1) + "b")
            return True
        if _REVISION.match(part) and (mention.size or mention.versions):
            return True  # Mixtral-8x7B-v0.1: a release of the same weights
        if _VERSION.match(part):
            if _DATE.match(part) and (mention.size or mention.versions):
                mention.release = mention.release or part  # -2507, -0414: a dated release
                return True
            if mention.size is None and (not mention.versions or part.startswith(("v", "r"))):
                mention.versions.add(normalize_version(part))
                return True
            if attached:
                mention.distinct.append(part)
                return True
            return False
        if part.isalpha():
            family, other = self.family_of(part) if attached else (None, None)
            if attached and (family or other) and family != mention.family:
                mention.distinct.append(part)  # DeepSeek-R1-Distill-Qwen-7B is neither model
                return True
            return self._take_word(mention, part, attached)
        if attached:
            mention.distinct.append(part)
            return True
        return False

    def read(self, text: str) -> list[Mention]:
        """Every model mention in normalised text, in order."""
        tokens: list[str] = []
        token_tags: list[list[str]] = []
        for token in _TOKEN.findall(text):
            # Quantization tags hold separators of their own (q4_k_m): taken out whole first.
            tags = [m.group(0) for m in self._quant_tag.finditer(token)]
            if tags:
                token = self._quant_tag.sub("", token)
            token = token.strip(".-_")
            if token or (tags and tokens):
                tokens.append(token)
                token_tags.append(tags)
        token_parts = [[p for p in _PART_SPLIT.split(t) if p] for t in tokens]
        mentions: list[Mention] = []
        current: Mention | None = None
        loose: list[Mention] = []
        # A word the reader could not place and the bare versions after it ("quokka 3"): the
        # name of a size that follows ("quokka 3 24b" is a model the table lacks, never "24b").
        unplaced: list[str] = []
        for index, parts in enumerate(token_parts):
            if index and current is not None:
                current.quantized += token_tags[index - 1]
            if current is None and tokens[index].isdigit():
                if unplaced and not normalize_size(tokens[index]):
                    unplaced.append(tokens[index])
                continue  # a plain number with no name before it names nothing (no alias is one)
            if current is None and unplaced and len(parts) == 1 and _VERSION.match(parts[0]) and (
                    not normalize_size(parts[0])):
                unplaced.append(parts[0])
                continue
            alias = self._alias(tokens[index])
            if alias:
                current = Mention.naming(self.catalogue[alias], [tokens[index]])
                mentions.append(current)
                continue
            nxt = token_parts[index + 1][0] if index + 1 < len(token_parts) and token_parts[
                index + 1] else ""
            # A word in the same token as a size is part of a name, even misspelt (gemm-3-27b).
            sized = any(normalize_size(p) for p in parts)
            start = None
            for p_index, part in enumerate(parts):
                following = parts[p_index + 1] if p_index + 1 < len(parts) else nxt
                number_follows = sized or bool(_VERSION.match(following)
                                               or normalize_size(following)
                                               or _ACTIVE.match(following))
                family, other, rest = self._family_part(part, number_follows)
                if family or other:
                    start = (p_index, family, other, rest)
                    break
            if start is not None and current is not None and current.words and (
                    current.words[-1] in self._joining):
                # "deepseek r1 distill qwen 32b": the family after "distill" is part of the
                # same name, as in DeepSeek-R1-Distill-Qwen-32B.
                for part in parts:
                    self._take_part(current, part, attached=True)
                    current.words.append(part)
                continue
            if start is not None:
                p_index, family, other, rest = start
                # Words before the family in the same token that make another model stay
                # (r1-distill-qwen-32b is no Qwen model of the table).
                if current is None or current.family != family or current.distinct:
                    before = [p for p in parts[:p_index] if p in self._distinct]
                else:
                    before = []
                if (current is not None and family and current.family == family
                        and not current.versions and current.size is None
                        and not current.distinct):
                    pass  # "Qwen Qwen2.5 72B": the bare family word is the same mention
                else:
                    current = Mention()
                    mentions.append(current)
                current.family, current.other_family = family, other
                current.distinct.extend(before)
                current.words.append(parts[p_index])
                self._take_rest(current, rest)
                for part in parts[p_index + 1:]:
                    self._take_part(current, part, attached=True)
                    current.words.append(part)
                continue
            if current is not None and all(self._model_like(p) for p in parts) and all(
                    self._take_part(current, p, attached=len(parts) > 1) for p in parts):
                current.words.extend(parts)
                continue
            if (current is not None and len(parts) == 1 and parts[0][:1].isdigit()
                    and not current.versions and current.size is None
                    and not current.distinct):
                # Right after a bare family word, a version with letters written apart is the
                # name's, as written joined: "gemma 3n" is gemma-3n, never Gemma 3 ("3n" read
                # as prose left the bare "gemma", answered with the table's Gemma-3-27B).
                self._take_part(current, parts[0], attached=True)
                current.words.append(parts[0])
                continue
            current = None
            found = self._loose(parts)
            if found:
                loose.append(self._named(unplaced, found) if unplaced else found)
                unplaced = []
            else:
                unplaced = [parts[0]] if len(parts) == 1 and self._unplaced(parts[0]) else []
        if token_tags and current is not None:
            current.quantized += token_tags[-1]
        self._place_loose(mentions, loose)
        return mentions

    def _unplaced(self, word: str) -> bool:
        """A word that may be a model's name the vocabulary does not know: letters only, not a
        word of a question's own (for, cards, lora, 训练), not one the vocabulary gives a
        meaning."""
        return (len(word) >= 3 and word.isascii() and word.isalpha()
                and word not in self._not_names)

    @staticmethod
    def _named(unplaced: list[str], found: Mention) -> Mention:
        """A bare size (or active size) with the unplaced word before it as its name."""
        if found.other_family or not (found.size or found.active):
            return found
        word, *versions = unplaced
        return Mention(other_family=word, versions={normalize_version(v) for v in versions},
                       size=found.size, active=found.active,
                       words=[word, *versions, *found.words])

    def _model_like(self, part: str) -> bool:
        return bool(normalize_size(part) or _ACTIVE.match(part) or _VERSION.match(part)
                    or part in self._table_variants or part in self._distinct
                    or part in self._quant_words
                    or part in self._suffixes or self._is_suffix_typo(part))

    def _loose(self, parts: list[str]) -> Mention | None:
        """A size standing apart from any family word ('72b'), or another model's name with a
        size ('foo-40b'); None when the token has no size at all."""
        size = next((s for p in parts if (s := normalize_size(p))), None)
        active = next((normalize_size(m.group(1) + "b") for p in parts if (m := _ACTIVE.match(p))),
                      None)
        if size is None and active is None:
            return None
        words = [m.group(1) for p in parts
                 if (m := _FAMILY_PART.match(p)) and not self._model_like(p)]
        if words:
            return Mention(other_family=words[0], words=[words[0]])
        return Mention(size=size, active=active,
                       words=[w for w in (size, f"a{active}" if active else None) if w])

    @staticmethod
    def _place_loose(mentions: list[Mention], loose: list[Mention]) -> None:
        """A bare size belongs to the first family mention that has none ('qwen2.5 for 72b')."""
        for found in loose:
            target = None if found.other_family else next(
                (m for m in mentions if m.size is None and m.family), None)
            if target is None:
                mentions.append(found)
                continue
            target.size = target.size or found.size
            target.active = target.active or found.active
            target.words.extend(found.words)
