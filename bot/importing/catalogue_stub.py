"""Catalogue entries for table models the catalogue does not have yet, read from their names.

So that a new version of the page is one `mincards import-table`: its new models are parsed
(qwen3-72b -> family qwen, version 3, size 72b) and written to data/models.toml for review.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from mincards.bot.facts.vocabulary import Vocabulary
from mincards.bot.reading.names import NameReader, display_name, kind_of
from mincards.bot.reading.question import QuestionReader


def stub(vocabulary: Vocabulary, questions: QuestionReader, key: str) -> str | None:
    """A [models."KEY"] section in TOML, or None when the name does not parse as a known family."""
    mentions = [m for m in questions.names.read(questions.normalize(key)) if m.named]
    if len(mentions) != 1:
        return None
    mention = mentions[0]
    if not mention.family or not mention.size or mention.distinct:
        return None
    lines = [f"[models.{json.dumps(key)}]",
             "# Written by `mincards import-table` from the table's name: check it, add aliases.",
             f"display = {json.dumps(display_name(vocabulary, mention))}",
             f"family = {json.dumps(mention.family)}",
             f"versions = {json.dumps(sorted(mention.versions))}"]
    variants = sorted(mention.variants)
    if variants:
        lines.append(f"variant = {json.dumps(variants[0])}")
    lines.append(f"size = {json.dumps(mention.size)}")
    lines.append(f"kind = {json.dumps(kind_of(vocabulary, mention))}")
    if mention.active:
        lines.append(f"active = {json.dumps(mention.active)}")
    lines.append("aliases = []")
    return "\n".join(lines) + "\n"


def stubs(vocabulary: Vocabulary, catalogue_keys: Iterable[str], table_models: Iterable[str]
          ) -> tuple[list[str], list[str]]:
    """(TOML sections for new models that parse, names of new models that do not)."""
    from mincards.bot.facts.catalogue import Catalogue

    known = set(catalogue_keys)
    questions = QuestionReader(vocabulary, NameReader(vocabulary, Catalogue()))
    written, unknown = [], []
    for key in table_models:
        if key in known:
            continue
        section = stub(vocabulary, questions, key)
        if section is None:
            unknown.append(key)
        else:
            written.append(section)
    return written, unknown
