"""Block Kit as data: every answer keeps to Slack's limits, leads with its number, and leaves no
dead end; every button it offers answers when followed."""

from __future__ import annotations

import json
import math
import re
from typing import Any

import pytest

from mincards.bot.answering.engine import Engine
from mincards.bot.answering.followup import FollowUp
from mincards.bot.replies.feedback import Feedback
from mincards.bot.replies.render_blocks import (
    CHOOSE_ACTION,
    FEEDBACK_ACTION,
    FOLLOW_ACTION,
    PICK_ACTION,
    SHARE_ACTION,
    message,
)
from mincards.bot.replies.render_entries import stressed
from mincards.bot.replies.render_text import render_text
from mincards.bot.replies.slack_limits import limits
from tests import oracle
from tests.blockkit import assert_valid_message, shown

QUESTIONS = [
    "list", "模型列表", "help", "帮助", "", "qwen 7b", "千问3", "qwen", "qwen2.5-3b", "gpt-4o",
    "mixtral lora", "qwen2.5-7b dpo", "llama3.1-70b full 4k on llama-factory snt9b23",
    "x" * 40000, "<!channel> " * 500, "qwen2.5-72b", "千问2.5-72B 全参", "what fits on 2 nodes",
    "两台能训练哪些模型", "qwen2.5-32b vs qwen2.5-72b", "qwen3-8b 和 qwen3-14b 对比",
    "qwen2.5-72b lora 8k on 8 cards", "glm4 9b 全参 8k 8卡够吗", "qwen2.5-72b lora 128k",
    "mixtral 全参 on verl", "qwen2.5-72b lora on snt9c",
    # models the table does not list, and plans
    "DeepSeek-R1-Distill-Qwen-32B full", "Qwen2.5-Math-72B lora 8k", "QwQ-32B 16卡够吗",
    "qwen2.5:72b-instruct-q4_K_M lora", "Gemma-3-12B full", "llama 3.1 405b", "Qwen2-VL-32B",
    "how long will qwen2.5-72b lora take on 32 cards, 1M samples of 2k tokens, 3 epochs at "
    "TPS 1800?", "千问2.5-72B LoRA 20亿 tokens 吞吐 1500 两天内需要几张卡",
    "qwen2.5-7b lora 要多久", "qwen2.5-72b lora on 2 cards, 1B tokens, TPS 1000",
    "QwQ-32B lora, 1B tokens, TPS 2000, within 1 day",
]


def shown_text(payload: dict[str, Any]) -> list[str]:
    return shown(payload)


