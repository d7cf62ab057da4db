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
    def __init__(self, loaded: Knowledge | None = None) -> None:
        self.knowledge = known = loaded or knowledge()
        self.names = NameReader(known.vocabulary, known.catalogue)
        self.questions = QuestionReader(
            known.vocabulary, self.names, frameworks=known.framework_names,
            flavours={fl: info.display for fl, info in known.hardware.flavours.items()},
            lengths={e.seq_len for e in known.table.entries})
        self.matcher = Matcher(known.vocabulary, known.catalogue, present=known.table.models())
        self.resolver = Resolver(self.knowledge, self.matcher)

    def ask(self, text: str) -> Answer:
        return self.resolver.resolve(self.questions.read(text))

    def follow(self, follow: FollowUp) -> Answer:
        """Answer a button's follow-up: a named table model with the original narrowing."""
        if follow.model is None or follow.model not in self.knowledge.catalogue.models:
            return self.ask(follow.text or "")
        known = self.knowledge
        # A value written by this bot under another version of the data may name what this
        # one does not know; that narrowing is dropped, never guessed at.
        question = Question(
            text=follow.model, language=follow.language,
            mentions=[Mention.naming(known.catalogue[follow.model])],
            strategies={s for s in follow.strategies if s in known.vocabulary.strategies},
            seq_lens=list(follow.seq_lens),
            frameworks={f for f in follow.frameworks if f in known.framework_names},
            flavours={f for f in follow.flavours if f in known.hardware.flavours})
        return self.resolver.resolve(question)
