"""Answers as plain text, for the command line and for Slack's notification fallback."""

from __future__ import annotations

from bot.answer import Answer, Note
from bot.hardware import Hardware
from bot.i18n import t
from bot.knowledge import Knowledge
from bot.question import Language
from bot.table import FLAVOURS, FRAMEWORKS, Counts, Entry, Flavour, Framework


def _plural(language: Language, n: int, one: str, many: str) -> str:
    return t(language, one if n == 1 else many)


def count_text(hw: Hardware, language: Language, flavour: Flavour, count: int | None) -> str:
    """'16 cards, 2 nodes' or '16 DIE (8 cards), 1 node'; 'not supported' for None."""
    if count is None:
        return t(language, "not_supported")
    info = hw.flavours[flavour]
    nodes = info.nodes(count)
    if info.die_per_card:
        cards = info.cards(count)
        amount = t(language, "die_cards", die=count, cards=cards,
                   cards_word=_plural(language, cards, "card", "cards"))
    else:
        amount = f"{count} {_plural(language, count, 'card', 'cards')}"
    return t(language, "count_nodes", count=amount, nodes=nodes,
             nodes_word=_plural(language, nodes, "node", "nodes"))


def framework_line(hw: Hardware, language: Language, framework: Framework, counts: Counts) -> str:
    if not counts.supported:
        return f"{hw.frameworks[framework].display}: {t(language, 'not_supported')}"
    cells = [f"{hw.flavours[fl].display} {count_text(hw, language, fl, getattr(counts, fl))}"
             for fl in FLAVOURS]
    return f"{hw.frameworks[framework].display}: " + " | ".join(cells)


def entry_heading(language: Language, entry: Entry) -> str:
    return (f"{t(language, 'strategy.' + entry.strategy)} · "
            f"{t(language, 'seq', seq_len=entry.seq_len)}")


def _strategy_words(language: Language, strategies: list[str]) -> str:
    return "/".join(t(language, f"strategy.{s}") for s in strategies)


def note_text(knowledge: Knowledge, language: Language, note: Note) -> str:
    """One note as a sentence; '' for notes that only carry data."""
    args = dict(note.args)
    catalogue = knowledge.catalogue
    if "model" in args:
        args["model"] = catalogue[args["model"]].display
    if "strategy" in args:
        args["strategy"] = t(language, f"strategy.{args['strategy']}")
    if note.kind == "strategy_not_listed":
        args["strategies"] = _strategy_words(language, args["strategies"])
    if note.kind == "assumed":
        args["what"] = t(language, "what.join").join(t(language, f"what.{w}") for w in args["what"])
    if note.kind == "table_has":
        args["has"] = "; ".join(
            f"{t(language, 'strategy.' + s)} @ {', '.join(str(n) for n in seqs)}"
            for s, seqs in args["has"])
    if note.kind == "other_mentions":
        args["names"] = ", ".join(args["names"])
    return t(language, f"note.{note.kind}", **args)


def _asked_cells(knowledge: Knowledge, answer: Answer, entry: Entry) -> list[str]:
    hw = knowledge.hardware
    frameworks = answer.frameworks or FRAMEWORKS
    flavours = answer.flavours or FLAVOURS
    return [f"{hw.frameworks[fw].display} · {hw.flavours[fl].display}: "
            f"{count_text(hw, answer.language, fl, getattr(entry.counts(fw), fl))}"
            for fw in frameworks for fl in flavours]


def _notes_block(knowledge: Knowledge, answer: Answer) -> list[str]:
    sentences = [s for n in answer.notes if (s := note_text(knowledge, answer.language, n))]
    if not sentences:
        return []
    return [t(answer.language, "notes"), *[f"- {s}" for s in sentences]]


def render_text(knowledge: Knowledge, answer: Answer) -> str:
    lang = answer.language
    hw = knowledge.hardware
    cat = knowledge.catalogue
    lines: list[str] = []
    if answer.intent == "lookup":
        info = cat[answer.models[0]]
        lines.append(f"{t(lang, 'lookup.title', model=info.display)} "
                     f"{t(lang, 'table_name', key=info.key)}")
        for entry in answer.rows:
            lines.append("")
            lines.append(entry_heading(lang, entry))
            if answer.frameworks or answer.flavours:
                lines += [f"  > {cell}" for cell in _asked_cells(knowledge, answer, entry)]
            lines += [f"  {framework_line(hw, lang, fw, entry.counts(fw))}" for fw in FRAMEWORKS]
    elif answer.intent == "ambiguous":
        lines.append(t(lang, "ambiguous", asked=f"\u201c{answer.asked}\u201d") if answer.asked
                     else t(lang, "ambiguous.plain"))
        lines += [f"- {cat[c].display} ({c})" for c in answer.candidates]
    elif answer.intent == "not_found":
        lines.append(t(lang, "not_found", asked=f"\u201c{answer.asked}\u201d") if answer.asked
                     else t(lang, "not_found.plain"))
        if answer.candidates:
            lines.append(t(lang, "suggest"))
            lines += [f"- {cat[c].display} ({c})" for c in answer.candidates]
    elif answer.intent == "not_covered":
        lines.append(t(lang, "not_covered", model=cat[answer.models[0]].display))
    elif answer.intent == "list":
        lines.append(t(lang, "list.title", count=len(answer.models)))
        by_family: dict[str, list[str]] = {}
        for key in answer.models:
            by_family.setdefault(cat[key].family, []).append(cat[key].display)
        for family, names in by_family.items():
            display = knowledge.vocabulary.families[family].display
            lines.append("- " + t(lang, "list.family", family=display, models=", ".join(names)))
    else:
        lines.append(t(lang, "help"))
    notes = _notes_block(knowledge, answer)
    if notes:
        lines += ["", *notes]
    return "\n".join(lines)