def elements(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for b in blocks:
        out += b.get("elements", []) if b["type"] in ("actions", "context_actions") else []
        if "accessory" in b:
            out.append(b["accessory"])
    return out


def follow_ups(blocks: list[dict[str, Any]]) -> list[tuple[str, FollowUp]]:
    """(label, what it asks) for every button and menu option that asks again."""
    out = []
    for e in elements(blocks):
        if e["type"] == "button" and e["action_id"] != SHARE_ACTION:
            follow = FollowUp.decode(e["value"])
            assert follow is not None, e
            out.append((e["text"]["text"], follow))
        if e["type"] == "static_select":
            for o in e.get("options") or [o for g in e["option_groups"] for o in g["options"]]:
                follow = FollowUp.decode(o["value"])
                assert follow is not None, o
                out.append((o["text"]["text"], follow))
    return out


@pytest.mark.parametrize("text", QUESTIONS)
def test_every_intent_fits_and_pings_nobody(engine: Engine, text: str) -> None:
    payload = message(engine.knowledge, engine.ask(text), question=text, shareable=True)
    assert_valid_message(payload)
    shown = " ".join(shown_text(payload))
    assert "<!channel>" not in shown and "<!here" not in shown


@pytest.mark.parametrize("text", QUESTIONS)
def test_the_text_is_the_first_sentence_not_the_whole_answer(engine: Engine, text: str) -> None:
    answer = engine.ask(text)
    payload = message(engine.knowledge, answer, question=text)
    first = payload["blocks"][0]
    assert first["type"] == "section"
    said, shown = payload["text"].replace("*", ""), first["text"]["text"].replace("*", "")
    # A "which one?" notification also names the choices (the blocks show them as buttons).
    assert said.startswith(shown) if answer.intent == "ambiguous" else said in shown
    # One sentence; a comparison with no strategy named says one short line per strategy.
    lines = payload["text"].split("\n")
    assert all(len(line) < 400 for line in lines)
    assert len(lines) == 1 or (answer.intent == "compare" and not answer.strategies
                               and len(lines) == len({s.strategy for s in answer.comparison}))


def test_every_model_leads_with_its_fewest_on_each_flavour(engine: Engine) -> None:
    """Checked against the data files read without the bot's code."""
    names = engine.knowledge.catalogue
    for key in engine.knowledge.table.models():
        answer = engine.ask(key)
        payload = message(engine.knowledge, answer, question=key, shareable=True)
        assert_valid_message(payload)
        lead = payload["text"]
        assert lead.startswith(names[key].display)
        rows = [r for r in oracle.rows() if r.model == key]
        for flavour, info in oracle.flavours().items():
            counts = [c for r in rows for (fw, fl), c in r.counts.items()
                      if fl == flavour and c is not None and not oracle.suspect(r, fw, fl)]
            if counts:
                low = min(counts)
                unit = "DIE" if info.get("die_per_card") else "card"
                assert re.search(rf"\b{low} {unit}s?\b", lead), (key, flavour, lead)
                nodes = math.ceil(low / int(info["per_node"]))  # type: ignore[call-overload]
                assert f"({nodes} node" in lead, (key, flavour, lead)
        # Every entry below the lead and above the feedback buttons, in lines a phone wraps:
        # no table block (Slack draws it below everything, and cuts it at phone width).
        kinds = [b["type"] for b in payload["blocks"]]
        assert "table" not in kinds
        numbers = " ".join(shown_text({"blocks": payload["blocks"][1:kinds.index(
            "context_actions")]}))
        for e in answer.rows:
            assert f"{e.seq_len // 1024}K" in numbers, (key, e.key)


def test_one_number_is_never_picked_across_flavours(engine: Engine) -> None:
    lead = message(engine.knowledge, engine.ask("qwen2.5-72b lora 8k"))["text"]
    assert lead == ("Qwen2.5-72B · LoRA · 8K: 16 cards (2 nodes) on Snt9B, 16 DIE (1 node) on "
                    "Snt9B23, with MindSpeed-LLM.")


def test_lines_only_for_frameworks_that_answer_and_the_others_said_once(
        engine: Engine) -> None:
    answer = engine.ask("internvl2.5-78b")
    blocks = message(engine.knowledge, answer)["blocks"]
    supporting = {fw for e in answer.rows for fw in engine.knowledge.table.framework_ids
                  if e.supports(fw)}
    headings = [line for b in blocks if b["type"] == "section" and "text" in b
                for line in b["text"]["text"].split("\n") if line.startswith("*")]
    for fw in engine.knowledge.table.framework_ids:
        name = engine.knowledge.framework_names[fw]
        said = [line for line in headings if name in line]
        if fw in supporting:
            assert said
        else:
            assert not said
            assert sum(name in s and "not supported" in s
                       for s in shown_text({"blocks": blocks})) == 1


def test_warnings_stand_apart_and_are_said_once(engine: Engine) -> None:
    payload = message(engine.knowledge, engine.ask("qwen2.5-72b lora 6000"))
    sections = [b["text"]["text"] for b in payload["blocks"] if b["type"] == "section"
                and "text" in b]
    warning = next(s for s in sections if s.startswith("*Before you plan on it:*"))
    assert "upper bound" in warning
    everything = json.dumps(payload["blocks"])
    assert everything.count("upper bound") == 1
    footer = [b for b in payload["blocks"] if b["type"] == "context"][-1]
    assert "reference only" in footer["elements"][-1]["text"]


def test_not_covered_offers_what_the_table_has_and_each_offer_answers(engine: Engine) -> None:
    for text, expected in (("mixtral lora", {("full", None)}),
                           ("qwen2.5-72b lora 128k on llama-factory",
                            {("lora", 4096), ("lora", 8192)})):
        answer = engine.ask(text)
        assert answer.intent == "not_covered"
        offers = follow_ups(message(engine.knowledge, answer)["blocks"])
        assert offers
        got = set()
        for _, follow in offers:
            follow = FollowUp.decode(follow.encode())
            assert follow is not None
            again = engine.follow(follow)
            assert again.intent == "lookup" and again.models == answer.models
            assert again.frameworks == answer.frameworks
            for e in again.rows:
                got.add((e.strategy, e.seq_len if follow.seq_lens else None))
        assert got == expected


def test_not_found_offers_the_list_and_the_nearest_by_size(engine: Engine) -> None:
    answer = engine.ask("qwen2.5-3b")
    offers = follow_ups(message(engine.knowledge, answer)["blocks"])
    picked = [f.model for _, f in offers if f.model]
    sizes = oracle.sizes()
    # Same family and version, nearest size by ratio first.
    assert picked == sorted(picked, key=lambda m: abs(math.log(sizes[m] / 3)))
    assert picked[0] == "qwen2.5-7b"
    (listing,) = [f for _, f in offers if f.show == "list"]
    assert engine.follow(listing).intent == "list"
    gpt = follow_ups(message(engine.knowledge, engine.ask("gpt-4o"))["blocks"])
    assert [f.show for _, f in gpt] == ["list"]


def test_the_list_offers_a_menu_of_every_model(engine: Engine) -> None:
    for text in ("list", "模型列表"):
        answer = engine.ask(text)
        blocks = message(engine.knowledge, answer)["blocks"]
        menus = [e for e in elements(blocks) if e["type"] == "static_select"]
        assert [m["action_id"] for m in menus] == [CHOOSE_ACTION]
        offers = follow_ups(blocks)
        assert {f.model for _, f in offers} == set(engine.knowledge.table.models())
        for label, follow in offers:
            again = engine.follow(follow)
            assert again.intent == "lookup" and again.language == answer.language
            assert engine.knowledge.catalogue[again.models[0]].display == label


def test_help_offers_examples_that_answer(engine: Engine) -> None:
    for text in ("help", "帮助"):
        answer = engine.ask(text)
        offers = follow_ups(message(engine.knowledge, answer)["blocks"])
        assert 2 <= len(offers) <= limits().max_examples
        kinds = set()
        for label, follow in offers:
            assert follow.text == label
            again = engine.follow(follow)
            assert again.language == answer.language
            assert again.intent in ("lookup", "compare", "capacity"), label
            kinds.add(again.intent)
        assert kinds == {"lookup", "compare", "capacity"}


def test_a_long_capacity_list_offers_the_rest_page_by_page(engine: Engine) -> None:
    answer = engine.ask("what fits on 4 nodes")
    assert len(answer.models) > limits().max_capacity_models
    seen: list[str] = []
    page = 0
    for _ in range(len(answer.models)):
        payload = message(engine.knowledge, answer, page=page)
        assert_valid_message(payload)
        bullets = [line for b in payload["blocks"][1:] if b["type"] == "section" and "text" in b
                   and not b["text"]["text"].startswith("*")  # the warnings
                   for line in b["text"]["text"].split("\n") if line.startswith("• ")]
        assert 0 < len(bullets) <= limits().max_capacity_models
        seen += [line.removeprefix("• ").split(":")[0] for line in bullets]
        rest = [f for label, f in follow_ups(payload["blocks"]) if "other" in label]
        if not rest:
            break
        (follow,) = rest
        again = engine.follow(FollowUp.decode(follow.encode()) or follow)
        assert again.models == answer.models
        page = follow.page
    names = [engine.knowledge.catalogue[m].display for m in answer.models]
    assert seen == names


def test_a_vote_is_kept_for_every_model_key_of_the_table(engine: Engine) -> None:
    for key in [*oracle.table_models(), *oracle.catalogue()]:
        for vote in ("up", "down"):
            sent = Feedback("lookup", key, vote)  # type: ignore[arg-type]
            assert Feedback.decode(sent.encode()) == sent, key
    for text in ("DeepSeek-V3/R1 lora", "Qwen3-30B-A3B full"):
        answer = engine.ask(text)
        blocks = message(engine.knowledge, answer, question=text)["blocks"]
        (buttons,) = [e for e in elements(blocks) if e["type"] == "feedback_buttons"]
        got = Feedback.decode(buttons["positive_button"]["value"])
        assert got == Feedback("lookup", answer.models[0], "up")


def test_feedback_says_what_was_answered_never_the_words(engine: Engine) -> None:
    for text in ("qwen2.5-72b lora 8k", "what fits on 2 nodes", "qwen2.5-32b vs qwen2.5-72b"):
        answer = engine.ask(text)
        blocks = message(engine.knowledge, answer, question=text)["blocks"]
        (buttons,) = [e for e in elements(blocks) if e["type"] == "feedback_buttons"]
        assert buttons["action_id"] == FEEDBACK_ACTION
        for half, vote in (("positive_button", "up"), ("negative_button", "down")):
            got = Feedback.decode(buttons[half]["value"])
            assert got == Feedback(answer.intent, answer.models[0] if answer.models else "",
                                   vote)
            assert text not in buttons[half]["value"]
    assert Feedback.decode('{"k":"lookup","m":"<!channel>","v":"up"}') is None
    assert Feedback.decode("not json") is None


@pytest.mark.parametrize("text", ["千问3", "qwen", "qwen lora 8k on 16 cards with llama-factory "
                                                 "on snt9b23"])
def test_many_candidates_are_all_one_click_away(engine: Engine, text: str) -> None:
    answer = engine.ask(text)
    assert len(answer.candidates) > limits().max_choice_buttons
    message_ = message(engine.knowledge, answer)
    assert_valid_message(message_)
    offers = follow_ups(message_["blocks"])
    # Every candidate, in the order offered (plain models first), none left as text to retype.
    assert [f.model for _, f in offers] == list(answer.candidates)
    for _, follow in offers:
        again = engine.follow(follow)
        assert again.models == (follow.model,)
        assert (again.strategies, again.seq_lens, again.frameworks) == (
            answer.strategies, answer.seq_lens, answer.frameworks)
    assert "Also fits" not in json.dumps(message_, ensure_ascii=False)


def test_many_candidates_are_a_menu_when_its_values_hold_them(engine: Engine) -> None:
    blocks = message(engine.knowledge, engine.ask("qwen"))["blocks"]
    menus = [e for e in elements(blocks) if e["type"] == "static_select"]
    assert len(menus) == 1 and not [e for e in elements(blocks) if e["type"] == "button"
                                    and e["action_id"].startswith(PICK_ACTION)]


def test_choice_buttons_keep_the_question_narrowing(engine: Engine) -> None:
    answer = engine.ask("qwen 7b lora 8k on llama-factory")
    offers = follow_ups(message(engine.knowledge, answer)["blocks"])
    assert {f.model for _, f in offers} == {"qwen2-7b", "qwen2.5-7b", "qwen2vl-7b",
                                            "qwen2.5_vl-7b"}
    for _, f in offers:
        assert (f.strategies, f.seq_lens, f.frameworks) == (("lora",), (8192,),
                                                            ("llama_factory",))


def test_share_button_only_when_asked_for_and_a_shared_post_says_who_asked(
        engine: Engine) -> None:
    answer = engine.ask("qwen2.5-72b")
    assert SHARE_ACTION not in json.dumps(message(engine.knowledge, answer))
    shareable = message(engine.knowledge, answer, question="q", shareable=True)["blocks"]
    assert SHARE_ACTION in json.dumps(shareable)
    # The answer, its feedback, then the share button: the numbers above every button.
    assert [b["type"] for b in shareable[-2:]] == ["context_actions", "actions"]
    shared = message(engine.knowledge, answer, asked_by="U123ABC")
    assert "Asked by <@U123ABC>" in json.dumps(shared["blocks"])
    forged = message(engine.knowledge, answer, asked_by="U1><!channel>")
    assert "<!channel>" not in json.dumps(forged["blocks"])


def test_follow_buttons_are_numbered_apart(engine: Engine) -> None:
    for text in ("help", "qwen2.5-72b lora 128k", "qwen2.5-3b"):
        blocks = message(engine.knowledge, engine.ask(text))["blocks"]
        ids = [e["action_id"] for e in elements(blocks) if e["type"] == "button"]
        assert len(ids) == len(set(ids))
        assert all(re.fullmatch(rf"({FOLLOW_ACTION}|{PICK_ACTION})_\d+", i) for i in ids)


@pytest.mark.parametrize("question", [
    "what is " + '"\\\u0001' * 900 + " qwen", "list " + "千问" * 1500, "help " + "x" * 5000])
def test_button_values_stay_whole_json_within_slacks_limit(engine: Engine, question: str) -> None:
    answer = engine.ask(question)
    blocks = message(engine.knowledge, answer, question=question, shareable=True)["blocks"]
    values = [e["value"] for e in elements(blocks) if e["type"] == "button"]
    assert values
    for value in values:
        assert len(value) <= 2000
        follow = FollowUp.decode(value)
        assert follow is not None and follow.language == answer.language
        if follow.text is not None and follow.model is None and follow.show is None:
            assert question.startswith(follow.text) or follow.text in shown_text(
                {"blocks": blocks})


def test_buttons_written_by_the_first_release_still_work(engine: Engine) -> None:
    old = FollowUp.decode('{"l":"en","m":"qwen2.5-72b","s":["lora"],"q":[8192]}')
    assert old is not None
    answer = engine.follow(old)
    assert [e.key for e in answer.rows] == [("qwen2.5-72b", "lora", 8192)]


def test_a_comparison_leads_with_who_needs_fewer_and_by_how_much(engine: Engine) -> None:
    answer = engine.ask("qwen2.5-32b vs qwen2.5-72b lora")
    lead = message(engine.knowledge, answer)["text"].replace("*", "")
    # The strategy, then length by length: who needs fewer and both counts, fewer first.
    assert lead.startswith("LoRA: Qwen2.5-32B needs fewer at 4K")
    for flavour, unit in (("snt9b", "cards"), ("snt9b23", "DIE")):
        counts = sorted(oracle.fewest(oracle.select(m, "lora", 4096)[0], flavour)
                        for m in ("qwen2.5-32b", "qwen2.5-72b"))
        assert f"{counts[0]} vs {counts[1]} {unit}" in lead
    # Both names in the notification, which stands alone.
    assert "Qwen2.5-32B" in lead


def test_a_tie_is_said_once_and_stresses_nothing(engine: Engine) -> None:
    answer = engine.ask("qwen2.5-32b vs qwen2.5-72b lora 8k")
    payload = message(engine.knowledge, answer)
    assert payload["text"].startswith("LoRA: the same at 8K (both need")
    # Asked by strategy and length, the rows are shown, and nothing is stressed in a tie.
    numbers = [line for b in payload["blocks"][1:] if b["type"] == "section"
               for line in b["text"]["text"].split("\n") if not line.startswith("*")]
    assert numbers and all("LoRA · 8K" in line for line in numbers if line)
    assert not [line for line in numbers if "*" in line]


@pytest.mark.parametrize(("text", "lines"), [
    ("which is cheaper to lora, qwen3-32b or qwen2.5-32b?",
     ["LoRA: the same at 4K (both need 8 cards on Snt9B, 8 DIE on Snt9B23); Qwen3-32B needs "
      "fewer at 8K: 8 vs 16 cards on Snt9B, 8 vs 16 DIE on Snt9B23."]),
    ("qwen3-8b 和 qwen3-14b 对比",
     ["全参：4K 和 8K 一样（都需要 Snt9B 上 8 张卡、Snt9B23 上 8 DIE）。",
      "LoRA：4K 和 8K 一样（都需要 Snt9B 上 8 张卡、Snt9B23 上 8 DIE）。"]),
])
def test_a_comparison_says_the_same_once_and_where_they_differ(
        engine: Engine, text: str, lines: list[str]) -> None:
    answer = engine.ask(text)
    assert message(engine.knowledge, answer)["text"].replace("*", "").split("\n") == lines
    body = render_text(engine.knowledge, answer)
    # Rows only for what differs: a comparison that is the same everywhere is its lead.
    assert len(body.splitlines()) <= 24
    assert len(set(body.splitlines()) - {""}) == len([x for x in body.splitlines() if x])


def test_a_strategy_one_model_lacks_compares_the_others_and_names_it(engine: Engine) -> None:
    answer = engine.ask("mixtral vs qwen2.5-32b vs qwen3-32b")
    lead = message(engine.knowledge, answer)["text"]
    lora = next(x for x in lead.split("\n") if x.startswith("LoRA"))
    assert "Mixtral-8x7B lists no LoRA entry" in lora and "Qwen3-32B needs fewer at 8K" in lora


def test_unnamed_strategies_get_a_line_each_and_bold_only_where_they_differ(
        engine: Engine) -> None:
    answer = engine.ask("qwen2.5-7b vs qwen2-7b")
    text = message(engine.knowledge, answer)["text"]
    assert [line.split(":")[0].split("：")[0] for line in text.split("\n")] == [
        "full-parameter", "LoRA"]


@pytest.mark.parametrize(("text", "flavour"), [("llama3.2-1b lora", "Snt9B23"),
                                               ("qwen2vl-2b lora", "Snt9B23")])
def test_a_count_below_the_unit_is_never_the_bold_number(engine: Engine, text: str,
                                                         flavour: str) -> None:
    answer = engine.ask(text)
    payload = message(engine.knowledge, answer)
    lead_text = payload["blocks"][0]["text"]["text"]
    # One parenthesis: "*2 DIE* (1 node; the table lists 1 DIE, below that unit)".
    assert "*1 DIE" not in lead_text and "*2 DIE* (1 node; the table lists 1 DIE" in lead_text
    assert "the table lists 1 DIE" in payload["text"]  # the notification says it too
    # Said once: not again among the warnings.
    shown = json.dumps(payload["blocks"], ensure_ascii=False)
    assert "below the 2-DIE unit" not in shown


def test_a_likely_source_error_is_never_the_bold_number(engine: Engine) -> None:
    answer = engine.ask("qwen2-7b")
    blocks = message(engine.knowledge, answer)["blocks"]
    lead_text = blocks[0]["text"]["text"]
    # The lead's fewest is a count to plan on (MindSpeed-LLM's 4), never Llama-Factory's 1.
    assert "*1 card" not in lead_text and "*4 cards (1 node)*" in lead_text
    shown = json.dumps(blocks, ensure_ascii=False)
    assert "likely a source error" in shown and "*1 · 1 node" not in shown


@pytest.mark.parametrize(("text", "frameworks"), [
    # Llama-Factory lists 1 DIE, taken as the 2-DIE unit: a tie with MindSpeed-LLM's 2 DIE.
    ("llama3.2-1b full on snt9b23 how many die", "MindSpeed-LLM or Llama-Factory"),
    ("llama 3.2 1b 全参 9b23 要几个die", "MindSpeed-LLM 或 Llama-Factory"),
])
def test_a_tie_in_practice_names_every_framework(engine: Engine, text: str,
                                                 frameworks: str) -> None:
    answer = engine.ask(text)
    payload = message(engine.knowledge, answer)
    assert frameworks in payload["blocks"][0]["text"]["text"]
    # Both frameworks' cells are stressed, as the lead names both.
    strong = stressed(engine.knowledge, answer, answer.rows)
    assert {fw for _, fw, fl in strong if fl == "snt9b23"} == {"mindspeed_llm",
                                                              "llama_factory"}
