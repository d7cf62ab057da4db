"""The words every rendering shares: counts with their units, headings, joined lists."""

from __future__ import annotations

from mincards.bot.answering.answer import Answer
from mincards.bot.facts.hardware import Hardware
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.facts.table import Entry
from mincards.bot.language import Language
from mincards.bot.replies.i18n import t


def plural(language: Language, n: int, one: str, many: str) -> str:
    return t(language, one if n == 1 else many)


def count_text(hw: Hardware, language: Language, flavour: str, count: int | None) -> str:
    """'16 cards, 2 nodes' or '16 DIE (8 cards), 1 node'; 'not supported' for None."""
    if count is None:
        return t(language, "not_supported")
    info = hw.flavours[flavour]
    nodes = info.nodes(count)
    if info.die_per_card:
        cards = info.cards(count)
        amount = t(language, "die_cards", die=count, cards=cards,
                   cards_word=plural(language, cards, "card", "cards"))
    else:
        amount = t(language, "card_count", n=count,
                   word=plural(language, count, "card", "cards"))
    return t(language, "count_nodes", count=amount, nodes=nodes,
             nodes_word=plural(language, nodes, "node", "nodes"))


def join_words(language: Language, items: list[str], last: str = "and") -> str:
    """'A', 'A and B', 'A, B and C' (in Chinese with 、 and 和)."""
    if len(items) <= 1:
        return "".join(items)
    return t(language, "list_sep").join(items[:-1]) + t(language, last) + items[-1]


def entry_heading(knowledge: Knowledge, language: Language, entry: Entry) -> str:
    """'LoRA · 8K': an entry as every part of a reply names it (the table's rows, the lead,
    the verdicts), short enough for a phone."""
    return f"{knowledge.strategy_label(entry.strategy, language)} · {seq_short(entry.seq_len)}"


def flavour_units(knowledge: Knowledge, language: Language) -> str:
    """'Snt9B (cards) and Snt9B23 (DIE)': the table's flavours and what each counts."""
    hw = knowledge.hardware
    return join_words(language, [
        t(language, "flavour_unit", flavour=hw.flavours[fl].display,
          unit=t(language, "cards") if hw.flavours[fl].unit == "card" else hw.flavours[fl].unit)
        for fl in knowledge.table.flavours])


def framework_list(knowledge: Knowledge, language: Language, ids: list[str],
                   last: str = "and") -> str:
    return join_words(language, [knowledge.framework_names.get(f, f) for f in ids], last)


def amount(knowledge: Knowledge, language: Language, flavour: str, count: int) -> str:
    """'16 cards' or '16 DIE': a count in the flavour's own unit, nothing more."""
    info = knowledge.hardware.flavours[flavour]
    if info.die_per_card:
        return f"{count} {info.unit}"
    return t(language, "card_count", n=count, word=plural(language, count, "card", "cards"))


def seq_short(seq_len: int) -> str:
    """8192 -> '8K', as people say lengths; a length that is not whole K stays as it is."""
    return f"{seq_len // 1024}K" if seq_len >= 1024 and seq_len % 1024 == 0 else str(seq_len)


def asked_name(answer: Answer) -> str:
    """The name the person asked about, quoted, as the table would write it; '' for none."""
    name = answer.asked_display or answer.asked
    return f"\u201c{name}\u201d" if name else ""


def asked_columns(knowledge: Knowledge, answer: Answer) -> list[tuple[str, str]]:
    """The (framework, flavour) columns the question narrowed to; [] when it named none."""
    table = knowledge.table
    frameworks = [f for f in answer.frameworks if table.framework(f)]
    flavours = [f for f in answer.flavours if f in table.flavours]
    if not frameworks and not flavours:
        return []
    return [(fw, fl) for fw in frameworks or table.framework_ids
            for fl in flavours or table.flavours]


def help_intro(language: Language, no_model: bool = False) -> str:
    """The first sentence of help: what to ask; after a question without a model, why."""
    intro = t(language, "help.intro")
    if no_model:
        return t(language, "note.no_model") + t(language, "sentence_sep") + intro
    return intro
