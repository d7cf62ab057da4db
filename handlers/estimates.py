"""The estimate for a model the table and the known-models data lack, named by its Hugging Face
id or link: its shape fetched from the Hub after Slack has been acknowledged, off the event loop
(a thread), bounded by the Hub fetch's deadline; a failure is one remark in the reply."""

from __future__ import annotations

import asyncio

from mincards.bot.answering.answer import Answer
from mincards.bot.answering.engine import Engine
from mincards.bot.answering.estimated import wants_shape
from mincards.handlers.hub import HubError, hub_shape, repo_id

# The words of a question looked at for a Hub id (a question is short; a pasted log is not
# searched end to end).
MAX_WORDS = 200


def hub_repo(text: str) -> str | None:
    """The first word of the question that names a model on the Hub."""
    for word in text.split()[:MAX_WORDS]:
        repo = repo_id(word.strip(".,;:!?()[]{}\"'“”「」（），。？！"))
        if repo is not None:
            return repo
    return None


async def with_hub_estimate(engine: Engine, answer: Answer, text: str) -> Answer:
    """`answer`, with the estimate from the Hub when it asks about a Hub model the table does
    not answer; else as it was."""
    if not wants_shape(answer):
        return answer
    repo = hub_repo(text)
    if repo is None:
        return answer
    try:
        shape = await asyncio.to_thread(hub_shape, repo)
    except HubError as exc:
        return engine.without_shape(answer, text, repo, str(exc))
    # Reading and resolving again is the work of any answer (well under a millisecond): in
    # place, as answers are (handlers/answering.py).
    return engine.with_shape(answer, text, shape)
