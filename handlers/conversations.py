"""Each DM and each thread the bot answers in is a conversation: a follow-up continues it.

Keyed by workspace, channel and thread (a DM's top level is one conversation). What is kept is
the parsed question (bot.conversation.Context), never the person's text, in the bot's State.
"""

from __future__ import annotations

from slack_bolt.context.async_context import AsyncBoltContext

from mincards.bot.answering.answer import Answer
from mincards.bot.answering.conversation import context_after
from mincards.bot.answering.engine import Engine
from mincards.bot.answering.followup import FollowUp
from mincards.bot.answering.preferences import Preferences
from mincards.handlers.answering import Answering
from mincards.handlers.state import State


def conversation_key(context: AsyncBoltContext, channel: str, thread: str | None) -> str:
    workspace = context.team_id or context.enterprise_id or ""
    return f"{workspace}:{channel}:{thread or ''}"


class Conversations:
    def __init__(self, engine: Engine, state: State, answering: Answering) -> None:
        self.engine = engine
        self.state = state
        self.answering = answering

    async def ask(self, key: str, question: str,
                  preferences: Preferences | None = None, also: str | None = None) -> Answer:
        """Answer in this conversation (narrowed by the asker's preferences), and remember what
        was asked for the next question, here and in `also` (the thread an answer opens)."""
        previous = await self.state.context(key)
        answer = await self.answering.answer(
            lambda: self.engine.recall(question, previous, preferences), question)
        after = context_after(answer, previous)
        await self.state.remember(key, after)
        if also is not None and also != key:
            await self.state.remember(also, after)
        return answer

    async def follow(self, key: str | None, follow: FollowUp,
                     preferences: Preferences | None = None) -> Answer:
        """Answer a button (narrowed by the clicker's preferences); a button in a DM or thread
        moves that conversation on."""
        answer = await self.answering.answer(lambda: self.engine.follow(follow, preferences),
                                             follow.text or "")
        if key is not None:
            await self.state.remember(key, context_after(answer, await self.state.context(key)))
        return answer
