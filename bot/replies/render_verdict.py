"""A budget's verdict that commits: Yes, naming the ways that fit; No, naming the least that would
do; or, when some asked entries fit nowhere and others do, which, one short line each.

"Fits" is the answer's own per-entry, per-framework, per-flavour fits (a 1-DIE entry needs the
2-DIE unit); frameworks are the ones the question named, else all of the table's.
"""

from __future__ import annotations

from dataclasses import dataclass

from mincards.bot.answering.answer import Answer
from mincards.bot.answering.budget import needed
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.facts.table import Entry
from mincards.bot.language import Language
from mincards.bot.reading.asked import Budget
from mincards.bot.replies.i18n import t
from mincards.bot.replies.render_budget import budget_text
from mincards.bot.replies.render_words import amount, entry_heading, join_words, plural


@dataclass(frozen=True)
class Way:
    """One way an entry fits: with a framework, on a flavour, at the table's count."""

    entry: Entry
    framework: str
    flavour: str
    count: int


def frameworks_in_scope(knowledge: Knowledge, answer: Answer) -> list[str]:
    named = [f for f in answer.frameworks if knowledge.table.framework(f)]
    return [f for f in knowledge.table.framework_ids if not named or f in named]


def ways(knowledge: Knowledge, answer: Answer) -> list[Way]:
    """Every way an asked entry fits the budget, in row, then page (framework), then flavour
    order."""
    out = []
    for entry in answer.rows:
        by_framework = answer.fits.get(entry.key, {})
        for framework in frameworks_in_scope(knowledge, answer):
            for flavour, fit in by_framework.get(framework, {}).items():
                # A count the table makes suspect never makes an entry fit.
                if fit and not knowledge.is_suspect(entry, framework, flavour):
                    count = entry.count(framework, flavour)
                    assert count is not None
                    out.append(Way(entry, framework, flavour, count))
    return out


def overall(answer: Answer, found: list[Way]) -> str:
    """'yes' (every asked entry fits somewhere), 'no' (none does) or 'mixed'."""
    fitting = {w.entry.key for w in found}
    if not fitting:
        return "no"
    return "yes" if len(fitting) == len(answer.rows) else "mixed"


def _part_of_node(answer: Answer) -> bool:
    """A budget of part of a node ("half a node", 1.5 nodes): said back with its cards."""
    return answer.budget is not None and answer.budget.unit == "node" and (
        answer.budget.count != int(answer.budget.count))


def _room(knowledge: Knowledge, answer: Answer, flavour: str, count: int) -> str:
    lang = answer.language
    shown = amount(knowledge, lang, flavour, count)
    if _part_of_node(answer):
        assert answer.budget is not None
        said = Budget(answer.budget.count, answer.budget.unit)  # its flavour is said already
        info = knowledge.hardware.flavours[flavour]
        if info.die_per_card:
            # Half a Snt9B23 node is 4 cards = 8 DIE: the cards said too, as people count.
            cards = info.cards(count)
            shown = t(lang, "card_count", n=cards,
                      word=plural(lang, cards, "card", "cards")) + " = " + shown
        shown = t(lang, "verdict.room.part", budget=budget_text(knowledge, lang, said),
                  amount=shown)
    return t(lang, "verdict.room", flavour=knowledge.flavour_display(flavour), amount=shown)


def _frameworks(knowledge: Knowledge, language: Language, frameworks: list[str],
                scope: list[str]) -> str | None:
    """The frameworks' names; None when they are every framework asked about (of several)."""
    if len(scope) > 1 and set(frameworks) == set(scope):
        return None
    return join_words(language, [knowledge.framework_names[f] for f in frameworks], "or")


def _with(language: Language, names: str | None, scope: list[str]) -> str:
    if names is None:
        return t(language, "verdict.either" if len(scope) == 2 else "verdict.any_framework")
    return t(language, "verdict.with", frameworks=names)


def _needed_room(knowledge: Knowledge, answer: Answer, rows: list[Entry], flavour: str,
                 count: int) -> str:
    """'Snt9B (16 cards, 32 needed)': a flavour the rows fit nowhere on, with the least they
    need there, so a reader on it does not book the budget."""
    lang = answer.language
    info = knowledge.hardware.flavours[flavour]
    options = [needed(c, info) for e in rows for f in frameworks_in_scope(knowledge, answer)
               if (c := e.count(f, flavour)) is not None
               and not knowledge.is_suspect(e, f, flavour)]
    if not options:
        return _room(knowledge, answer, flavour, count)
    return t(lang, "verdict.room.needed", flavour=knowledge.flavour_display(flavour),
             amount=amount(knowledge, lang, flavour, count),
             needed=amount(knowledge, lang, flavour, min(options)))


