"""Every sentence the bot says, in English and Chinese. Numbers come from the answer, not here."""

from __future__ import annotations

from mincards.bot.language import Language
from mincards.bot.replies.typography import typeset

TEXT: dict[Language, dict[str, str]] = {
    "en": {
        "card": "card",
        "cards": "cards",
        "node": "node",
        "nodes": "nodes",
        "not_supported": "not supported",
        "die_cards": "{die} DIE ({cards} {cards_word})",
        "count_nodes": "{count}, {nodes} {nodes_word}",
        "table_name": " · in the table as {key}",
        "notes": "Notes:",
        "lookup.title": "Minimum cards for {model}",
        "ambiguous": "Several table models fit {asked}. Which one do you mean?",
        "ambiguous.plain": "Several table models fit. Which one do you mean?",
        "short.choices": "{choices}?",
        "short.more": "{count} more",
        "not_found": "The table has no entry for {asked}, so I can't give a card count "
                     "for it.",
        "not_found.plain": "The table has no entry for that model.",
        "suggest": "Nearest models in the table (different models, not an answer):",
        "not_covered": "{model} is in the table, but not for what you asked.",
        "list.title": "Models in the table ({count}):",
        "list.family": "{family}: {models}",
        "help": "Ask me how many Ascend NPUs a model needs to fine-tune or train, e.g.\n"
                "{examples}\n"
                "Name the model (Hugging Face ids and typos are fine), and optionally "
                "{strategies} and a sequence length. I answer for {frameworks} on {flavours}. "
                "Say \u201clist\u201d for every model.",
        "help.slash": "*How to use {command}*\n`{command} qwen 2.5 72b lora 8k` answers "
                      "only you, with a button to post the answer to the channel. Name the "
                      "model (Hugging Face ids and typos are fine) and, if you like, full or "
                      "LoRA, a length, a framework or a budget (`on 8 cards`, `16 DIE 够吗`), "
                      "or ask `what fits on 2 nodes?` or `qwen2.5-32b vs qwen2.5-72b`.\n"
                      "In a channel, mention me (`@mincards qwen3-8b full`) and I answer in the "
                      "thread; in a DM just ask. There, follow-ups such as `and lora?` or "
                      "`8卡够吗` continue the question before.\n"
                      "`{command} settings` chooses the flavours and frameworks your replies "
                      "show, their language and length; `{command} forget me` clears them.",
        "and": " and ",
        "or": " or ",
        "sentence_sep": " ",
        "colon": ": ",
        "semicolon": "; ",
        "list_sep": ", ",
        "flavour_unit": "{flavour} ({unit})",
        "card_count": "{n} {word}",
        "budget.card": "{count} {cards}",
        "budget.die": "{count} DIE",
        "budget.node": "{count} {nodes}",
        "budget.ascend": "{count}*Ascend",
        "budget.on": "{budget} on {flavour}",
        "room": "{amount} on {flavour}",
        "verdict.yes": "Yes — {model} fits {places}.",
        "verdict.no": "No — {model} does not fit: {least}.",
        "verdict.mixed": "Yes for {fits} {places}; no for {misses} — {model}.",
        "verdict.room": "{flavour} ({amount})",
        "verdict.room.needed": "{flavour} ({amount}, {needed} needed)",
        "verdict.room.part": "{budget} = {amount}",
        "verdict.no.in": "No — {model} does not fit on {rooms}: {least}.",
        "verdict.either": " with either framework",
        "verdict.any_framework": " with any framework",
        "verdict.place": "on {room}{frameworks}",
        "verdict.place.only": "on {room} only {entries},{frameworks}",
        "verdict.not_on": "not on {rooms}",
        "verdict.least": "the least is {counts}",
        "verdict.least.on": "{count} on {flavour}",
        "verdict.least.entry": " ({entry})",
        "verdict.least.both": ", both with {frameworks}",
        "verdict.least.all": ", all with {frameworks}",
        "verdict.with": " with {frameworks}",
        "verdict.none": "{model}: no framework in the table supports what you asked, so no budget "
                        "fits it.",
        "verdict.fits": "fits with {list}",
        "verdict.misses": "not with {list}",
        "verdict.unsupported": "not supported by any framework",
        "on_flavours": "{framework} on {flavours}",
        "needs": "{flavour} (needs {count})",
        "capacity.count": "Of the table's {total} models{filters}, {parts}.",
        "capacity.count.family": "Of the table's {total} {family} models{filters}, {parts}.",
        "capacity.on": "{amount} on {flavour} fit {count}",
        "capacity.join": " and ",
        "capacity.filters": ", for {filters}",
        "capacity.filters.bare": ", {filters}",
        "capacity.at": "at {lengths}",
        "capacity.with": "with {frameworks}",
        "capacity.misses": "Not fitting: {names}.",
        "capacity.more": "… and {count} more: `mincards ask --all` lists every model and entry.",
        "capacity.none": "Nothing in the table fits in {budget} ({room}) for what you asked.",
        "capacity.only": "{strategies} only",
        "capacity.cell.only": "{amount} ({only})",
        "capacity.largest": "The largest model that fits{filters}: {places}.",
        "capacity.largest.family": "The largest {family} model that fits{filters}: {places}.",
        "capacity.largest.on": "{models} on {rooms}",
        "compare.none.named": "Nothing to compare: {lacking} lists no entry for what you asked; "
                              "{listing}'s are below.",
        "compare.none": "No entry is listed for all of them with what you asked; each one's "
                        "numbers are below.",
        "compare.count": "{model} {count}",
        "vs": " vs ",
        "note.budget_covers_nothing": "A budget in {unit} counts on none of this table's flavours.",
        "note.stage_strategy": "{why}: answered as {strategy}.",
        "note.stage_bound": "{why}.",
        "price.none": "The table has no prices: multiply the cards here by your price per "
                      "card-hour and the hours your run takes.",
        "price.hours": "The table has no prices; at the fewest cards here that is {parts}: "
                       "multiply by your price per card-hour.",
        "price.card_hours": "{amount} × {hours} h = {total} card-hours on {flavour}",
        "price.die_hours": "{amount} × {hours} h = {total} DIE-hours ({cards} card-hours) on "
                           "{flavour}",
        "note.other_hardware": "The table counts Ascend NPUs on {flavours} and has no figures "
                               "for {hardware}: every count here is for Ascend NPUs.",
        "note.other_hardware_budget": "The table counts Ascend NPUs on {flavours} and has no "
                                      "figures for {hardware}, so I did not judge {amount} "
                                      "against it: every count here is for Ascend NPUs.",
        "note.budget_not_positive": "{amount} is not a budget: a budget is a positive number "
                                    "of cards, DIE or nodes, so I answered without one.",
        "note.no_model": "I didn't find a model name in that.",
        "note.plan_offer": "For how long it would take, ask “how long” with a TPS and a card "
                           "count or a deadline.",
        "note.suspect_fit": "Not counted: {entries} would fit only by a count that is likely an "
                            "error in the source.",
        "note.reference": "Figures are the ModelArts table's minimums ({date}), a reference "
                          "only: adjust to your job.",
        "note.below_node": "Below {cards} cards the doc advises training on one full node of "
                           "{cards}.",
        "note.die_below_unit": "{count} {unit_name} is below the {unit}-{unit_name} unit that "
                               "parallel strategies use on {flavour}: plan for {unit} "
                               "{unit_name} ({unit_cards}).",
        "note.suspect_strategy_order": "{framework} at seq {seq_len}: {heavier} needs fewer cards "
                                       "than {lighter} here, which is almost surely an error in "
                                       "the source. Check before you plan on it.",
        "note.one_entry_two_models": "The table has one entry for both DeepSeek-V3 and "
                                     "DeepSeek-R1.",
        "note.assumed": "You didn't say the {what}; {model} is the only table model that fits, "
                        "so that is what this shows.",
        "what.version": "version",
        "what.size": "size",
        "what.family": "model family",
        "what.join": " or ",
        "note.upper_bound": "The table lists no {strategy} entry at seq {asked}; shown is the "
                            "next length up, {shown}: an upper bound for {asked}.",
        "note.seq_not_listed": "The table lists {strategy} only up to seq {longest}, not "
                               "{seq_len}.",
        "note.strategy_not_listed": "The table lists no {strategies} entry for this model.",
        "note.stage_not_covered": "The table covers only SFT and pre-training with {strategies}; "
                                  "it says nothing about {stage}.",
        "note.stage_in_table": "In this table, {frameworks} train with it: ask about them.",
        "note.stage_elsewhere": "{frameworks} train with it, but this version of the table has "
                                "no column for them.",
        "note.framework_not_in_table": "This version of the table ({date}) has no column for "
                                       "{frameworks}, so it gives no count for it. Its columns "
                                       "are {has}.",
        "note.flavour_not_in_table": "This version of the table ({date}) has no {flavours} "
                                     "column, so it gives no count for it. Its flavours are "
                                     "{has}.",
        "note.not_in_version": "{models}: in other versions of the ModelArts table, but not in "
                               "this one ({date}).",
        "note.table_has": "The table has: {has}.",
        "note.other_mentions": "I answered for the first model only; ask again for: {names}.",
        "note.not_in_table": "",
        "note.other_family": "That model family is not in the table at all.",
        "blocks.share": "Post to channel",
        "blocks.show_all": "Show all",
        "unfurl.source": "mincards · the ModelArts minimum card table of {date} · the model "
                         "on {site}",
        "unfurl.ask": "Ask about this model",
        "assistant.greeting": "Hi! Ask me how many Ascend NPUs a model needs to fine-tune or "
                              "train: a name, a Hugging Face id or a link, in English or "
                              "Chinese. I answer from the ModelArts minimum card table of "
                              "{date}.",
        "assistant.prompts.title": "Try one of these:",
        "assistant.prompt.lookup.title": "{model} with LoRA",
        "assistant.prompt.lookup": "{model} LoRA {seq}?",
        "assistant.prompt.compare.title": "Compare two sizes",
        "assistant.prompt.compare": "{a} vs {b} LoRA",
        "assistant.prompt.fits.title": "What fits one {flavour} node?",
        "assistant.prompt.fits": "What fits on {amount} on {flavour}?",
        "assistant.prompt.plan.title": "Train {model} in full",
        "assistant.prompt.plan": "Can I train {model} full on 4 nodes?",
        "assistant.status": "is looking it up in the table…",
        "step.no_model": "The step needs a model: a name, a Hugging Face id or a link.",
        "step.strategy": "“{strategy}” is not a strategy the table has: full or LoRA.",
        "step.seq_len": "The sequence length is a whole number of tokens, such as 4096 or "
                        "8192.",
        "help.intro": "Ask me how many Ascend NPUs a model needs to fine-tune or train.",
        "table_has.item": "{strategy} at {lengths}",
        "lead.count": "{amount} ({nodes} {nodes_word})",
        "lead.nodes": " ({nodes} {nodes_word})",
        "lead.nodes.also": " ({nodes} {nodes_word}; {also})",
        "lead.below_unit": "the table lists {listed}, below that unit",
        "lead.suspect": "a likely source error: {heavier} lists fewer than {lighter} here",
        "lead.only_suspect": "{subject}: no count to plan on — the table lists {listed} with "
                             "{frameworks}, likely an error in the source ({heavier} lists fewer "
                             "than {lighter} here).",
        "lead.on": "{count} on {flavour}",
        "lead.with": ", with {where}",
        "lead.with_each": " with {where}",
        "lead.parts_sep": ", ",
        "lead.at": "{frameworks} at {entries}",
        "lead.one": "{subject}: {counts}{where}.",
        "lead.several": "{subject} needs at least {counts}{where}.",
        "lead.unsupported": "{subject}: no framework in the table supports this.",
        "lead.compare.line": "{heading}: {parts}.",
        "lead.compare.same_at": "the same at {at} ({everyone} need {counts})",
        "lead.compare.fewer_at": "{model} needs fewer at {at}: {per}",
        "lead.compare.fewest_at": "{model} needs the fewest at {at}: {per}",
        "lead.compare.fewer_at.many": "{model} need fewer at {at}: {per}",
        "lead.compare.fewest_at.many": "{model} need the fewest at {at}: {per}",
        "lead.compare.mixed_at": "at {at} it depends on the flavour: {per}",
        "lead.compare.on": "{counts} on {flavour}",
        "lead.compare.tie_on": "the same on {flavour}",
        "lead.compare.versus": "{counts} {unit}",
        "lead.compare.vs": " vs ",
        "lead.compare.no_entry": "{models} lists no {strategy} entry",
        "lead.compare.both": "both",
        "lead.compare.all": "all",
        "warn.title": "Before you plan on it:",
        "blocks.footer": "ModelArts minimum card table, {date} · table name {key} · reference "
                         "only: adjust to your job",
        "blocks.footer.plain": "ModelArts minimum card table, {date} · reference only: adjust to "
                               "your job",
        "blocks.unsupported": "{frameworks}: not supported for any of these.",
        "blocks.entries_of": "A model's entries on this budget:",
        "cell.head": "{framework} · {flavour}",
        "cell.none_fits": "over budget",
        "cell.fits": "{count} (fits)",
        "cell.over_budget": "{count} (over budget)",
        "cell.suspect": "{count} (likely a source error)",
        "rows.beside": "not {asked}'s: the table has no entry for it",
        "rows.suspect": "likely a source error: {cells}",
        "blocks.try": "The table has {model} for:",
        "blocks.list_models": "List the models",
        "blocks.pick_model": "Pick a model",
        "blocks.pick_model.label": "Or pick one:",
        "blocks.show_rest": "Show the other {count}",
        "blocks.examples": "Try one:",
        "blocks.asked_by": "Asked by <@{user}>",
        "feedback.up": "Helpful",
        "feedback.down": "Not helpful",
        "example.lookup": "{model} {strategy} {seq}",
        "example.budget": "{model} on {count} cards?",
        "example.capacity": "what fits on {count} nodes?",
        "example.compare": "{a} vs {b}",
        "home.hello": "*How many Ascend NPUs for a model?* Pick one, or ask me anywhere.",
        "home.legend": "*Cards and DIE.* {flavours}.",
        "home.legend.card": "{flavour} ({chip}) counts cards, {per_node} a node",
        "home.legend.die": "{flavour} ({chip}) counts DIE: {die} a card, {per_node} a node, so "
                           "{per_node} DIE is {cards} cards",
        "home.ask": "Mention me in a channel (`@mincards qwen 2.5 72b lora 8k?`), send me a DM, or "
                    "use `/mincards`. English or Chinese; Hugging Face ids and typos are fine.",
        "home.source": "ModelArts minimum card table, {date}: {count} models, {frameworks} · "
                       "reference only",
        "modal.title": "Minimum cards",
        "modal.submit": "Answer",
        "modal.close": "Close",
        "modal.model": "Model",
        "modal.strategy": "Strategy",
        "modal.seq": "Sequence length",
        "modal.budget": "Budget",
        "modal.budget.hint": "e.g. 8 cards, 2 nodes or 16 DIE",
        "modal.any": "Any",
        "modal.budget.unread": "Say it like 8 cards, 2 nodes or 16 DIE.",
        "modal.budget.unit": "{count} what: cards, DIE or nodes? (e.g. {count} cards)",
        "modal.budget.not_positive": "A budget is a positive number of cards, DIE or nodes.",
        "modal.private": "Only you can see this answer.",
        "shortcut.no_text": "That message has no text to read a model name from.",
        "stand_in.same": "{asked} is not in the table; it has {model}'s architecture, and {lead}",
        "stand_in.same.verdict": "{asked} is not in the table; it has {model}'s architecture. "
                                 "{lead}",
        "stand_in.same.none": "{asked} is not in the table; it has {model}'s architecture, but "
                              "the table has no {model} entry for what you asked.",
        "stand_in.quantized": "{asked} is a quantized copy of {model}: the numbers are for "
                              "training the full-precision weights. {lead}",
        "stand_in.source.same_architecture": "Why {model}: {source}.",
        "stand_in.source.quantized_copy": "Why {model}: {source}.",
        "stand_in.reference.after_lead": "These are {model}'s entries, the closest reference.",
        "stand_in.reference": "These are {model}'s entries, the closest reference: the table has "
                              "none for {asked}.",
        "bracket.same": "Its size ({size}) is that of {models}, the table's {kind} models of "
                        "the same size; their entries follow, not a table entry for it.",
        "bracket.active": ", {active}B active",
        "bracket.between": "Its size ({size}) is between {below} and {above}, the table's "
                           "nearest {kind} models; their entries follow, not a table entry for "
                           "it.",
        "bracket.below_only": "Its size ({size}) is above every {kind} model in the table; the "
                              "nearest is {below}, not a table entry for it.",
        "bracket.above_only": "Its size ({size}) is below every {kind} model in the table; the "
                              "nearest is {above}, not a table entry for it.",
        "bracket.side": "{model} ({size}B)",
        "bracket.nothing": "{model}: no entry for what you asked.",
        "kind.text": "text",
        "kind.vl": "vision-language",
        "kind.moe": "mixture-of-experts (by total size)",
        "note.beyond_context": "{asked} reads at most {context} tokens: {seq_len} is beyond its "
                               "context, so only entries up to {context} are shown.",
        "plan.lead.time": "{subject}: {parts}",
        "plan.lead.deadline": "{subject} within {deadline} h needs {parts}",
        "plan.part.time": "about {hours} h on {flavour} with {count}",
        "plan.part.deadline": "{count} on {flavour} ({hours} h)",
        "plan.part.below": "on {flavour}, {count} is below the table's minimum of {minimum}",
        "plan.inputs": ", for {tokens} tokens at TPS {tps}, efficiency {efficiency}.",
        "plan.inputs.recorded": ", for {tokens} tokens at the recorded TPS, efficiency "
                                "{efficiency}.",
        "plan.missing": "To work out time and cluster size I need {needs}.",
        "plan.needs.tokens": "the data's size in tokens (samples × tokens per sample × epochs, "
                             "or a total)",
        "plan.needs.tps": "the TPS (tokens per second per card; the page says it comes from "
                          "Huawei's benchmark table)",
        "plan.needs.count_or_deadline": "a card count or a deadline",
        "plan.needs.count": "a card count or a deadline at or above the table's minimum",
        "plan.formula.tokens": "Tokens: {tokens}.",
        "plan.formula.tokens_from": "Tokens: {factors} = {tokens}.",
        "plan.formula.samples": "{n} samples",
        "plan.formula.per_sample": "{n} tokens",
        "plan.formula.epochs": "{n} epochs",
        "plan.formula.samples_only": "Tokens: {samples} samples × ? tokens per sample: say how "
                                     "many tokens a sample has.",
        "plan.formula.no_tokens": "Tokens: ? (say the total, or samples and tokens per sample).",
        "plan.formula.t": "tokens",
        "plan.formula.n": "N",
        "plan.formula.count": "{flavour}: count = ceil({tokens} / ({deadline} h × 3,600 × {tps} × "
                              "{efficiency})) = {raw}; {rule}: {amount}.",
        "plan.formula.rule": "above {above} rounded up to a multiple of {above}",
        "plan.formula.rule_unit": "to whole units of {step}",
        "plan.formula.time": "{flavour}: time = {tokens} / ({tps} × {count} × {efficiency}) = "
                             "{hours} h.",
        "plan.formula.minimum": "{flavour}: the table's minimum is {count}, with {framework} at "
                                "{entry}.",
        "note.plan_length_from_samples": "Each sample's {tokens} tokens take the table's "
                                         "{strategy} entries at {shown}, the next listed length "
                                         "up.",
        "plan.formula.tps_data": "TPS recorded in data/tps.toml: {source}.",
        "plan.formula.tps_where": "The page gives no TPS: each model's is in Huawei's benchmark "
                                  "table, measured at a fixed sequence length. Ask with it, e.g. "
                                  "\u201cat TPS 1800\u201d.",
        "plan.formula.efficiency_default": "Efficiency (the page's linear speed-up ratio) is "
                                           "{efficiency} by default; say another, e.g. "
                                           "\u201c95% efficiency\u201d.",
        "note.plan_below_minimum": "On {flavour} the table's minimum is {minimum} {unit} "
                                   "({framework}, {strategy} · {seq_len}); {count} is below it, so "
                                   "no time is given for it.",
        "note.plan_misses_deadline": "On {flavour}, {hours} h is longer than the {deadline} h "
                                     "asked.",
        "note.plan_efficiency_out_of_range": "An efficiency is above 0 and at most 1 (100%); "
                                             "{given} is not, so {used} is used.",
        "estimate.heading": "Estimate, not the table's, for {model} ({size}B{active}, from "
                            "{source}):",
        "estimate.heading_length": "Estimate, not the table's, for {model} at {asked} (the "
                                   "table stops at {longest}):",
        "estimate.growth": "Grown from the table's {longest} rows by what each doubling of the "
                           "length adds on the table's own rows ({growth} per doubling); no "
                           "held-out model measured this.",
        "estimate.growth_one": "{framework} {strategy} ×{factor}",
        "estimate.too_long": "{asked} is more than {times}× the longest length the table lists "
                             "({longest}): an extrapolation, not a number to book a job on.",
        "estimate.active": ", {active}B active",
        "estimate.source.known-models": "the known-models data",
        "estimate.source.config": "its config.json",
        "estimate.source.hub": "its configuration on Hugging Face",
        "estimate.source.hub-search": "its configuration on Hugging Face, found by searching "
                                      "the Hub for the name: check it is the model you meant",
        "estimate.possibly": "{amount}, possibly {high}",
        "estimate.validation": "On the table's own models, held out one at a time, this method is "
                               "exact for {exact}% and within one step (×2) for {within}%.",
        "estimate.validation_nested": "On the table's own models, each held out of the choice "
                                      "of terms and the fit, this method is exact for {exact}%, "
                                      "within one step (×2) for {within}% and under for "
                                      "{under}%.",
        "estimate.line": "{framework} · {strategy} · {lengths}: {counts}",
        "note.no_estimate": "No estimate beyond the table: {reason}.",
        "note.from_settings": "Showing {what}, your settings; name another flavour or framework "
                              "in the question to see it.",
        "estimate.uncovered": "{framework}: the table has no {kind} model to estimate from.",
        "estimate.extrapolated_up": "At {size} it is larger than the models these estimates "
                                    "were fitted on ({fits}): an extrapolation the held-out "
                                    "check never measured; plan with care.",
        "estimate.extrapolated_down": "At {size} it is smaller than the models these estimates "
                                      "were fitted on ({fits}): an extrapolation the held-out "
                                      "check never measured.",
        "estimate.fitted_up": "{framework} up to {size}",
        "estimate.fitted_down": "{framework} from {size}",
        "estimate.kind.vision": "vision",
        "estimate.kind.moe": "mixture-of-experts",
        "estimate.kind.text": "text",
        "estimate.short.where": "{amount} ({where})",
        "estimate.short": "Estimate, not the table's: {amount}; on the table's own models held "
                          "out, exact for {exact}%, within ×2 for {within}%.",
        "estimate.short_length": "Estimate, not the table's: {amount}, grown from the table's "
                                 "{longest} rows{extrapolated}.",
        "estimate.short_extrapolated": ", an extrapolation not to book a job on",
        "estimate.budget": "By estimate, not the table's: {verdict}.",
        "estimate.budget.fits": "{budget} is enough for {what}",
        "estimate.budget.short": "{budget} is not enough for {what} (about {need})",
        "estimate.budget.and": ";",
        "estimate.in_table": "{model} is in the table: its counts are the table's, not an "
                             "estimate (mincards ask \"{model}\").",
        "estimate.stand_in": "{asked} has {model}'s architecture, so the table answers it "
                             "through {model}: its counts are the table's, not an estimate "
                             "(mincards ask \"{question}\").",
        "settings.title": "Settings",
        "settings.mine": "*Your replies* (a question naming a flavour or framework still gets it):",
        "settings.workspace": "*This workspace's defaults* (admins; each person's own settings "
                              "win):",
        "settings.all_flavours": "Every flavour",
        "settings.all_frameworks": "Every framework",
        "settings.language.auto": "Language: as asked",
        "settings.language.en": "Language: English",
        "settings.language.zh": "Language: 中文",
        "settings.length.full": "Replies: full",
        "settings.length.short": "Replies: short",
        "settings.how": "Saved as you change them. `/mincards forget me` clears yours.",
        "settings.modal_title": "mincards settings",
        "settings.done": "Done",
        "settings.not_admin": "Only a workspace admin or owner can change its defaults; "
                              "nothing was saved.",
        "settings.not_saved": "The setting could not be saved just now; try again.",
        "settings.admin_unknown": "Slack did not confirm just now that you are a workspace "
                                  "admin or owner, so its defaults were not changed; try "
                                  "again in a moment.",
        "settings.forgotten": "Your settings are cleared: replies show every flavour and "
                              "framework again.",
        "settings.none": "mincards keeps no settings here (no database).",
        "home.title": "mincards: minimum Ascend cards",
    },
    "zh": {
        "card": "卡",
        "cards": "卡",
        "node": "节点",
        "nodes": "节点",
        "not_supported": "不支持",
        "die_cards": "{die} DIE（{cards} 张卡）",
        "count_nodes": "{count}，{nodes} 个节点",
        "table_name": " · 表中写作 {key}",
        "notes": "说明：",
        "lookup.title": "{model} 最小卡数",
        "ambiguous": "表中有多个模型符合 {asked}，你指的是哪一个？",
        "ambiguous.plain": "表中有多个模型符合，你指的是哪一个？",
        "short.choices": "{choices}？",
        "short.more": "另外 {count} 个",
        "not_found": "表中没有 {asked} 的配置，无法给出卡数。",
        "not_found.plain": "表中没有该模型的配置。",
        "suggest": "表中最接近的模型（是不同的模型，不是答案）：",
        "not_covered": "表中有 {model}，但没有你问的配置。",
        "list.title": "表中的模型（{count} 个）：",
        "list.family": "{family}：{models}",
        "help": "问我微调或训练某个模型需要几张昇腾卡，例如：\n"
                "{examples}\n"
                "写上模型名（Hugging Face 名称、拼写错误都可以），可加{strategies}、序列长度。"
                "我会给出 {frameworks} 在 {flavours} 上的卡数。"
                "发送\u201c模型列表\u201d查看全部模型。",
        "help.slash": "*{command} 怎么用*\n`{command} 千问2.5-72B LoRA 8K` 只回复你，并附一个按钮"
                      "可把答案发到频道。写上模型名（Hugging Face 名称、拼写错误都可以），可加全参"
                      "或 LoRA、序列长度、框架或预算（`8卡够吗`、`16 DIE`），也可以问"
                      "`两台能训练哪些模型`、`qwen3-8b 和 qwen3-14b 对比`。\n"
                      "在频道里 @mincards 提问，我在帖子里回复；私信直接问即可。在那里可以接着问，"
                      "比如 `那LoRA呢`、`8卡够吗`。\n"
                      "`{command} 设置` 选择回复里显示的规格和框架、语言和长度；"
                      "`{command} 忘记我` 清除这些设置。",
        "and": " 和 ",
        "or": " 或 ",
        "sentence_sep": "",
        "colon": "：",
        "semicolon": "；",
        "list_sep": "、",
        "flavour_unit": "{flavour}（{unit}）",
        "card_count": "{n} 张卡",
        "budget.card": "{count} 卡",
        "budget.die": "{count} DIE",
        "budget.node": "{count} 台",
        "budget.ascend": "{count}*Ascend",
        "budget.on": "{flavour} 上 {budget}",
        "room": "{flavour} {amount}",
        "verdict.yes": "可以——{model} {places}。",
        "verdict.no": "不够——{model} {least}。",
        "verdict.mixed": "{fits} 可以：{places}；{misses} 不够——{model}。",
        "verdict.room": "{flavour}（{amount}）",
        "verdict.room.needed": "{flavour}（{amount}，需要 {needed}）",
        "verdict.room.part": "{budget} = {amount}",
        "verdict.no.in": "不够——{model} 在 {rooms}上放不下，{least}。",
        "verdict.either": "，任一框架都可以",
        "verdict.any_framework": "，任一框架都可以",
        "verdict.place": "在 {room}上{frameworks}",
        "verdict.place.only": "在 {room}上只有 {entries} 可以{frameworks}",
        "verdict.not_on": "在 {rooms}上不够",
        "verdict.least": "最少需要 {counts}",
        "verdict.least.on": "{flavour} 上 {count}",
        "verdict.least.entry": "（{entry}）",
        "verdict.least.both": "，都使用 {frameworks}",
        "verdict.least.all": "，都使用 {frameworks}",
        "verdict.with": "，使用 {frameworks}",
        "verdict.none": "{model}：表中没有框架支持你问的配置，任何预算都不适用。",
        "verdict.fits": "可以：{list}",
        "verdict.misses": "不够：{list}",
        "verdict.unsupported": "没有框架支持",
        "on_flavours": "{framework}（{flavours}）",
        "needs": "{flavour} 需要 {count}",
        "capacity.count": "表中 {total} 个模型{filters}：{parts}。",
        "capacity.count.family": "表中 {total} 个 {family} 模型{filters}：{parts}。",
        "capacity.on": "{flavour} 上 {amount} 可训练 {count} 个",
        "capacity.join": "，",
        "capacity.filters": "（{filters}）",
        "capacity.filters.bare": "（{filters}）",
        "capacity.at": "序列长度 {lengths}",
        "capacity.with": "使用 {frameworks}",
        "capacity.misses": "不能训练：{names}。",
        "capacity.more": "……还有 {count} 个：`mincards ask --all` 列出每个模型和配置。",
        "capacity.none": "表中没有模型能在 {budget}（{room}）内按你问的配置训练。",
        "capacity.only": "仅{strategies}",
        "capacity.cell.only": "{amount}（{only}）",
        "capacity.largest": "能放下的最大模型{filters}：{places}。",
        "capacity.largest.family": "能放下的最大 {family} 模型{filters}：{places}。",
        "capacity.largest.on": "在 {rooms}上是 {models}",
        "compare.none": "你问的配置没有所有模型都列出的条目；下面分别列出各模型的卡数。",
        "compare.none.named": "无法比较：{lacking} 没有你问的配置；下面是 {listing} 的配置。",
        "compare.count": "{model} {count}",
        "vs": " 对比 ",
        "note.budget_covers_nothing": "以 {unit} 计的预算不适用于此表的任何规格。",
        "note.stage_strategy": "{why}：按{strategy}回答。",
        "note.stage_bound": "{why}。",
        "price.none": "该表没有价格：用这里的卡数乘以每卡时的价格和训练所需的小时数即可。",
        "price.hours": "该表没有价格；按这里的最少卡数计算：{parts}，再乘以每卡时的价格即可。",
        "price.card_hours": "{flavour} 上 {amount} × {hours} 小时 = {total} 卡时",
        "price.die_hours": "{flavour} 上 {amount} × {hours} 小时 = {total} DIE 时（{cards} 卡时）",
        "note.other_hardware": "该表统计的是 {flavours} 上的昇腾 NPU，没有 {hardware} 的数据："
                               "以下卡数均指昇腾 NPU。",
        "note.other_hardware_budget": "该表统计的是 {flavours} 上的昇腾 NPU，没有 {hardware} 的"
                                      "数据，因此没有用它判断 {amount} 是否够用：以下卡数均指"
                                      "昇腾 NPU。",
        "note.budget_not_positive": "{amount} 不是预算：预算应是正数的卡、DIE 或节点，"
                                    "因此按没有预算回答。",
        "note.no_model": "没有在问题中找到模型名。",
        "note.plan_offer": "想知道要训多久，可以问“要多久”，并给出 TPS 和卡数或期限。",
        "note.suspect_fit": "未计入：{entries} 只有按很可能是源表错误的卡数才放得下。",
        "note.reference": "数据来自 ModelArts 模型最小卡数配置（{date}），仅供参考，"
                          "可按实际任务调整。",
        "note.below_node": "文档建议：小于 {cards} 卡时一般使用 {cards} 卡（一个节点）训练。",
        "note.die_below_unit": "{flavour} 上并行策略以 {unit} {unit_name} 为最小单位，{count} "
                               "{unit_name} 实际按 {unit} {unit_name}（{unit_cards}）规划。",
        "note.suspect_strategy_order": "{framework} 序列长度 {seq_len}：{heavier}所需卡数少于"
                                       "{lighter}，很可能是源表的错误，规划前请核实。",
        "note.one_entry_two_models": "表中 DeepSeek-V3 与 DeepSeek-R1 共用一条配置。",
        "note.assumed": "你没有写明{what}；表中只有 {model} 符合，以下按它回答。",
        "what.version": "版本",
        "what.size": "参数量",
        "what.family": "模型系列",
        "what.join": "或",
        "note.upper_bound": "表中没有序列长度 {asked} 的{strategy}配置；显示的是更长的 {shown}，"
                            "可作为 {asked} 的上限。",
        "note.seq_not_listed": "表中{strategy}最长只列到序列长度 {longest}，没有 {seq_len}。",
        "note.strategy_not_listed": "表中该模型没有{strategies}配置。",
        "note.stage_not_covered": "该表只覆盖 SFT 和预训练（{strategies}），不涉及 {stage}。",
        "note.stage_in_table": "此表中 {frameworks} 支持该训练方式，可以问它们的卡数。",
        "note.stage_elsewhere": "{frameworks} 支持该训练方式，但此版本的表中没有它们的列。",
        "note.framework_not_in_table": "此版本的表（{date}）没有 {frameworks} 的列，因此没有它的"
                                       "卡数。表中的框架是 {has}。",
        "note.flavour_not_in_table": "此版本的表（{date}）没有 {flavours} 规格的列，因此没有它的"
                                     "卡数。表中的规格是 {has}。",
        "note.not_in_version": "{models}：在其他版本的 ModelArts 表中有，但此版本（{date}）没有。",
        "note.table_has": "表中有：{has}。",
        "note.other_mentions": "只回答了第一个模型；其他模型请单独再问：{names}。",
        "note.not_in_table": "",
        "note.other_family": "表中没有这个模型系列。",
        "blocks.share": "发送到频道",
        "blocks.show_all": "显示全部",
        "unfurl.source": "mincards · ModelArts 最少卡数表（{date}）· {site} 上的这个模型",
        "unfurl.ask": "问这个模型",
        "assistant.greeting": "你好！问我微调或训练一个模型要几张昇腾卡：写模型名、"
                              "Hugging Face ID 或链接都行，中英文皆可。"
                              "答案来自 ModelArts 最少卡数表（{date}）。",
        "assistant.prompts.title": "试试这些：",
        "assistant.prompt.lookup.title": "{model} LoRA",
        "assistant.prompt.lookup": "{model} LoRA {seq} 需要几张卡？",
        "assistant.prompt.compare.title": "比较两个尺寸",
        "assistant.prompt.compare": "{a} 和 {b} LoRA 对比",
        "assistant.prompt.fits.title": "一台 {flavour} 能训练什么？",
        "assistant.prompt.fits": "{flavour} 上 {amount} 能训练哪些模型？",
        "assistant.prompt.plan.title": "{model} 全参训练",
        "assistant.prompt.plan": "{model} 全参 4 台够吗？",
        "assistant.status": "正在查表…",
        "step.no_model": "这个步骤需要一个模型：名称、Hugging Face ID 或链接。",
        "step.strategy": "“{strategy}”不是表中的训练方式：全参或 LoRA。",
        "step.seq_len": "序列长度是整数个 token，例如 4096 或 8192。",
        "help.intro": "问我微调或训练某个模型需要几张昇腾卡。",
        "table_has.item": "{strategy}：{lengths}",
        "lead.count": "{amount}（{nodes} 个节点）",
        "lead.nodes": "（{nodes} 个节点）",
        "lead.nodes.also": "（{nodes} 个节点；{also}）",
        "lead.below_unit": "表中列的是 {listed}，低于该单位",
        "lead.suspect": "很可能是源表错误：此处{heavier}比{lighter}还少",
        "lead.only_suspect": "{subject}：没有可以据以规划的卡数——表中 {frameworks} 列出的是"
                             "{listed}，很可能是源表错误（此处{heavier}比{lighter}还少）。",
        "lead.on": "{flavour} 上 {count}",
        "lead.with": "，使用 {where}",
        "lead.with_each": "，使用 {where}",
        "lead.parts_sep": "；",
        "lead.at": "{frameworks}，{entries}",
        "lead.one": "{subject}：{counts}{where}。",
        "lead.several": "{subject} 最少需要：{counts}{where}。",
        "lead.unsupported": "{subject}：表中没有框架支持。",
        "lead.compare.line": "{heading}：{parts}。",
        "lead.compare.same_at": "{at} 一样（{everyone}需要 {counts}）",
        "lead.compare.fewer_at": "{at} {model} 更少：{per}",
        "lead.compare.fewest_at": "{at} {model} 最少：{per}",
        "lead.compare.fewer_at.many": "{at} {model} 更少：{per}",
        "lead.compare.fewest_at.many": "{at} {model} 最少：{per}",
        "lead.compare.mixed_at": "{at} 因规格而异：{per}",
        "lead.compare.on": "{flavour} 上 {counts}",
        "lead.compare.tie_on": "{flavour} 上一样",
        "lead.compare.versus": "{counts} {unit}",
        "lead.compare.vs": " 对 ",
        "lead.compare.no_entry": "{models} 没有 {strategy} 配置",
        "lead.compare.both": "都",
        "lead.compare.all": "都",
        "warn.title": "规划前请注意：",
        "blocks.footer": "ModelArts 模型最小卡数配置，{date} · 表中名称 {key} · "
                         "仅供参考，可按实际任务调整",
        "blocks.footer.plain": "ModelArts 模型最小卡数配置，{date} · 仅供参考，可按实际任务调整",
        "blocks.unsupported": "{frameworks}：以上配置均不支持。",
        "blocks.entries_of": "查看某个模型在此预算下的配置：",
        "cell.head": "{framework} · {flavour}",
        "cell.none_fits": "超出预算",
        "cell.fits": "{count}（够）",
        "cell.over_budget": "{count}（超出预算）",
        "cell.suspect": "{count}（很可能是源表错误）",
        "rows.beside": "不是 {asked} 的配置：表中没有它",
        "rows.suspect": "很可能是源表错误：{cells}",
        "blocks.try": "表中 {model} 有这些配置：",
        "blocks.list_models": "查看模型列表",
        "blocks.pick_model": "选择模型",
        "blocks.pick_model.label": "或直接选择：",
        "blocks.show_rest": "显示其余 {count} 个",
        "blocks.examples": "试试：",
        "blocks.asked_by": "<@{user}> 的提问",
        "feedback.up": "有帮助",
        "feedback.down": "没帮助",
        "example.lookup": "{model} {strategy} {seq} 需要几张卡",
        "example.budget": "{model} {count}卡够吗",
        "example.capacity": "{count}台能训练哪些模型",
        "example.compare": "{a} 和 {b} 对比",
        "home.hello": "*训练一个模型需要几张昇腾卡？* 选择模型，或在任何地方问我。",
        "home.legend": "*卡与 DIE：* {flavours}。",
        "home.legend.card": "{flavour}（{chip}）按卡计，每节点 {per_node} 张",
        "home.legend.die": "{flavour}（{chip}）按 DIE 计：每张卡 {die} 个 DIE，"
                           "每节点 {per_node} 个，即 {per_node} DIE 等于 {cards} 张卡",
        "home.ask": "在频道里 @我（`@mincards 千问2.5-72B LoRA 8K`），私信我，或使用 `/mincards`。"
                    "中英文都可以；Hugging Face 名称、拼写错误都没关系。",
        "home.source": "ModelArts 模型最小卡数配置，{date}：{count} 个模型，{frameworks} · "
                       "仅供参考",
        "modal.title": "最小卡数",
        "modal.submit": "查询",
        "modal.close": "关闭",
        "modal.model": "模型",
        "modal.strategy": "训练方式",
        "modal.seq": "序列长度",
        "modal.budget": "预算",
        "modal.budget.hint": "例如 8卡、2台 或 16 DIE",
        "modal.any": "不限",
        "modal.budget.unread": "请写成 8卡、2台 或 16 DIE 这样的形式。",
        "modal.budget.unit": "{count} 是卡、DIE 还是节点？（例如 {count}卡）",
        "modal.budget.not_positive": "预算应是正数的卡、DIE 或节点。",
        "modal.private": "只有你能看到这个答案。",
        "shortcut.no_text": "这条消息没有可以读出模型名的文字。",
        "stand_in.same": "表中没有 {asked}；它与 {model} 架构相同，{lead}",
        "stand_in.same.verdict": "表中没有 {asked}；它与 {model} 架构相同。{lead}",
        "stand_in.same.none": "表中没有 {asked}；它与 {model} 架构相同，但表中没有 {model} "
                              "符合你所问的配置。",
        "stand_in.quantized": "{asked} 是 {model} 的量化版本：以下卡数是训练全精度权重所需。{lead}",
        "stand_in.source.same_architecture": "为什么是 {model}：两者 config.json 中的层数、"
                                             "隐藏维度、中间维度、注意力头数和词表大小都相同。",
        "stand_in.source.quantized_copy": "为什么是 {model}：量化或转换后的副本以更少的位数存储同一"
                                          "模型的权重，架构不变，训练所需按全精度模型计。",
        "stand_in.reference.after_lead": "以下是 {model} 的配置，仅作最接近的参考。",
        "stand_in.reference": "以下是 {model} 的配置，仅作最接近的参考：表中没有 {asked}。",
        "bracket.same": "它的参数量（{size}）与表中同为{kind}模型的 {models} 相同；下面是"
                        "它们的配置，不是它的表项。",
        "bracket.active": "，激活 {active}B",
        "bracket.between": "它的参数量（{size}）在表中最接近的{kind}模型 {below} 与 {above} "
                           "之间；下面是这两个模型的配置，不是它的表项。",
        "bracket.below_only": "它的参数量（{size}）大于表中所有{kind}模型；最接近的是 {below}，"
                              "不是它的表项。",
        "bracket.above_only": "它的参数量（{size}）小于表中所有{kind}模型；最接近的是 {above}，"
                              "不是它的表项。",
        "bracket.side": "{model}（{size}B）",
        "bracket.nothing": "{model}：没有你所问的配置。",
        "kind.text": "文本",
        "kind.vl": "多模态",
        "kind.moe": "MoE（按总参数量）",
        "note.beyond_context": "{asked} 最多读 {context} 个 token：{seq_len} 超出了它的上下文，"
                               "只显示 {context} 以内的配置。",
        "plan.lead.time": "{subject}：{parts}",
        "plan.lead.deadline": "{subject} 要在 {deadline} 小时内完成，需要 {parts}",
        "plan.part.time": "{flavour} 上 {count}约需 {hours} 小时",
        "plan.part.deadline": "{flavour} 上 {count}，用时 {hours} 小时",
        "plan.part.below": "{flavour} 上 {count}低于表中最少的 {minimum}",
        "plan.inputs": "，按 {tokens} tokens、TPS {tps}、线性加速比 {efficiency} 计算。",
        "plan.inputs.recorded": "，按 {tokens} tokens、记录的 TPS、线性加速比 {efficiency} 计算。",
        "plan.missing": "要估算训练时间和集群规模，还需要{needs}。",
        "plan.needs.tokens": "数据的 token 总数（样本数 × 每条 token 数 × 轮数，或总数）",
        "plan.needs.tps": "TPS（每卡每秒 token 数；页面说它来自华为的基准测试表）",
        "plan.needs.count_or_deadline": "卡数或完成期限",
        "plan.needs.count": "不低于表中最少卡数的卡数或完成期限",
        "plan.formula.tokens": "Token 总数：{tokens}。",
        "plan.formula.tokens_from": "Token 总数：{factors} = {tokens}。",
        "plan.formula.samples": "{n} 条样本",
        "plan.formula.per_sample": "每条 {n} tokens",
        "plan.formula.epochs": "{n} 轮",
        "plan.formula.samples_only": "Token 总数：{samples} 条样本 × 每条 ? tokens：请说明每条样本"
                                     "有多少 token。",
        "plan.formula.no_tokens": "Token 总数：?（请给出总数，或样本数与每条 token 数）。",
        "plan.formula.t": "tokens",
        "plan.formula.n": "卡数",
        "plan.formula.count": "{flavour}：卡数 = 向上取整({tokens} / ({deadline} 小时 × 3,600 × "
                              "{tps} × {efficiency})) = {raw}；{rule}：{amount}。",
        "plan.formula.rule": "大于 {above} 时向上取 {above} 的倍数",
        "plan.formula.rule_unit": "按 {step} 的整数倍取整",
        "plan.formula.time": "{flavour}：时间 = {tokens} / ({tps} × {count} × {efficiency}) = "
                             "{hours} 小时。",
        "plan.formula.minimum": "{flavour}：表中最少 {count}，使用 {framework}，{entry}。",
        "note.plan_length_from_samples": "每条样本 {tokens} tokens，按表中{strategy}序列长度 "
                                         "{shown} 的配置计算（向上取最近的长度）。",
        "plan.formula.tps_data": "TPS 来自 data/tps.toml：{source}。",
        "plan.formula.tps_where": "页面没有给出 TPS：各模型的 TPS 在华为的基准测试表中，按固定序列"
                                  "长度测得。请带上它再问，例如\u201cTPS 1800\u201d。",
        "plan.formula.efficiency_default": "线性加速比默认为 {efficiency}；可以另行说明，例如"
                                           "\u201c线性加速比 0.95\u201d。",
        "note.plan_below_minimum": "{flavour} 上表中最少需要 {minimum} {unit}（{framework}，"
                                   "{strategy} · {seq_len}）；{count} 低于它，因此不给出时间。",
        "note.plan_misses_deadline": "{flavour} 上需要 {hours} 小时，超过了所要求的 {deadline} "
                                     "小时。",
        "note.plan_efficiency_out_of_range": "线性加速比应大于 0 且不超过 1（100%）；{given} 不在"
                                             "此范围内，因此按 {used} 计算。",
        "estimate.heading": "估算（不是表中数据）：{model}（{size}B{active}，来自{source}）：",
        "estimate.heading_length": "估算（不是表中数据）：{model} 在 {asked}（表中最长只到 "
                                   "{longest}）：",
        "estimate.growth": "由表中 {longest} 的行，按表中自身各长度之间每翻一倍长度所增加的比例推算"
                           "（每翻一倍：{growth}）；没有留出模型验证过。",
        "estimate.growth_one": "{framework} {strategy} ×{factor}",
        "estimate.too_long": "{asked} 超过表中最长长度（{longest}）的 {times} 倍：这是外推，"
                             "不宜据此预订任务资源。",
        "estimate.active": "，激活 {active}B",
        "estimate.source.known-models": "已知模型数据",
        "estimate.source.config": "它的 config.json",
        "estimate.source.hub": "它在 Hugging Face 上的配置",
        "estimate.source.hub-search": "在 Hugging Face 上按名称搜索到的配置：请确认是你要的模型",
        "estimate.possibly": "{amount}，可能需要 {high}",
        "estimate.validation": "在表中自身的模型上逐个留出验证：此方法完全一致的占 {exact}%，"
                               "相差一档（2 倍）以内的占 {within}%。",
        "estimate.validation_nested": "在表中自身的模型上逐个留出验证（选项与拟合均不含该模型）："
                                      "此方法完全一致的占 {exact}%，相差一档（2 倍）以内的占 "
                                      "{within}%，偏少的占 {under}%。",
        "estimate.line": "{framework} · {strategy} · {lengths}：{counts}",
        "note.no_estimate": "无法给出表外估算：{reason}。",
        "note.from_settings": "按你的设置只显示 {what}；在问题里写明其他规格或框架即可查看。",
        "estimate.uncovered": "{framework}：表中没有可据以估算的{kind}模型。",
        "estimate.extrapolated_up": "其规模 {size} 大于这些估算所拟合的模型（{fits}）："
                                    "这是外推，留出验证从未覆盖，请谨慎规划。",
        "estimate.extrapolated_down": "其规模 {size} 小于这些估算所拟合的模型（{fits}）："
                                      "这是外推，留出验证从未覆盖。",
        "estimate.fitted_up": "{framework} 最大 {size}",
        "estimate.fitted_down": "{framework} 最小 {size}",
        "estimate.kind.vision": "多模态",
        "estimate.kind.moe": "MoE",
        "estimate.kind.text": "文本",
        "estimate.short.where": "{amount}（{where}）",
        "estimate.short": "估算（不是表中数据）：{amount}；在表中自身模型上留出验证，完全一致 "
                          "{exact}%，2 倍以内 {within}%。",
        "estimate.short_length": "估算（不是表中数据）：{amount}，由表中 {longest} 的行推算"
                                 "{extrapolated}。",
        "estimate.short_extrapolated": "，属外推，不宜据此预订资源",
        "estimate.budget": "按估算（不是表中数据）：{verdict}。",
        "estimate.budget.fits": "{budget}够{what}",
        "estimate.budget.short": "{budget}不够{what}（约需 {need}）",
        "estimate.budget.and": "；",
        "estimate.in_table": "{model} 在表中：它的卡数来自表，不是估算"
                             "（mincards ask \"{model}\"）。",
        "estimate.stand_in": "{asked} 与 {model} 架构相同，表通过 {model} 回答它：卡数来自表，"
                             "不是估算（mincards ask \"{question}\"）。",
        "settings.title": "设置",
        "settings.mine": "*你的回复*（问题里写明的规格或框架仍然优先）：",
        "settings.workspace": "*本工作区的默认设置*（仅管理员；个人设置优先）：",
        "settings.all_flavours": "全部规格",
        "settings.all_frameworks": "全部框架",
        "settings.language.auto": "语言：跟随提问",
        "settings.language.en": "语言：English",
        "settings.language.zh": "语言：中文",
        "settings.length.full": "回复：完整",
        "settings.length.short": "回复：简短",
        "settings.how": "更改后立即保存。`/mincards forget me` 可清除你的设置。",
        "settings.modal_title": "mincards 设置",
        "settings.done": "完成",
        "settings.not_admin": "只有工作区管理员或所有者可以更改默认设置；未保存任何更改。",
        "settings.not_saved": "设置暂时无法保存，请稍后再试。",
        "settings.admin_unknown": "Slack 暂时未能确认你是工作区管理员或所有者，因此未更改默认设置；"
                                  "请稍后再试。",
        "settings.forgotten": "已清除你的设置：回复将重新显示全部规格和框架。",
        "settings.none": "这里的 mincards 不保存设置（没有数据库）。",
        "home.title": "mincards：最小昇腾卡数",
    },
}


def t(language: Language, message: str, **args: object) -> str:
    """A sentence in the language, typeset by the replies' one convention (typography)."""
    return typeset(language, TEXT[language][message].format(**args))
