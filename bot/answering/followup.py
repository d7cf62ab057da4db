"""What a button asks when clicked: the conversation's context, maybe with a model picked.

Encoded compactly into a Block Kit button value (at most 2000 characters). It holds the parsed
question (models, strategy, lengths, filters, budget), and the question's text only when there
is nothing parsed to hold (help), cut to MAX_TEXT.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

from mincards.bot import shallow_json
from mincards.bot.answering.answer import Answer
from mincards.bot.answering.conversation import Context, context_after, context_of
from mincards.bot.language import LANGUAGES, Language

# Kept short: a question is re-read from this much of its text, enough for any real question.
MAX_TEXT = 1000
# Slack's limit on a button's value.
MAX_VALUE = 2000


@dataclass(frozen=True)
class FollowUp:
    language: Language
    model: str | None = None  # the model a choice button picks
    text: str | None = None
    context: Context | None = None
    page: int = 0  # where a long answer (what fits a budget) goes on from
    show: Literal["list"] | None = None  # an answer that needs no question: the model list
    # "Show all": the asker's settings (flavours, frameworks) are not applied to this one.
    everything: bool = False

    @property
    def strategies(self) -> tuple[str, ...]:
        return self.context.strategies if self.context else ()

    @property
    def seq_lens(self) -> tuple[int, ...]:
        return self.context.seq_lens if self.context else ()

    @property
    def frameworks(self) -> tuple[str, ...]:
        return self.context.frameworks if self.context else ()

    @classmethod
    def pick(cls, answer: Answer, model: str) -> FollowUp:
        """A choice button: this model, with everything else the question asked."""
        return cls(language=answer.language, model=model, context=context_of(answer))

    @classmethod
    def same(cls, answer: Answer, question: str) -> FollowUp:
        """Ask the same again (the 'post to channel' button)."""
        context = context_after(answer, None)
        if context is not None and answer.intent != "ambiguous":
            return cls(language=answer.language, context=context)
        return cls(language=answer.language, text=question[:MAX_TEXT])

    @classmethod
    def show_all(cls, answer: Answer) -> FollowUp | None:
        """The same question with nothing narrowed by the asker's settings; None when the
        settings narrowed nothing or the answer holds no question to ask again."""
        if answer.note("from_settings") is None or answer.intent == "ambiguous":
            return None
        context = context_after(answer, None)
        if context is None:
            return None
        return cls(language=answer.language, context=context, everything=True)

    def encode(self, limit: int = MAX_VALUE) -> str:
        """The button value: JSON within `limit` characters, the question's text shortened
        (never cut mid-JSON) when the whole would not fit."""
        data: dict[str, object] = {"l": self.language}
        if self.model:
            data["m"] = self.model
        if self.context:
            data["c"] = {k: v for k, v in self.context.json().items() if v and k != "language"
                         # A picked model answers "which one?" or opens one model of a list:
                         # the name asked about and the list go.
                         and not (k in ("pending", "models") and self.model)}
        if self.page:
            data["p"] = self.page
        if self.show:
            data["w"] = self.show
        if self.everything:
            data["a"] = 1
        value = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        text = self.text or ""
        while text:
            # Escapes (quotes, control characters) can make a character take up to six.
            candidate = json.dumps({**data, "t": text}, ensure_ascii=False,
                                   separators=(",", ":"))
            if len(candidate) <= limit:
                return candidate
            text = text[: max(0, min(len(text) - 1, len(text) * limit // len(candidate)))]
        return value

    @classmethod
    def decode(cls, value: str) -> FollowUp | None:
        """None for anything that is not a value we wrote (a forged or stale button)."""
        try:
            data = shallow_json.loads(value)
        except (TypeError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("l") not in LANGUAGES:
            return None
        model, text = data.get("m"), data.get("t")
        raw = data.get("c")
        if isinstance(raw, dict):
            context = Context.from_json({"language": data["l"], **raw})
        elif any(k in data for k in ("s", "q", "f", "h")):
            # The first format (buttons already in people's channels) held the narrowing alone.
            context = Context.from_json({
                "kind": "ambiguous", "language": data["l"], "strategies": data.get("s"),
                "seq_lens": data.get("q"), "frameworks": data.get("f"),
                "flavours": data.get("h")})
        else:
            context = None
        page = data.get("p")
        show: Literal["list"] | None = "list" if data.get("w") == "list" else None
        if not (isinstance(model, str) or isinstance(text, str) or context or show):
            return None
        return cls(language=data["l"], model=model[:80] if isinstance(model, str) else None,
                   text=text[:MAX_TEXT] if isinstance(text, str) else None, context=context,
                   page=page if type(page) is int and 0 < page < 10_000 else 0, show=show,
                   everything=data.get("a") == 1)
