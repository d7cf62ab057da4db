"""Which of an answer's notes change a plan, which only inform, and which is the footer.

A warning changes what someone would book: a likely error in the source, an upper bound, a
count below a full node or below the parallel unit, a model or length assumed. It is said once,
in words, in its own section. The "reference only" remark is the footer's.
"""

from __future__ import annotations

from dataclasses import dataclass

from mincards.bot.answering.answer import Answer
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.replies.lead import lead_caveats
from mincards.bot.replies.note_text import note_text

FOOTER = frozenset({"reference"})
# Remarks that explain an answer without changing the plan it gives.
INFO = frozenset({"one_entry_two_models", "not_in_version", "other_family", "table_has",
                  "no_model", "not_in_table", "plan_offer", "no_estimate",
                  "from_settings"})


@dataclass(frozen=True)
class Notes:
    warnings: tuple[str, ...]
    info: tuple[str, ...]


def _unique(sentences: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(s for s in sentences if s))


def split_notes(knowledge: Knowledge, answer: Answer, skip: frozenset[str] = frozenset()
                ) -> Notes:
    """The answer's notes as sentences, each said once; `skip` leaves out kinds said elsewhere."""
    lang = answer.language
    said = lead_caveats(knowledge, answer)
    shown = [n for n in answer.notes if n.kind not in skip and n not in said]
    return Notes(
        warnings=_unique([note_text(knowledge, lang, n) for n in shown
                          if n.kind not in FOOTER | INFO]),
        info=_unique([note_text(knowledge, lang, n) for n in shown if n.kind in INFO]))
