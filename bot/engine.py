"""The answer engine: question text in, Answer out. Built once; cheap per question."""

from __future__ import annotations

from bot.answer import Answer
from bot.followup import FollowUp
from bot.knowledge import Knowledge, knowledge
from bot.matching import Matcher
from bot.names import Mention, NameReader
from bot.question import Question, QuestionReader
from bot.resolve import Resolver


class Engine:
    def __init__(self, known: Knowledge | None = None) -> None:
        self.knowledge = known or knowledge()
        self.names = NameReader(self.knowledge.vocabulary, self.knowledge.catalogue)
        self.questions = QuestionReader(self.knowledge.vocabulary, self.names)
        self.matcher = Matcher(self.knowledge.vocabulary, self.knowledge.catalogue)
        self.resolver = Resolver(self.knowledge, self.matcher)

    def ask(self, text: str) -> Answer:
        return self.resolver.resolve(self.questions.read(text))

    def follow(self, follow: FollowUp) -> Answer:
        """Answer a button's follow-up: a named table model with the original narrowing."""
        if follow.model is None or follow.model not in self.knowledge.catalogue.models:
            return self.ask(follow.text or "")
        question = Question(text=follow.model, language=follow.language,
                            mentions=[Mention.naming(self.knowledge.catalogue[follow.model])],
                            strategies=set(follow.strategies), seq_lens=list(follow.seq_lens),
                            frameworks=set(follow.frameworks), flavours=set(follow.flavours))
        return self.resolver.resolve(question)
