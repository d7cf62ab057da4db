"""The estimate for a model the table and the known-models data lack, named by its Hugging Face
id or link: its shape fetched from the Hub after Slack has been acknowledged, off the event loop
(a thread), bounded by the Hub fetch's deadline; a failure is one remark in the reply."""

from __future__ import annotations

import re
from dataclasses import dataclass

from mincards.bot.answering.answer import Answer
from mincards.bot.answering.engine import Engine
from mincards.bot.answering.estimated import wants_shape
from mincards.bot.estimating.shape import Shape
from mincards.handlers.hub import HubError, hub_shape, repo_id
from mincards.handlers.hub_lookups import lookups
from mincards.handlers.hub_search import name_query, searched_shape

# How much of a question is looked at for a Hub id (a question is short; a pasted log is not
# searched end to end).
MAX_CHARS = 2_000
# A Hub link, or ORG/NAME in Hub characters: one pass, no backtracking to speak of.
_CANDIDATE = re.compile(r"(?P<link>(?:https?://)?(?:huggingface\.co|hf\.co)/[^\s<>|]+)"
                        r"|[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*")


def hub_repo(text: str) -> str | None:
    """The first thing in the question that names a model on the Hub: a Hub link, or an
    ORG/NAME whose org has letters and whose name has a digit (a size or a version, as model
    names do), so that `full/lora` or `4k/8k` is never looked up."""
    for found in _CANDIDATE.finditer(text[:MAX_CHARS]):
        word = found.group().rstrip(".,;:!?")
        repo = repo_id(word)
        if repo is None:
            continue
        if found.group("link"):
            return repo
        org, name = repo.split("/")
        if any(ch.isdigit() for ch in name) and sum(ch.isalpha() for ch in org) >= 2:
            return repo
    return None


@dataclass(frozen=True)
class HubAsk:
    """What to ask the Hub for an answer: a model's id, or a name to search for."""

    name: str
    search: bool = False


def hub_repo_asked(answer: Answer, text: str, not_names: frozenset[str] = frozenset()
                   ) -> HubAsk | None:
    """What to read from the Hub for this answer, when the table and the known-models data do
    not answer it: the Hub id the question names, else the unknown name it asks about, to be
    searched for (a bare size, a typo of nothing, a help question: nothing)."""
    if not wants_shape(answer):
        return None
    repo = hub_repo(text)
    if repo is not None:
        return HubAsk(repo)
    if answer.intent != "not_found" or not answer.asked:
        return None
    query = name_query(text, answer.asked, not_names)
    return HubAsk(query, search=True) if query else None


def fetched(ask: HubAsk) -> Shape | HubError:
    """The Hub's shape for what is asked, or why there is none (blocking: the Hub's
    deadline, once for a search and once for the config it finds)."""
    try:
        return searched_shape(ask.name) if ask.search else hub_shape(ask.name)
    except HubError as exc:
        return exc


def answered_with(engine: Engine, answer: Answer, text: str, repo: str,
                  found: Shape | HubError) -> Answer:
    """`answer` with the estimate for the shape found for `repo`, or the remark why none."""
    if isinstance(found, HubError):
        return engine.without_shape(answer, text, repo, str(found))
    return engine.with_shape(answer, text, found)


async def with_hub_estimate(engine: Engine, answer: Answer, text: str) -> Answer:
    """`answer`, with the estimate from the Hub when it asks about a model the table does not
    answer (by its id, or by a name the Hub's search finds); else as it was. The fetch runs on
    a thread; reading and resolving again is the work of any answer (well under a
    millisecond), in place as answers are."""
    ask = hub_repo_asked(answer, text, engine.knowledge.vocabulary.not_name_words())
    if ask is None:
        return answer
    found: Shape | HubError = await lookups().look_up(ask, fetched)
    return answered_with(engine, answer, text, ask.name, found)
