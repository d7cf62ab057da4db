"""The sentence a reply opens with: the number that answers the question, said first.

For a lookup it is, on each flavour on its own (Snt9B counts cards, Snt9B23 DIE: different
hardware, never one number across them), the fewest cards with their nodes and the framework
that gets there; for a budget the verdict; for capacity how many models fit; for a comparison
which needs fewer on each flavour. The same sentence is the message's notification text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from mincards.bot.answering.answer import Answer, Note
from mincards.bot.answering.budget import needed
from mincards.bot.answering.compare import Side
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.facts.table import Entry
from mincards.bot.language import Language
from mincards.bot.replies.i18n import t
from mincards.bot.replies.note_text import note_text
from mincards.bot.replies.render_budget import capacity_head
from mincards.bot.replies.render_plan import number, plan_needs, plan_sentence
from mincards.bot.replies.render_prices import price_sentence
from mincards.bot.replies.render_verdict import verdict
from mincards.bot.replies.render_words import (
    amount,
    asked_columns,
    asked_name,
    entry_heading,
    help_intro,
    join_words,
    plural,
    seq_short,
)
from mincards.bot.replies.slack_text import escape
from mincards.bot.replies.typography import typeset

Mark = Callable[[str], str]

# Notes the opening sentence says itself, on every surface: before the answer, what changes
# how its numbers are read (they are Ascend's, not the asked hardware's; an upper bound, not
# the asked method's figure); after it, what the question asked beside the count (a cost).
BEFORE_LEAD = frozenset({"other_hardware", "stage_bound"})
AFTER_LEAD = frozenset({"no_prices"})


@dataclass(frozen=True)
class Style:
    """How the sentence is written: plain (CLI, JSON) or Slack mrkdwn (escaped, numbers bold)."""

    text: Mark
    strong: Mark


PLAIN = Style(text=lambda s: s, strong=lambda s: s)
MRKDWN = Style(text=escape, strong=lambda s: f"*{s}*")
# Both at once: escaped like MRKDWN, its stressed parts between two marks no typed text holds
# (private-use characters, dropped from what people type), so that one sentence gives the
# message's bold lead (`as_mrkdwn`) and its notification (`as_notification`): the lead is the
# costliest part of a reply, and a message needs it twice.
_ON, _OFF = "\ue0a0", "\ue0a1"
TAGGED = Style(text=lambda s: escape(s.replace(_ON, "").replace(_OFF, "")),
               strong=lambda s: f"{_ON}{s}{_OFF}")


def as_mrkdwn(tagged: str) -> str:
    return tagged.replace(_ON, "*").replace(_OFF, "*")


def as_notification(tagged: str) -> str:
    return tagged.replace(_ON, "").replace(_OFF, "")


@dataclass(frozen=True)
class Low:
    """The fewest on one flavour, and where: the frameworks and entries that get there."""

    flavour: str
    count: int
    frameworks: tuple[str, ...]
    entries: tuple[Entry, ...]
    # Only counts the table makes suspect stand here (facts/suspects): said, never the answer.
    suspect: bool = False


def count_with_nodes(knowledge: Knowledge, language: Language, flavour: str, count: int) -> str:
    """'16 cards (2 nodes)' or '16 DIE (1 node)'."""
    nodes = knowledge.hardware.flavours[flavour].nodes(count)
    return t(language, "lead.count", amount=amount(knowledge, language, flavour, count),
             nodes=nodes, nodes_word=plural(language, nodes, "node", "nodes"))


def _nodes_and(knowledge: Knowledge, language: Language, flavour: str, count: int,
               also: str | None) -> str:
    """' (1 node)', or with a clause beside it, ' (1 node; the table lists 1 DIE, ...)': one
    parenthesis, never two side by side."""
    nodes = knowledge.hardware.flavours[flavour].nodes(count)
    words = plural(language, nodes, "node", "nodes")
    if also is None:
        return t(language, "lead.nodes", nodes=nodes, nodes_word=words)
    return t(language, "lead.nodes.also", nodes=nodes, nodes_word=words, also=also)


def columns(knowledge: Knowledge, answer: Answer) -> tuple[list[str], list[str]]:
    """The frameworks and flavours the answer is about: what the question named, else all."""
    table = knowledge.table
    asked = asked_columns(knowledge, answer)
    frameworks = list(dict.fromkeys(fw for fw, _ in asked)) or list(table.framework_ids)
    flavours = list(dict.fromkeys(fl for _, fl in asked)) or list(table.flavours)
    return frameworks, flavours


def lows(knowledge: Knowledge, answer: Answer, rows: tuple[Entry, ...]) -> list[Low]:
    """Per flavour, the fewest count over the rows and frameworks asked about, compared as
    they are used (1 DIE takes the 2-DIE unit, so it ties with a framework's 2 DIE: both are
    named). A count the table makes suspect is never it; a flavour with only such counts gets
    a suspect Low."""
    frameworks, flavours = columns(knowledge, answer)
    # The same rows and columns give the same lows: worked out once (a reply asks for them
    # from its lead, its caveats and its table).
    key = ("lows", tuple(e.key for e in rows), tuple(frameworks), tuple(flavours))
    return knowledge.memoized(key, lambda: _lows(knowledge, rows, frameworks, flavours))


def _lows(knowledge: Knowledge, rows: tuple[Entry, ...], frameworks: list[str],
          flavours: list[str]) -> list[Low]:
    out = []
    for fl in flavours:
        info = knowledge.hardware.flavours[fl]
        cells = [(c, fw, e) for e in rows for fw in frameworks
                 if (c := e.count(fw, fl)) is not None]
        clean = [x for x in cells if not knowledge.is_suspect(x[2], x[1], fl)]
        found = clean or cells
        if not found:
            continue
        used = min(needed(c, info) for c, _, _ in found)
        at = [(c, fw, e) for c, fw, e in found if needed(c, info) == used]
        entries = {e.key: e for _, _, e in at}  # each entry once, in row order
        out.append(Low(fl, min(c for c, _, _ in at),
                       tuple(f for f in frameworks if any(fw == f for _, fw, _ in at)),
                       tuple(entries.values()), suspect=not clean))
    return out


def _where(knowledge: Knowledge, language: Language, low: Low, several: bool) -> str:
    """'MindSpeed-LLM', or with several entries 'LoRA · 4K, MindSpeed-LLM'."""
    names = join_words(language, [knowledge.framework_names[f] for f in low.frameworks], "or")
    if not several:
        return names
    by_strategy: dict[str, list[str]] = {}
    for e in low.entries:
        by_strategy.setdefault(e.strategy, []).append(seq_short(e.seq_len))
    entries = join_words(language, [
        f"{knowledge.strategy_label(s, language)} · {join_words(language, lengths, 'or')}"
        for s, lengths in by_strategy.items()], "or")
    return t(language, "lead.at", entries=entries, frameworks=names)


def strategy_groups(answer: Answer) -> list[tuple[Entry, ...]]:
    """The rows a lookup's lead speaks of together: one group, or, when the question asked
    for two strategies or more ("lora 8k vs full 8k"), a group a strategy, in the table's order,
    so that each is answered and none is hidden behind the other's fewer cards."""
    rows = answer.rows
    strategies = [s for s in answer.strategies if any(e.strategy == s for e in rows)]
    if len(strategies) < 2:
        return [rows]
    return [tuple(e for e in rows if e.strategy == s) for s in strategies]


