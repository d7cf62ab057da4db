"""The answer engine: question text in, Answer out. Built once; cheap per question."""

from __future__ import annotations

from bot.answer import Answer
from bot.knowledge import Knowledge, knowledge
from bot.names import NameReader
from bot.question import QuestionReader
from bot.resolve import Resolver


class Engine:
    def __init__(self, known: Knowledge | None = None) -> None:
        self.knowledge = known or knowledge()
        self.names = NameReader(self.knowledge.vocabulary, self.knowledge.catalogue)
        self.questions = QuestionReader(self.knowledge.vocabulary, self.names)
        self.resolver = Resolver(self.knowledge, self.names)

    def ask(self, text: str) -> Answer:
        return self.resolver.resolve(self.questions.read(text))
