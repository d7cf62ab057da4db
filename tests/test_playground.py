"""`mincards playground` in a real browser (Playwright driving Debian's Chromium): the page
plays Slack's client against the real bot, so each scenario is what a person would do in
Slack, end to end through signed requests, the bot's Web API calls and the page's drawing."""

from __future__ import annotations

import os
import re
import shutil
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mincards.bot.replies.render_views import HOME_CHOOSE_ACTION
from tests.bot_process import free_port
from tests.playground_process import MINCARDS, playground_env, running_playground
from tests.process_exit import run_to_exit

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="no chromium: `make test` installs Debian's")
TIMEOUT_MS = 15_000


@pytest.fixture(scope="module")
def playground(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_playground(tmp_path_factory.mktemp("playground")) as port:
        yield f"http://127.0.0.1:{port}/"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture()
def page(browser: Any, playground: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    opened.set_default_timeout(TIMEOUT_MS)
    problems: list[str] = []
    opened.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    opened.on("pageerror", lambda e: problems.append(str(e)))
    opened.goto(playground)
    opened.wait_for_selector("#pane-title span")  # drawn once the page's script runs
    yield opened
    context.close()
    assert problems == [], problems  # no JavaScript errors in the console


def say(page: Any, text: str, where: str = "#text") -> None:
    page.fill(where, text)
    page.press(where, "Enter")


def wait_for_message(page: Any, selector: str, text: str) -> None:
    """Until one of the messages `selector` finds shows `text`."""
    page.wait_for_function(
        "([selector, text]) => [...document.querySelectorAll(selector)]"
        ".some(m => m.innerText.includes(text))", arg=[selector, text])


def bot_messages(page: Any, pane: str = "#thread") -> Any:
    return page.locator(f"{pane} .message.bot")


def test_a_mention_is_answered_in_its_thread_and_a_follow_up_continues_it(page: Any) -> None:
    say(page, "@mincards qwen 2.5 72b lora 8k?")
    page.locator("#messages .replies").last.click()
    first = bot_messages(page).first
    first.wait_for()
    assert "Qwen2.5-72B · LoRA · 8K" in first.inner_text()
    assert re.search(r"ack [0-9.]+ ms · reply [0-9.]+ ms", first.inner_text())
    say(page, "@mincards and full?", "#thread-text")
    page.wait_for_function(
        "document.querySelectorAll('#thread .message.bot').length >= 2")
    assert "full-parameter" in bot_messages(page).nth(1).inner_text()


def test_a_button_click_updates_the_message_in_place(page: Any) -> None:
    page.click("#nav-dm")
    say(page, "qwen 7b")
    choice = page.locator("#messages .message.bot").last.locator(".bk-button").first
    choice.wait_for()
    picked = choice.inner_text()
    count = page.locator("#messages .message.bot").count()
    choice.click()
    page.wait_for_function(
        "document.querySelector('#messages .message.bot:last-child') && "
        "document.querySelector('#messages .message.bot:last-child').innerText"
        ".includes('(edited)')")
    assert page.locator("#messages .message.bot").count() == count  # replaced, not added
    assert picked in page.locator("#messages .message.bot").last.inner_text()


def test_the_form_is_submitted_and_answered_in_the_modal(page: Any) -> None:
    page.click("#shortcut")
    page.click("text=Ask mincards")
    modal = page.locator(".modal")
    modal.wait_for()
    modal.locator("select").first.select_option("qwen2.5-72b")
    page.click("#modal-submit")
    page.wait_for_function("document.querySelector('.modal') && "
                           "document.querySelector('.modal').innerText.includes('Qwen2.5-72B')"
                           " && !document.querySelector('#modal-submit')")
    assert "cards" in modal.inner_text()


def test_the_home_tabs_model_menu_answers_there(page: Any) -> None:
    page.click("#nav-home")
    menu = page.locator(f"#home select[data-action-id='{HOME_CHOOSE_ACTION}']")
    menu.wait_for()
    menu.select_option(index=3)
    page.wait_for_function("document.querySelector('#home').innerText.includes('needs at least')"
                           " || document.querySelector('#home').innerText.includes('最少')")


def test_a_chinese_question_gets_a_chinese_reply(page: Any) -> None:
    page.click("#nav-dm")
    say(page, "Qwen/Qwen2.5-72B-Instruct 全参 需要几张卡")
    wait_for_message(page, "#messages .message.bot", "全参")


def test_a_slash_command_answers_privately_and_posts_to_the_channel(page: Any) -> None:
    say(page, "/mincards qwen3-8b lora")
    private = page.locator("#messages .message.bot.ephemeral").last
    private.wait_for()
    assert "Only visible to you" in private.inner_text()
    private.locator(".bk-button", has_text="Post to channel").click()
    wait_for_message(page, "#messages .message.bot:not(.ephemeral)", "Qwen3-8B")


def test_a_model_link_is_unfurled_under_the_message(page: Any) -> None:
    say(page, "look https://huggingface.co/Qwen/Qwen2.5-7B-Instruct")
    card = page.locator("#messages .unfurl").last
    card.wait_for()
    assert "Qwen2.5-7B needs at least" in card.inner_text()


def test_what_anyone_typed_is_shown_as_text(page: Any) -> None:
    page.click("#nav-dm")
    say(page, "<script>window.pwned = 1</script> &lt;b&gt; <img src=x onerror=alert(1)>")
    wait_for_message(page, "#messages .message.you", "<script>window.pwned")
    assert page.evaluate("window.pwned") is None
    assert page.locator("#messages img").count() == 0
    assert "&lt;b&gt;" in page.locator("#messages .message.you").last.inner_text()


def test_the_phone_width_keeps_the_lead_in_view(page: Any) -> None:
    page.set_viewport_size({"width": 420, "height": 900})
    page.check("#phone")
    asked = page.locator("#messages .message.you").count()
    say(page, "@mincards qwen2.5-32b vs qwen2.5-72b lora")
    mine = page.locator("#messages .message.you").nth(asked)  # this test's own question
    mine.locator(".replies").click()
    reply = bot_messages(page).first
    reply.wait_for()
    assert "Qwen2.5-32B" in reply.inner_text()
    assert reply.locator(".block.section").first.is_visible()
    overflow = page.evaluate("""() => [...document.querySelectorAll('#thread .message .block')]
        .filter(b => b.scrollWidth > b.clientWidth + 1).length""")
    assert overflow == 0
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.screenshot(path=str(Path(os.environ.get("TMPDIR", "/tmp")) / "playground-phone.png"))


def test_view_json_shows_what_the_bot_sent(page: Any) -> None:
    page.click("#nav-dm")
    say(page, "qwen3-8b full")
    message = page.locator("#messages .message.bot").last
    message.wait_for()
    message.locator(".json-toggle").click()
    assert '"blocks"' in message.locator(".json").inner_text()


def test_real_slack_tokens_are_refused_in_one_line() -> None:
    run = run_to_exit([str(MINCARDS), "playground", "--port", str(free_port())],
                      env=playground_env(SLACK_BOT_TOKEN="xoxb-real-looking"), capture_output=True,
                      text=True, check=False)
    assert run.returncode == 2 and run.stderr.count("\n") == 1
    assert "never talks to Slack" in run.stderr and "xoxb-real-looking" not in run.stderr


def test_a_port_in_use_is_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = run_to_exit([str(MINCARDS), "playground", "--port", str(port)], env=playground_env(),
                          capture_output=True, text=True, check=False)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        f"mincards playground: port {port} is in use: pass --port with another"]


def test_the_assistant_pane_greets_suggests_and_answers(page: Any) -> None:
    page.click("#nav-dm")
    page.click("#new-assistant")
    page.locator("#thread .message.bot").first.wait_for()
    assert "Ascend NPUs" in page.locator("#thread .message.bot").first.inner_text()
    prompt = page.locator("#prompts .prompt").first
    prompt.wait_for()
    prompt.click()
    page.wait_for_function(
        "document.querySelectorAll('#thread .message.bot').length >= 2")
    page.wait_for_function("document.querySelector('#thread-title').innerText !== 'Assistant'")


def test_unknown_blocks_are_drawn_as_their_json_with_a_warning(browser: Any,
                                                               tmp_path: Path) -> None:
    from tests.conftest import load_module

    previews = load_module(Path(__file__).resolve().parent.parent / "tools" / "previews.py",
                           "previews")
    html = tmp_path / "unknown.html"
    previews.render({"text": "t", "blocks": [
        {"type": "section", "text": {"type": "mrkdwn",
                                     "text": "*known* &lt;script&gt;x&lt;/script&gt;"}},
        {"type": "mystery_block", "payload": "kept"}]}, 600, html)
    shown = browser.new_page()
    shown.goto(html.as_uri())
    assert "not drawn by the playground: block mystery_block" in shown.inner_text(".unknown")
    assert '"payload": "kept"' in shown.inner_text(".unknown pre")
    # Escaped as the bot escapes it, shown as the text it is, never run.
    assert "<script>x</script>" in shown.inner_text(".block.section")
    assert shown.locator("#scene script").count() == 0
    shown.close()