def _lookup(knowledge: Knowledge, answer: Answer, style: Style, at_least: bool = False) -> str:
    """`at_least`: "X needs at least ..." even for one entry, as a sentence that goes on from
    another ("it has X's architecture, and X needs at least ...")."""
    lang = answer.language
    groups = strategy_groups(answer)
    if len(groups) > 1 and not at_least:
        return t(lang, "sentence_sep").join(
            _lookup(knowledge, replace(answer, rows=rows), style) for rows in groups)
    model = knowledge.catalogue[answer.models[0]].display
    rows = answer.rows
    several = len(rows) > 1 or at_least
    subject = model if several else f"{model} · {entry_heading(knowledge, lang, rows[0])}"
    found = lows(knowledge, answer, rows)
    if not found:
        return style.text(t(lang, "lead.unsupported", subject=subject))
    if all(low.suspect for low in found):
        return _only_suspect(knowledge, answer, found, subject, style)
    wheres = {_where(knowledge, lang, low, several) for low in found}
    shared = len(wheres) == 1
    parts = []
    said: list[str] = []  # each caveat's words once, beside the first number it disowns
    for low in found:
        caveat = low_caveat(knowledge, answer, low)
        if caveat is not None and caveat.kind == "die_below_unit":
            # The count to plan on is the unit; the table's own figure is said beside it.
            unit = int(caveat.args["unit"])
            shown = style.strong(style.text(amount(knowledge, lang, low.flavour, unit)))
            shown += style.text(_nodes_and(knowledge, lang, low.flavour, unit, t(
                lang, "lead.below_unit", listed=amount(knowledge, lang, low.flavour,
                                                        low.count))))
        elif caveat is not None:
            # A figure the notes call a likely source error is never the bold answer.
            words = t(lang, "lead.suspect", heavier=knowledge.strategy_label(
                caveat.args["heavier"], lang), lighter=knowledge.strategy_label(
                caveat.args["lighter"], lang))
            shown = style.text(amount(knowledge, lang, low.flavour, low.count) + _nodes_and(
                knowledge, lang, low.flavour, low.count, None if words in said else words))
            said.append(words)
        else:
            shown = style.strong(style.text(count_with_nodes(knowledge, lang, low.flavour,
                                                             low.count)))
        part = t(lang, "lead.on", flavour=style.text(knowledge.flavour_display(low.flavour)),
                 count=shown)
        if not shared:
            part += style.text(t(lang, "lead.with_each",
                                 where=_where(knowledge, lang, low, several)))
        parts.append(part)
    where = style.text(t(lang, "lead.with", where=next(iter(wheres)))) if shared else ""
    key = "lead.several" if several else "lead.one"
    # Flavours each with its own frameworks carry a clause each: set apart more strongly.
    sep = t(lang, "list_sep") if shared else t(lang, "lead.parts_sep")
    return t(lang, key, subject=style.text(subject), counts=sep.join(parts), where=where)


