"""The answer engine: question text in, Answer out. Built once; cheap per question."""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import replace
from typing import Literal

from mincards.bot.answering.answer import Answer, Note
from mincards.bot.answering.conversation import Context, continue_question, replay
from mincards.bot.answering.followup import FollowUp
from mincards.bot.answering.known_sizes import KnownSizeFinder
from mincards.bot.answering.matching import Matcher
from mincards.bot.answering.preferences import Preferences, applied
from mincards.bot.answering.resolve import Resolver
from mincards.bot.answering.stand_in import StandInFinder
from mincards.bot.estimating.shape import Shape
from mincards.bot.facts.knowledge import Knowledge, knowledge
from mincards.bot.language import Language
from mincards.bot.reading.asked import Budget
from mincards.bot.reading.names import NameReader
from mincards.bot.reading.pasted import FENCE, pasted_config
from mincards.bot.reading.question import Question, QuestionReader

BudgetProblem = Literal["unit", "not_positive", "unread"]
_BARE_COUNT = re.compile(r"([0-9]+)")
# Answers kept for questions asked again, and the longest question kept (a pasted log is not).
MEMO_SIZE = 1024
MEMO_CHARS = 500


class Engine:
    def __init__(self, loaded: Knowledge | None = None) -> None:
        self.knowledge = known = loaded or knowledge()
        self.names = NameReader(known.vocabulary, known.catalogue)
        self.questions = QuestionReader(
            known.vocabulary, self.names, frameworks=known.framework_names,
            flavours={fl: info.display for fl, info in known.hardware.flavours.items()},
            lengths={e.seq_len for e in known.table.entries})
        self.matcher = Matcher(known.vocabulary, known.catalogue, present=known.table.models())
        self.stand_ins = StandInFinder(
            known.stand_ins, frozenset(known.table.models()),
            lambda name: self.names.read(self.questions.normalize(name)))
        self.known_sizes = KnownSizeFinder(
            known.known_models, lambda name: self.names.read(self.questions.normalize(name)))
        self.resolver = Resolver(self.knowledge, self.matcher, self.stand_ins, self.known_sizes)
        self._memo: OrderedDict[tuple[str, Context | None, Preferences | None], Answer] = \
            OrderedDict()
        self._memo_lock = threading.Lock()  # the event loop and the long-text worker ask

    def ask(self, text: str, previous: Context | None = None,
            preferences: Preferences | None = None) -> Answer:
        """Answer a question; with `previous`, as a follow-up in that conversation when it
        continues it ("and lora?", "8卡够吗", "the 72b?"); with `preferences`, narrowed to
        them where the question names no flavour or framework of its own."""
        config = None
        if FENCE in text:
            text, config = pasted_config(text)
        question = self.questions.read(text)
        if previous is not None:
            question = continue_question(question, previous, self.matcher) or question
        answer = self._narrowed(question, preferences)
        if config is not None and (answer.intent in ("not_found", "help") or not answer.models):
            # A config.json pasted for a model the table does not answer: estimated from it.
            answer = self.resolver.pasted(question, answer, config)
        return answer

    def _narrowed(self, question: Question, preferences: Preferences | None) -> Answer:
        """The question answered, narrowed by the preferences where it names nothing itself,
        saying where its filters came from."""
        question, filters = applied(question, preferences, self.knowledge.table.flavours,
                                    self.knowledge.table.framework_ids)
        answer = self.resolver.resolve(question)
        if filters.source is not None:
            answer = replace(answer, filters_from=filters.source)
        if filters.taken:
            # Said in one line, with the way to see the rest.
            answer = replace(answer, notes=(*answer.notes, Note("from_settings", {
                k: list(v) for k, v in filters.taken.items()})))
        return answer

    def with_shape(self, answer: Answer, text: str, shape: Shape) -> Answer:
        """`answer` to `text`, with the estimate for a shape read since (the Hugging Face
        Hub)."""
        return self.resolver.shaped(self.questions.read(text), answer, shape)

    def without_shape(self, answer: Answer, text: str, name: str, reason: str) -> Answer:
        """`answer` to `text`, saying why no shape could be read for `name`."""
        return self.resolver.unshaped(self.questions.read(text), answer, name, reason)

    def recall(self, text: str, previous: Context | None = None,
               preferences: Preferences | None = None) -> Answer:
        """`ask`, remembering the last MEMO_SIZE answers: the same question in the same
        conversation state with the same preferences gets the very same Answer, as an answer
        is a pure function of them and the loaded facts (the bot's hot path: people ask the
        same questions again)."""
        if len(text) > MEMO_CHARS:
            return self.ask(text, previous, preferences)
        key = (text, previous, preferences)
        try:
            with self._memo_lock:
                known = self._memo.get(key)
                if known is not None:
                    self._memo.move_to_end(key)
                    return known
        except TypeError:  # a context holding something unhashable: asked afresh
            return self.ask(text, previous, preferences)
        answer = self.ask(text, previous, preferences)
        with self._memo_lock:
            self._memo[key] = answer
            if len(self._memo) > MEMO_SIZE:
                self._memo.popitem(last=False)
        return answer

    def follow(self, follow: FollowUp, preferences: Preferences | None = None) -> Answer:
        """Answer a button: the context it holds, with the model it picks, narrowed by the
        clicker's preferences unless the button is "Show all"."""
        if follow.everything:
            preferences = None
        if follow.show == "list":
            return self.resolver.resolve(Question(text="", language=follow.language,
                                                  wants_list=True))
        if follow.context is None:
            if follow.model in self.knowledge.table.models():
                # A model picked from a menu: answered in the menu's language.
                return self.form(follow.language, follow.model or "", preferences=preferences)
            return self.ask(follow.text or follow.model or "", None, preferences)
        known = self.knowledge
        context = follow.context
        # A value written under another version of the data may name what this one does not
        # know; that narrowing is dropped, never guessed at.
        context = replace(
            context, strategies=tuple(s for s in context.strategies
                                      if s in known.vocabulary.strategies),
            frameworks=tuple(f for f in context.frameworks if f in known.framework_names),
            flavours=tuple(f for f in context.flavours if f in known.hardware.flavours))
        pick = follow.model if follow.model in known.catalogue.models else None
        return self._narrowed(replay(context, self.matcher, pick), preferences)

    def read_budget(self, text: str) -> Budget | None:
        """A budget typed on its own ("8 cards", "2台"), as a question would read it."""
        return self.questions.read(text).budget

    def budget_problem(self, text: str) -> tuple[BudgetProblem, int | None] | None:
        """Why a budget typed on its own is not one: a bare number ("unit": cards, DIE or
        nodes?, with the number), one that is not positive, or one not read at all. None when
        it reads as a budget."""
        question = self.questions.read(text)
        if question.budget is not None:
            return None
        if question.refused_budget is not None:
            return "not_positive", None
        bare = _BARE_COUNT.fullmatch(text.strip())
        if bare and len(bare.group(1)) < 7:
            return "unit", int(bare.group(1))
        return "unread", None

    def form(self, language: Language, model: str, strategies: tuple[str, ...] = (),
             seq_lens: tuple[int, ...] = (), budget: Budget | None = None,
             preferences: Preferences | None = None) -> Answer:
        """A question asked by its parts (the modal): a model key and optional narrowing."""
        if model not in self.knowledge.table.models():
            return self.ask(model, None, preferences)
        return self.follow(FollowUp(language=language, context=Context(
            kind="lookup", language=language, models=(model,), strategies=strategies,
            seq_lens=seq_lens, budget=budget)), preferences)

