"""Each DM and each thread the bot answers in is a conversation: a follow-up continues it.

Keyed by workspace, channel and thread (a DM's top level is one conversation). What is kept is
the parsed question (bot.conversation.Context), never the person's text.
"""

from __future__ import annotations

from slack_bolt import BoltContext

from bot.answer import Answer
from bot.conversation import ContextStore, MemoryContexts, context_after
from bot.engine import Engine
from bot.followup import FollowUp


def conversation_key(context: BoltContext, channel: str, thread: str | None) -> str:
    workspace = context.team_id or context.enterprise_id or ""
    return f"{workspace}:{channel}:{thread or ''}"


class Conversations:
    def __init__(self, engine: Engine, store: ContextStore | None = None) -> None:
        self.engine = engine
        self.store = store or MemoryContexts()

    def ask(self, key: str, question: str) -> Answer:
        """Answer in this conversation, and remember what was asked for the next question."""
        previous = self.store.get(key)
        answer = self.engine.ask(question, previous)
        self.store.put(key, context_after(answer, previous))
        return answer

    def follow(self, key: str | None, follow: FollowUp) -> Answer:
        """Answer a button; a button in a DM or thread moves that conversation on."""
        answer = self.engine.follow(follow)
        if key is not None:
            self.store.put(key, context_after(answer, self.store.get(key)))
        return answer