def _only_suspect(knowledge: Knowledge, answer: Answer, found: list[Low], subject: str,
                  style: Style) -> str:
    """When every count asked is one the table makes suspect: no number to plan on, and the
    table's figures said as what they are."""
    lang = answer.language
    note = next((n for low in found if (n := low_caveat(knowledge, answer, low))
                 and n.kind == "suspect_strategy_order"), None)
    listed = t(lang, "list_sep").join(
        t(lang, "lead.on", flavour=knowledge.flavour_display(low.flavour),
          count=count_with_nodes(knowledge, lang, low.flavour, low.count)) for low in found)
    frameworks = join_words(lang, [knowledge.framework_names[f] for f in dict.fromkeys(
        fw for low in found for fw in low.frameworks)], "or")
    heavier = lighter = ""
    if note is not None:
        heavier = knowledge.strategy_label(note.args["heavier"], lang)
        lighter = knowledge.strategy_label(note.args["lighter"], lang)
    return style.text(t(lang, "lead.only_suspect", subject=subject, listed=listed,
                        frameworks=frameworks, heavier=heavier, lighter=lighter))


def low_caveat(knowledge: Knowledge, answer: Answer, low: Low) -> Note | None:
    """The answer's caveat that disowns a lead's number, if any: a count below the flavour's
    parallel unit (1 DIE), or one from an entry the notes call a likely source error."""
    info = knowledge.hardware.flavours[low.flavour]
    if info.min_parallel_unit and low.count < info.min_parallel_unit:
        return next((n for n in answer.notes if n.kind == "die_below_unit"
                     and n.args.get("flavour") == low.flavour), None)
    for note in answer.notes:
        if note.kind != "suspect_strategy_order":
            continue
        if any(e.model == note.args["model"] and e.seq_len == note.args["seq_len"]
               and e.strategy == note.args["heavier"] for e in low.entries) and (
                note.args["framework"] in low.frameworks):
            return note
    return None


