"""What a person (or their workspace) wants every reply narrowed to: the flavours they have,
the frameworks they use, the reply's language and length. Applied to a question that does not
name its own: a question naming a flavour or framework overrides the setting for that question.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from mincards.bot.reading.question import Question

LanguageChoice = Literal["auto", "en", "zh"]
Length = Literal["full", "short"]
LANGUAGES: tuple[LanguageChoice, ...] = ("auto", "en", "zh")
LENGTHS: tuple[Length, ...] = ("full", "short")


@dataclass(frozen=True)
class Preferences:
    flavours: tuple[str, ...] = ()      # flavour ids; () for every flavour
    frameworks: tuple[str, ...] = ()    # framework ids; () for every framework
    language: LanguageChoice = "auto"   # auto: the question's (or Slack's locale)
    length: Length = "full"

    def over(self, default: Preferences) -> Preferences:
        """These preferences, each unset one taken from `default` (a person's over their
        workspace's)."""
        return Preferences(flavours=self.flavours or default.flavours,
                           frameworks=self.frameworks or default.frameworks,
                           language=self.language if self.language != "auto" else
                           default.language,
                           length=self.length if self.length != "full" else default.length)

    @property
    def narrows(self) -> bool:
        return bool(self.flavours or self.frameworks)


NONE = Preferences()


def applied(question: Question, preferences: Preferences | None, flavours: tuple[str, ...],
            frameworks: tuple[str, ...]) -> tuple[Question, Applied]:
    """(the question narrowed by the preferences where it names nothing itself, where its
    filters came from). Preferences naming flavours or frameworks the loaded table lacks are
    ignored for those; a budget on a named flavour keeps its flavour."""
    named = bool(question.flavours or question.frameworks or (
        question.budget is not None and question.budget.flavour))
    if preferences is None:
        return question, Applied("question" if named else None, {})
    language = preferences.language
    if language in ("en", "zh"):
        question = replace(question, language=language)
    wanted_flavours = {f for f in preferences.flavours if f in flavours}
    wanted_frameworks = {f for f in preferences.frameworks if f in frameworks}
    taken: dict[str, tuple[str, ...]] = {}
    if wanted_flavours and not question.flavours and not (
            question.budget is not None and question.budget.flavour):
        question = replace(question, flavours=wanted_flavours)
        taken["flavours"] = tuple(f for f in flavours if f in wanted_flavours)
    if wanted_frameworks and not question.frameworks:
        question = replace(question, frameworks=wanted_frameworks)
        taken["frameworks"] = tuple(f for f in frameworks if f in wanted_frameworks)
    return question, Applied("settings" if taken else "question" if named else None, taken)


@dataclass(frozen=True)
class Applied:
    """Where a question's filters came from, and which the preferences supplied."""

    source: str | None  # "settings", "question" or None
    taken: dict[str, tuple[str, ...]]