def _places(knowledge: Knowledge, answer: Answer, rows: list[Entry], found: list[Way],
            needs: bool = False) -> str:
    """'on Snt9B23 (16 DIE) with either framework; on Snt9B (8 cards) only LoRA · 4K, with
    Llama-Factory; not on ...': where the rows fit, the widest first, flavours that fit the
    same way said together."""
    lang = answer.language
    scope = frameworks_in_scope(knowledge, answer)
    keys = {e.key for e in rows}
    groups: dict[tuple[bool, str | None, tuple[str, ...]], list[str]] = {}
    nowhere = []
    for flavour, count in answer.room.items():
        here = [w for w in found if w.flavour == flavour and w.entry.key in keys]
        room = _room(knowledge, answer, flavour, count)
        if not here:
            nowhere.append(_needed_room(knowledge, answer, rows, flavour, count) if needs
                           and not _part_of_node(answer) else room)
            continue
        entries = [e for e in rows if any(w.entry.key == e.key for w in here)]
        # The frameworks every fitting entry fits with, else those any of them fits with.
        each = [{w.framework for w in here if w.entry.key == e.key} for e in entries]
        common = set.intersection(*each)
        frameworks = [f for f in scope if f in (common or set.union(*each))]
        narrowed = len(entries) < len(rows)
        shown = tuple(entry_heading(knowledge, lang, e) for e in entries) if narrowed else ()
        groups.setdefault((narrowed, _frameworks(knowledge, lang, frameworks, scope), shown),
                          []).append(room)
    parts = []
    for (narrowed, names, shown), rooms in sorted(groups.items(), key=lambda g: g[0][0]):
        where = join_words(lang, rooms)
        if narrowed:
            parts.append(t(lang, "verdict.place.only", room=where,
                           entries=join_words(lang, list(shown), "or"),
                           frameworks=_with(lang, names, scope)))
        else:
            parts.append(t(lang, "verdict.place", room=where,
                           frameworks=_with(lang, names, scope)))
    if nowhere:
        parts.append(t(lang, "verdict.not_on", rooms=join_words(lang, nowhere, "or")))
    return t(lang, "semicolon").join(parts)


def least(knowledge: Knowledge, answer: Answer, rows: list[Entry]) -> str:
    """'the least is 16 cards (2 nodes) on Snt9B, or 16 DIE (1 node) on Snt9B23, both with
    MindSpeed-LLM': what would do, per flavour the budget covers; '' when nothing supports
    the rows there."""
    lang = answer.language
    scope = frameworks_in_scope(knowledge, answer)
    lows: list[tuple[str, int, list[str], Entry]] = []
    for flavour in answer.room:
        info = knowledge.hardware.flavours[flavour]
        options = [(needed(c, info), f, e) for e in rows for f in scope
                   if (c := e.count(f, flavour)) is not None
                   and not knowledge.is_suspect(e, f, flavour)]
        if not options:
            continue
        low = min(n for n, _, _ in options)
        at = [(f, e) for n, f, e in options if n == low]
        lows.append((flavour, low, list(dict.fromkeys(f for f, _ in at)), at[0][1]))
    if not lows:
        return ""
    shared = len({tuple(fws) for _, _, fws, _ in lows}) == 1
    counts = []
    for flavour, low, fws, entry in lows:
        nodes = knowledge.hardware.flavours[flavour].nodes(low)
        text = t(lang, "verdict.least.on", flavour=knowledge.flavour_display(flavour),
                 count=t(lang, "lead.count", amount=amount(knowledge, lang, flavour, low),
                         nodes=nodes, nodes_word=plural(lang, nodes, "node", "nodes")))
        if len(rows) > 1:
            text += t(lang, "verdict.least.entry", entry=entry_heading(knowledge, lang, entry))
        if not shared:
            text += _with(lang, _frameworks(knowledge, lang, fws, scope), scope)
        counts.append(text)
    said = t(lang, "verdict.least", counts=join_words(lang, counts, "or"))
    if shared:
        names = _frameworks(knowledge, lang, lows[0][2], scope)
        if names is None or len(lows) == 1:
            said += _with(lang, names, scope)
        else:
            key = "verdict.least.both" if len(lows) == 2 else "verdict.least.all"
            said += t(lang, key, frameworks=names)
    return said


def verdict(knowledge: Knowledge, answer: Answer) -> str | None:
    """The verdict that opens a budget lookup, as one sentence; None without a budget. Where
    each entry fits is marked in its row, not said again here."""
    if answer.budget is None or not answer.rows:
        return None
    lang = answer.language
    model = knowledge.catalogue[answer.models[0]].display
    rows = list(answer.rows)
    if not any(e.count(f, fl) is not None for e in rows
               for f in frameworks_in_scope(knowledge, answer) for fl in answer.room):
        return t(lang, "verdict.none", model=model)
    found = ways(knowledge, answer)
    kind = overall(answer, found)
    if kind == "yes":
        return t(lang, "verdict.yes", model=model, places=_places(knowledge, answer, rows,
                                                                   found))
    if kind == "no":
        said = least(knowledge, answer, rows) or t(lang, "verdict.unsupported")
        if _part_of_node(answer):
            rooms = [_room(knowledge, answer, fl, n) for fl, n in answer.room.items()]
            return t(lang, "verdict.no.in", model=model, least=said,
                     rooms=join_words(lang, rooms))
        return t(lang, "verdict.no", model=model, least=said)
    fitting = [e for e in rows if any(w.entry.key == e.key for w in found)]
    missing = [e for e in rows if e not in fitting]
    heading = [entry_heading(knowledge, lang, e) for e in (*fitting, *missing)]
    # Where the yes holds, and where not, in its first line: "Yes for full-parameter · 4K on
    # Snt9B23 (32 DIE) with MindSpeed-LLM; not on Snt9B (16 cards, 32 needed); no for ... 8K".
    # A reader on the other flavour must not take the yes for theirs.
    return t(lang, "verdict.mixed", model=model, fits=join_words(lang, heading[:len(fitting)]),
             places=_places(knowledge, answer, fitting, found, needs=True),
             misses=join_words(lang, heading[len(fitting):]))