def lead_caveats(knowledge: Knowledge, answer: Answer) -> list[Note]:
    """The caveats a lead already says (beside a lookup's numbers, before or after the
    sentence): not said again below."""
    said = [n for n in answer.notes if n.kind in BEFORE_LEAD | AFTER_LEAD]
    if answer.intent != "lookup" or answer.budget is not None or not answer.rows:
        return said
    for rows in strategy_groups(answer):
        found = lows(knowledge, answer, rows)
        for low in found:
            if (c := low_caveat(knowledge, answer, low)) is not None:
                said.append(c)
        if found and all(low.suspect for low in found):
            # The lead said these counts are a likely source error: at every length shown.
            said += [n for n in answer.notes if n.kind == "suspect_strategy_order"
                     and any(e.seq_len == n.args["seq_len"] for low in found
                             for e in low.entries)]
    return said


def _compare(knowledge: Knowledge, answer: Answer, style: Style) -> str:
    """A line per strategy compared, over every length compared: where the models need the
    same, once ("the same at 4K"); where they differ, who needs fewer and by how much ("Qwen3-32B
    needs fewer at 8K: 8 vs 16 cards on Snt9B, 8 vs 16 DIE on Snt9B23"); a model without the
    strategy's entry, by name. Snt9B cards and Snt9B23 DIE are never compared with each other."""
    lang = answer.language
    cat = knowledge.catalogue
    if not answer.comparison:
        listing = [m for m in answer.models if any(e.model == m for e in answer.rows)]
        lacking = [m for m in answer.models if m not in listing]
        if lacking and listing:
            return style.text(t(lang, "compare.none.named", lacking=join_words(
                lang, [cat[m].display for m in lacking]), listing=join_words(
                lang, [cat[m].display for m in listing])))
        return style.text(t(lang, "compare.none"))
    by_strategy: dict[str, dict[int, list[Side]]] = {}
    for side in answer.comparison:
        by_strategy.setdefault(side.strategy, {}).setdefault(side.seq_len, []).append(side)
    lines = []
    for strategy, lengths in by_strategy.items():
        segments: list[tuple[str, list[int]]] = []  # (what is said, the lengths it is said of)
        for seq_len, sides in lengths.items():
            said = _compare_length(knowledge, answer, sides, style)
            if segments and segments[-1][0] == said:
                segments[-1][1].append(seq_len)
            else:
                segments.append((said, [seq_len]))
        parts = [text.replace(_AT, join_words(lang, [seq_short(n) for n in seqs]))
                 for text, seqs in segments]
        missing = [m for m in answer.models if not any(
            m in s.fewest for ss in lengths.values() for s in ss)]
        if missing:
            parts.append(t(lang, "lead.compare.no_entry", models=style.text(join_words(
                lang, [cat[m].display for m in missing])), strategy=knowledge.strategy_label(
                strategy, lang)))
        lines.append(t(lang, "lead.compare.line", heading=style.text(
            knowledge.strategy_label(strategy, lang)), parts=t(lang, "semicolon").join(parts)))
    return "\n".join(lines)


# Where a comparison's sentence names its lengths, filled in once the lengths said the same
# way are gathered ("the same at 4K and 8K").
_AT = "\ue001"


