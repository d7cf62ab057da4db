"""A note (a caveat or remark) as a sentence in the answer's language."""

from __future__ import annotations

from mincards.bot.answering.answer import Note
from mincards.bot.facts.knowledge import Knowledge
from mincards.bot.language import Language
from mincards.bot.replies.i18n import t
from mincards.bot.replies.render_words import framework_list, join_words, plural, seq_short
from mincards.bot.replies.typography import typeset


def note_text(knowledge: Knowledge, language: Language, note: Note) -> str:
    """One note as a sentence; '' for notes that only carry data."""
    args = dict(note.args)
    catalogue = knowledge.catalogue
    hw = knowledge.hardware

    def label(strategy: str) -> str:
        return knowledge.strategy_label(strategy, language)

    if "model" in args:
        args["model"] = catalogue[args["model"]].display
    for key in ("strategy", "heavier", "lighter"):
        if key in args:
            args[key] = label(args[key])
    if "framework" in args:
        args["framework"] = knowledge.framework_names.get(args["framework"], args["framework"])
    if "frameworks" in args:
        args["frameworks"] = framework_list(knowledge, language, args["frameworks"])
    if "flavour" in args:
        info = hw.flavours[args["flavour"]]
        args["flavour"] = info.display
    if note.kind == "die_below_unit":
        info = hw.flavours[note.args["flavour"]]
        cards = info.cards(args["unit"])
        args["unit_name"] = info.unit
        args["unit_cards"] = t(language, "card_count", n=cards,
                               word=plural(language, cards, "card", "cards"))
    if note.kind == "from_settings":
        shown = [hw.flavours[f].display for f in note.args.get("flavours", ())]
        shown += [knowledge.framework_names.get(f, f) for f in note.args.get("frameworks", ())]
        args = {"what": join_words(language, shown)}
    if note.kind in ("stage_strategy", "stage_bound"):
        implies = knowledge.vocabulary.stages.implies
        index = int(note.args["stage"])
        why = implies[index].why if 0 <= index < len(implies) else {}
        said = why.get(language) or why.get("en", "")
        if not said:
            return ""
        args["why"] = said[:1].upper() + said[1:]
    if note.kind == "other_hardware":
        args["hardware"] = join_words(language, list(args["hardware"]), "or")
        args["flavours"] = join_words(language, [hw.flavours[f].display for f in args["flavours"]
                                                 if f in hw.flavours])
        if "count" in args:
            count, unit = int(args["count"]), args["unit"]
            args["amount"] = (t(language, f"budget.{unit}", count=count, cards=t(language, "cards"),
                                nodes=t(language, "nodes")) if unit
                              else f"{count} {note.args['hardware'][0]}")
            return typeset(language, t(language, "note.other_hardware_budget", **args))
    if note.kind == "budget_not_positive":
        count = int(args["count"])
        args["amount"] = t(language, f"budget.{args['unit']}", count=count,
                           cards=t(language, "cards"), nodes=t(language, "nodes"))
    if note.kind == "strategy_not_listed":
        args["strategies"] = "/".join(label(s) for s in args["strategies"])
    if note.kind == "stage_not_covered":
        args["strategies"] = join_words(language, [label(s) for s in args["strategies"]], "or")
        # As people write the stage: DPO, GRPO and RL in capitals, a word as it is.
        stage = str(args["stage"])
        args["stage"] = stage.upper() if stage.isascii() and " " not in stage and len(
            stage) <= 5 else stage
    if note.kind == "assumed":
        args["what"] = t(language, "what.join").join(t(language, f"what.{w}") for w in args["what"])
    if note.kind == "plan_below_minimum":
        info = hw.flavours[note.args["flavour"]]
        args["unit"] = info.unit if info.die_per_card else t(language, "cards")
        args["seq_len"] = seq_short(args["seq_len"])
    if note.kind == "plan_length_from_samples":
        args["tokens"] = f"{args['tokens']:,}"
        args["shown"] = seq_short(args["shown"])
    if note.kind == "table_has":
        args["has"] = t(language, "semicolon").join(
            t(language, "table_has.item", strategy=label(s), lengths=t(language, "list_sep").join(
                seq_short(n) for n in seqs)) for s, seqs in args["has"])
    if note.kind == "framework_not_in_table":
        args["has"] = framework_list(knowledge, language, args["has"])
    if note.kind == "flavour_not_in_table":
        args["flavours"] = join_words(language, [hw.flavours[f].display
                                                 for f in args["flavours"]], "or")
        args["has"] = join_words(language, [hw.flavours[f].display for f in args["has"]])
    if note.kind == "not_in_version":
        args["models"] = join_words(language, [catalogue[m].display for m in args["models"]])
    if note.kind == "suspect_fit":
        args["entries"] = join_words(language, [
            f"{catalogue[m].display} · {label(s)} · {seq_short(n)}" for m, s, n in args["entries"]])
    if note.kind == "other_mentions":
        args["names"] = t(language, "list_sep").join(args["names"])
    text = t(language, f"note.{note.kind}", **args)
    if note.kind == "stage_not_covered":
        for key, sentence in (("in_table", "note.stage_in_table"),
                              ("frameworks", "note.stage_elsewhere")):
            if note.args.get(key):
                text += t(language, "sentence_sep") + t(
                    language, sentence, frameworks=framework_list(knowledge, language,
                                                                  note.args[key]))
    return typeset(language, text)
