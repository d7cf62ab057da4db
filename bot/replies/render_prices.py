"""What a reply says to a question about cost: the table has no prices; for the hours said, the
card-hours at the fewest cards the reply gives, per flavour (DIE-hours and card-hours on a
flavour counted in DIE), so the asker can multiply by their own price."""

from __future__ import annotations

from mincards.bot.answering.answer import Note
from mincards.bot.answering.budget import needed
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.language import Language
from mincards.bot.replies.i18n import t
from mincards.bot.replies.render_words import amount, join_words


def _number(value: float) -> str:
    return f"{value:,.0f}" if value == int(value) else f"{value:,.1f}"


def price_sentence(knowledge: Knowledge, language: Language, note: Note,
                   fewest: list[tuple[str, int]]) -> str:
    """`fewest`: (flavour, count) the reply leads with, as the table gives them."""
    hours = note.args.get("hours")
    if not isinstance(hours, int | float) or not fewest:
        return t(language, "price.none")
    parts = []
    for flavour, count in fewest:
        info = knowledge.hardware.flavours[flavour]
        used = needed(count, info)  # a 1-DIE entry still takes the 2-DIE unit
        total = used * hours
        args = {"amount": amount(knowledge, language, flavour, used), "hours": _number(hours),
                "total": _number(total), "flavour": knowledge.flavour_display(flavour)}
        if info.die_per_card:
            parts.append(t(language, "price.die_hours", **args,
                           cards=_number(total / info.die_per_card)))
        else:
            parts.append(t(language, "price.card_hours", **args))
    return t(language, "price.hours", parts=join_words(language, parts))