def _compare_length(knowledge: Knowledge, answer: Answer, sides: list[Side], style: Style
                    ) -> str:
    """One length of a strategy, its lengths left as _AT."""
    lang = answer.language
    cat = knowledge.catalogue
    models = [m for m in answer.models if m in sides[0].fewest]
    everyone = t(lang, "lead.compare.both" if len(models) == 2 else "lead.compare.all")

    def counts(side: Side) -> str:
        """'8 vs 16 cards' (the fewer first) for two models, 'Qwen2.5-7B 1, Llama-3.1-8B 1,
        Qwen3-8B 8 cards' for more; the fewest stressed, 'not supported' where a model has
        none."""
        ranked = sorted(models, key=lambda m: (
            (c := side.fewest[m].count) is None, c or 0, models.index(m)))
        shown = []
        for m in ranked:
            c = side.fewest[m].count
            said = t(lang, "not_supported") if c is None else (
                style.strong(str(c)) if m in side.fewer and not side.tie else str(c))
            shown.append(said if len(models) == 2 else t(lang, "compare.count",
                                                          model=cat[m].display, count=said))
        info = knowledge.hardware.flavours[side.flavour]
        unit = info.unit if info.die_per_card else t(lang, "cards")
        joined = t(lang, "lead.compare.vs" if len(models) == 2 else "list_sep").join(shown)
        return t(lang, "lead.compare.versus", counts=joined, unit=unit)

    if all(s.tie for s in sides):
        said = t(lang, "list_sep").join(
            t(lang, "lead.on", flavour=knowledge.flavour_display(s.flavour),
              count=amount(knowledge, lang, s.flavour, c))
            for s in sides if (c := s.fewest[models[0]].count) is not None)
        return t(lang, "lead.compare.same_at", everyone=everyone, counts=said, at=_AT)
    fewer = {s.fewer for s in sides if not s.tie}
    word = "lead.compare.fewer_at" if len(models) == 2 else "lead.compare.fewest_at"
    if len(fewer) == 1:
        (who,) = fewer
        if len(who) > 1:
            word += ".many"  # "Qwen2.5-7B and Llama-3.1-8B need the fewest"
        per = t(lang, "list_sep").join(
            t(lang, "lead.compare.on", counts=counts(s), flavour=knowledge.flavour_display(
                s.flavour)) if not s.tie else t(lang, "lead.compare.tie_on", flavour=(
                    knowledge.flavour_display(s.flavour))) for s in sides)
        return t(lang, word, model=style.text(join_words(lang, [cat[m].display for m in who])),
                 per=per, at=_AT)
    return t(lang, "lead.compare.mixed_at", at=_AT, per=t(lang, "list_sep").join(
        t(lang, "lead.compare.on", counts=counts(s), flavour=knowledge.flavour_display(
            s.flavour)) for s in sides))


def lead(knowledge: Knowledge, answer: Answer, style: Style = PLAIN) -> str:
    """The one sentence that answers, in the answer's language, typeset as every reply is
    (its parts are joined here, after each was). A table model standing in for the asked one
    is said to be so first, before any of its numbers."""
    lang = answer.language

    def text_of(note: Note) -> str:
        if note.kind == "no_prices":
            shown = answer.shown()
            fewest = [(low.flavour, low.count) for low in lows(knowledge, shown, shown.rows)
                      if not low.suspect] if shown.rows else []
            return price_sentence(knowledge, lang, note, fewest)
        return note_text(knowledge, lang, note)

    def said(kinds: frozenset[str]) -> list[str]:
        return [style.text(s) for n in answer.notes if n.kind in kinds and (s := text_of(n))]

    return typeset(lang, t(lang, "sentence_sep").join(
        [*said(BEFORE_LEAD), _said(knowledge, answer, style), *said(AFTER_LEAD)]))


def _said(knowledge: Knowledge, answer: Answer, style: Style) -> str:
    use = answer.stand_in
    if use is None:
        return _lead(knowledge, answer, style)
    lang = answer.language
    model = style.text(knowledge.catalogue[use.model].display)
    asked = style.text(use.asked)
    shown = answer.shown()
    if use.relation == "quantized_copy":
        return t(lang, "stand_in.quantized", asked=asked, model=model,
                 lead=_lead(knowledge, shown, style))
    if shown.intent in ("lookup", "plan"):
        # A budget's verdict opens with Yes or No: a sentence of its own.
        if verdict(knowledge, shown):
            return t(lang, "stand_in.same.verdict", asked=asked, model=model,
                     lead=_lead(knowledge, shown, style))
        said = (_lookup(knowledge, shown, style, at_least=True) if shown.intent == "lookup"
                else _lead(knowledge, shown, style))
        return t(lang, "stand_in.same", asked=asked, model=model, lead=said)
    return t(lang, "stand_in.same.none", asked=asked, model=model)


# A short reply names at most this many choices, then how many more.
MAX_SHORT_CHOICES = 6


def short_text(knowledge: Knowledge, answer: Answer, style: Style = PLAIN) -> str:
    """The reply in one line, standing alone (`--short`, a notification): the lead, and for
    "which one?" the choices themselves."""
    return lead(knowledge, answer, style) + choices_said(knowledge, answer, style)


