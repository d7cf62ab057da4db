"""What the assistant pane suggests when a thread starts: a few questions made from the loaded
table (its largest LoRA entry, two sizes of one family, what fits one node of the person's
flavour, a full-parameter plan), in the person's language. Never a model the table lacks."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from mincards.bot.facts.catalogue import ModelInfo
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.language import Language
from mincards.bot.replies.blocks import section
from mincards.bot.replies.i18n import t
from mincards.bot.replies.render_words import amount, seq_short
from mincards.bot.replies.slack_limits import limits
from mincards.bot.replies.slack_text import escape

MAX_PROMPTS = 4  # Slack shows up to four suggested prompts
_SIZE = re.compile(r"([0-9]+(?:\.[0-9]+)?)b")


@dataclass(frozen=True)
class Prompt:
    title: str    # what the button says
    message: str  # what is sent as the person's message when clicked

    def json(self) -> dict[str, str]:
        return {"title": self.title, "message": self.message}


def _billions(info: ModelInfo) -> float:
    if info.params_b is not None:
        return info.params_b
    found = _SIZE.search(info.size or "")
    return float(found.group(1)) if found else 0.0


def greeting(knowledge: Knowledge, language: Language) -> dict[str, Any]:
    """The message a new assistant thread opens with: what to ask, and the table's date."""
    text = t(language, "assistant.greeting", date=knowledge.table.source.date_text())
    return {"text": text, "blocks": [section(escape(text), limits())]}


def suggested_prompts(knowledge: Knowledge, language: Language,
                      flavour: str | None = None) -> tuple[Prompt, ...]:
    """Up to MAX_PROMPTS prompts, each answered from the table; `flavour`: the person's own
    (their settings), else the table's first."""
    table, cat = knowledge.table, knowledge.catalogue
    text = [m for m in table.models() if cat[m].kind == "text"]
    prompts: list[Prompt] = []
    lora = [e for e in table.entries if e.model in text and e.strategy == "lora"]
    if lora:
        big = max(lora, key=lambda e: (_billions(cat[e.model]), -e.seq_len))
        name = cat[big.model].display
        prompts.append(Prompt(t(language, "assistant.prompt.lookup.title", model=name),
                              t(language, "assistant.prompt.lookup", model=name,
                                seq=seq_short(big.seq_len))))
        # The next size down of the same family and version: the choice people weigh.
        same = cat[big.model]
        smaller = sorted((m for m in text if cat[m].family == same.family
                          and cat[m].versions == same.versions
                          and _billions(cat[m]) < _billions(same)), key=lambda m: _billions(cat[m]))
        if smaller:
            other = cat[smaller[-1]].display
            prompts.append(Prompt(t(language, "assistant.prompt.compare.title"),
                                  t(language, "assistant.prompt.compare", a=other, b=name)))
    flavours = table.flavours
    chosen = flavour if flavour in flavours else (flavours[0] if flavours else None)
    if chosen is not None:
        info = knowledge.hardware.flavours[chosen]  # one node's worth
        prompts.append(Prompt(t(language, "assistant.prompt.fits.title", flavour=info.display),
                              t(language, "assistant.prompt.fits", flavour=info.display,
                                amount=amount(knowledge, language, chosen, info.per_node))))
    full = [e for e in table.entries if e.model in text and e.strategy == "full"]
    if full:
        ordered = sorted({e.model for e in full}, key=lambda m: _billions(cat[m]))
        mid = cat[ordered[len(ordered) * 2 // 3]].display
        prompts.append(Prompt(t(language, "assistant.prompt.plan.title", model=mid),
                              t(language, "assistant.prompt.plan", model=mid)))
    return tuple(prompts[:MAX_PROMPTS])
