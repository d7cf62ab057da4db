"""What a feedback button carries and what gets logged of a vote: the kind of question and the
model, never the person's words."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Literal

from mincards.bot import shallow_json
from mincards.bot.answering.answer import INTENTS, Answer

Vote = Literal["up", "down"]
# A table model's key as the table writes it, capitals and '/' too (DeepSeek-V3/R1,
# qwen3_moe-30B_A3B); nothing that Slack reads as markup (<!channel>) or a person's words.
MODEL_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/+:-]{0,79}")


@dataclass(frozen=True)
class Feedback:
    kind: str
    model: str
    vote: Vote

    def encode(self) -> str:
        return json.dumps({"k": self.kind, "m": self.model, "v": self.vote},
                          separators=(",", ":"))

    @classmethod
    def of(cls, answer: Answer, vote: Vote) -> Feedback:
        return cls(answer.intent, answer.models[0] if answer.models else "", vote)

    @classmethod
    def decode(cls, value: str) -> Feedback | None:
        """None for a value this bot did not write."""
        try:
            data = shallow_json.loads(value)
        except (TypeError, ValueError):
            return None
        if not isinstance(data, dict):
            return None
        kind, model, vote = data.get("k"), data.get("m"), data.get("v")
        if kind not in INTENTS or vote not in ("up", "down"):
            return None
        if not isinstance(model, str) or (model and not MODEL_KEY.fullmatch(model)):
            return None
        return cls(kind, model, vote)

    def log_line(self) -> str:
        """One structured line: `feedback {"kind": ..., "model": ..., "vote": ...}`."""
        return "feedback " + json.dumps({"kind": self.kind, "model": self.model,
                                         "vote": self.vote}, sort_keys=True)