def choices_said(knowledge: Knowledge, answer: Answer, style: Style = PLAIN) -> str:
    """What a "which one?" adds to its lead in one line: the choices; '' otherwise."""
    if answer.intent != "ambiguous" or not answer.candidates:
        return ""
    lang = answer.language
    names = [knowledge.catalogue[m].display for m in answer.candidates
             if m in knowledge.catalogue.models]
    shown = names[:MAX_SHORT_CHOICES]
    if len(names) > len(shown):
        shown.append(t(lang, "short.more", count=len(names) - len(shown)))
    return t(lang, "sentence_sep") + style.text(
        t(lang, "short.choices", choices=join_words(lang, shown, "or")))


def bracket_sentence(knowledge: Knowledge, answer: Answer) -> str:
    """Where a size the table lacks sits among the table's models of its kind."""
    around = answer.bracket
    if around is None:
        return ""
    lang = answer.language
    cat = knowledge.catalogue

    def side(model: str, size: float) -> str:
        return t(lang, "bracket.side", model=cat[model].display, size=number(size))

    size = f"{number(around.size_b)}B"
    if around.size is not None and around.size.active_b:
        size += t(lang, "bracket.active", active=number(around.size.active_b))
    kind = t(lang, f"kind.{around.kind}")
    if around.same:
        return t(lang, "bracket.same", size=size, kind=kind, models=join_words(
            lang, [side(n.model, n.size_b) for n in around.same]))
    if around.below and around.above:
        return t(lang, "bracket.between", size=size, kind=kind,
                 below=side(around.below.model, around.below.size_b),
                 above=side(around.above.model, around.above.size_b))
    if around.below:
        return t(lang, "bracket.below_only", size=size, kind=kind,
                 below=side(around.below.model, around.below.size_b))
    assert around.above is not None
    return t(lang, "bracket.above_only", size=size, kind=kind,
             above=side(around.above.model, around.above.size_b))


def bracket_lines(knowledge: Knowledge, answer: Answer, style: Style = PLAIN) -> list[str]:
    """Each neighbour's fewest under the question's filters, as a lookup's lead says it."""
    around = answer.bracket
    if around is None:
        return []
    lines = []
    for near in (*around.same, around.below, around.above):
        if near is None:
            continue
        if not near.rows:
            lines.append(style.text(t(answer.language, "bracket.nothing",
                                      model=knowledge.catalogue[near.model].display)))
            continue
        shown = replace(answer, intent="lookup", models=(near.model,), rows=near.rows,
                        budget=None, bracket=None)
        lines.append(_lookup(knowledge, shown, style))
    return lines


def _lead(knowledge: Knowledge, answer: Answer, style: Style) -> str:
    lang = answer.language
    cat = knowledge.catalogue
    if answer.intent == "plan":
        # With nothing to work out yet, the table's numbers first, then what the plan needs.
        return plan_sentence(knowledge, answer, style.strong, style.text) or (
            _lookup(knowledge, answer, style) + t(lang, "sentence_sep")
            + style.text(plan_needs(answer)))
    if answer.intent == "lookup":
        said = verdict(knowledge, answer)
        if said:
            return style.strong(style.text(said))
        return _lookup(knowledge, answer, style)
    if answer.intent == "capacity":
        return style.text(capacity_head(knowledge, answer).rstrip(":："))
    if answer.intent == "compare":
        return _compare(knowledge, answer, style)
    asked = asked_name(answer)
    if answer.intent == "ambiguous":
        return style.text(t(lang, "ambiguous", asked=asked) if asked
                          else t(lang, "ambiguous.plain"))
    if answer.intent == "not_found":
        said = t(lang, "not_found", asked=asked) if asked else t(lang, "not_found.plain")
        if answer.bracket:
            said += t(lang, "sentence_sep") + bracket_sentence(knowledge, answer)
        return style.text(said)
    if answer.intent == "not_covered":
        # The reason first: what the table lacks for this question, in the first sentence.
        reason = answer.notes[0] if answer.notes and answer.notes[0].kind != "table_has" else None
        said = t(lang, "not_covered", model=cat[answer.models[0]].display)
        if reason is not None and (why := note_text(knowledge, lang, reason)):
            said += t(lang, "sentence_sep") + why
        return style.text(said)
    if answer.intent == "list":
        return style.text(t(lang, "list.title", count=len(answer.models)).rstrip(":："))
    return style.text(help_intro(lang, no_model=answer.note("no_model") is not None))
