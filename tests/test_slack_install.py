"""Installation by any workspace, end to end over HTTP: the real app under gunicorn with OAuth
credentials instead of a bot token, the emulator's oauth.v2.access, the state cookie a browser
keeps, two workspaces each answered with its own token, a forged or reused state, a denial, and
an uninstall that deletes the workspace's installation and settings."""

from __future__ import annotations

import json
import re
import sqlite3
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.bot_process import Bot, running_bot
from tests.conftest import assert_no_secrets
from tests.slack_emulator import SlackEmulator
from tests.slack_sender import SlackSender, event_callback, mention

CLIENT_SECRET = "oauth-client-secret-do-not-leak"
STATE_SECRET = "oauth-state-secret-do-not-leak"
# A Fernet key for the tokens stored per workspace (SLACK_TOKEN_KEYS).
TOKEN_KEY = "bWluY2FyZHMtdGVzdHMtdG9rZW4ta2V5LTMyYnl0ZXM="


@pytest.fixture(scope="module")
def bot(emulator: SlackEmulator, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bot]:
    folder = tmp_path_factory.mktemp("bot")
    env = {"SLACK_BOT_TOKEN": "", "SLACK_CLIENT_ID": "1111.2222",
           "SLACK_CLIENT_SECRET": CLIENT_SECRET, "SLACK_TOKEN_KEYS": TOKEN_KEY,
           # No longer used: accepted, with a warning (an older deployment's environment).
           "SLACK_STATE_SECRET": STATE_SECRET}
    with running_bot(emulator, folder, extra_env=env) as running:
        yield running
    assert_no_secrets(running, emulator)
    log = running.log_text()
    assert CLIENT_SECRET not in log and STATE_SECRET not in log and TOKEN_KEY not in log
    assert "SLACK_STATE_SECRET is not used" in log
    # No OAuth code the tests handed Slack's redirect (all named code-...) reached the log.
    assert [line for line in log.splitlines() if re.search(r"code-[a-z0-9]+", line)] == []


class Browser:
    """A person's browser: it keeps the bot's cookies between the install page and the
    redirect back from Slack (Bolt marks its state cookie Secure; on loopback's plain HTTP
    this browser sends it back all the same, as one on the deployed HTTPS site would)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookies: dict[str, str] = {}

    def get(self, path: str) -> tuple[int, str]:
        request = urllib.request.Request(self.base + path)
        if self.cookies:
            request.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                self._keep(response.headers.get_all("Set-Cookie") or [])
                return response.status, response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as exc:
            self._keep(exc.headers.get_all("Set-Cookie") or [])
            return exc.code, exc.read().decode("utf-8", "replace")

    def _keep(self, lines: list[str]) -> None:
        for line in lines:
            name, _, rest = line.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]

    def install(self, emulator: SlackEmulator, team: str, code: str) -> tuple[int, str]:
        status, page = self.get("/slack/install")
        assert status == 200, page
        state = re.search(r"state=([A-Za-z0-9_-]+)", page)
        assert state is not None, page
        emulator.oauth_codes[code] = team
        return self.get(f"/slack/oauth_redirect?code={code}&state={state.group(1)}")


def for_team(event: dict[str, object], team: str) -> dict[str, object]:
    """An event as Slack sends it for a workspace (its team id in each place Slack puts it)."""
    event["team"] = team
    body = event_callback(event)
    body["team_id"] = team
    body["authorizations"] = [{"team_id": team, "user_id": "UBOT", "is_bot": True}]
    return body


def ask(slack: SlackSender, emulator: SlackEmulator, team: str, text: str) -> list[Any]:
    emulator.reset()
    slack.post(json.dumps(for_team(mention(text), team)), "application/json")
    return emulator.wait_for("chat.postMessage", timeout=10)


def installations(bot: Bot) -> set[str]:
    database = Path(bot.log).parent / "state" / "mincards" / "mincards.db"
    with sqlite3.connect(database) as conn:
        return {row[0] for row in conn.execute("SELECT team_id FROM slack_installations")}


def test_two_workspaces_install_and_are_answered_with_their_own_tokens(
        bot: Bot, slack: SlackSender, emulator: SlackEmulator) -> None:
    for team, code in (("TA001", "code-a"), ("TB002", "code-b")):
        status, page = Browser(bot.base_url).install(emulator, team, code)
        assert status == 200, page
    assert installations(bot) >= {"TA001", "TB002"}
    for team in ("TA001", "TB002"):
        (call,) = ask(slack, emulator, team, "qwen 2.5 72b lora 8k?")
        token = call.headers["authorization"].removeprefix("Bearer ")
        assert emulator.issued[token] == team


def test_a_forged_reused_or_denied_state_installs_nothing(
        bot: Bot, emulator: SlackEmulator) -> None:
    before = installations(bot)
    # A state this bot never gave.
    emulator.oauth_codes["code-x"] = "TX009"
    status, page = Browser(bot.base_url).get("/slack/oauth_redirect?code=code-x&state=forged")
    assert status >= 400 and "Something Went Wrong" in page
    # A person who declines on Slack's page.
    denied = Browser(bot.base_url)
    _, install_page = denied.get("/slack/install")
    state = re.search(r"state=([A-Za-z0-9_-]+)", install_page)
    assert state is not None
    _, page = denied.get(f"/slack/oauth_redirect?error=access_denied&state={state.group(1)}")
    assert "access_denied" in page or "Something Went Wrong" in page
    # A redirect replayed after it installed once: its state is spent.
    browser = Browser(bot.base_url)
    _, install_page = browser.get("/slack/install")
    state = re.search(r"state=([A-Za-z0-9_-]+)", install_page)
    assert state is not None
    emulator.oauth_codes["code-y"] = "TY010"
    ok, _ = browser.get(f"/slack/oauth_redirect?code=code-y&state={state.group(1)}")
    assert ok == 200
    emulator.oauth_codes["code-z"] = "TZ011"
    again, _ = browser.get(f"/slack/oauth_redirect?code=code-z&state={state.group(1)}")
    assert again >= 400
    assert installations(bot) == before | {"TY010"}


def rows(bot: Bot, table: str, team: str) -> int:
    database = Path(bot.log).parent / "state" / "mincards" / "mincards.db"
    with sqlite3.connect(database) as conn:
        return int(conn.execute(f"SELECT count(*) FROM {table} WHERE team_id = ?",
                                (team,)).fetchone()[0])


@pytest.mark.parametrize(("team", "code", "event"), [
    ("TU012", "code-u", {"type": "app_uninstalled"}),
    ("TV016", "code-v", {"type": "tokens_revoked", "tokens": {"bot": ["UBOT"]}})])
def test_uninstall_deletes_the_installation_and_its_settings(
        bot: Bot, slack: SlackSender, emulator: SlackEmulator, team: str, code: str,
        event: dict[str, object]) -> None:
    from tests.test_slack_preferences import change

    ok, _ = Browser(bot.base_url).install(emulator, team, code)
    assert ok == 200 and team in installations(bot)
    emulator.reset()
    slack.action(change("flavours", ["snt9b23"], user="U0001", team=team))
    emulator.wait_for("views.publish")
    assert rows(bot, "preferences", team) == 1
    emulator.reset()
    body = for_team({**event, "event_ts": "1700000000.5"}, team)
    assert slack.post(json.dumps(body), "application/json").status == 200
    for _ in range(50):
        if team not in installations(bot):
            break
        time.sleep(0.1)
    assert team not in installations(bot)
    assert rows(bot, "slack_bots", team) == 0 and rows(bot, "preferences", team) == 0
    # Its events are now acknowledged quietly, never answered.
    emulator.reset()
    body = for_team(mention("qwen 2.5 72b lora 8k?"), team)
    assert slack.post(json.dumps(body), "application/json").status == 200
    time.sleep(0.5)
    assert emulator.of("chat.postMessage") == []


def test_each_workspaces_settings_stay_its_own(bot: Bot, slack: SlackSender,
                                               emulator: SlackEmulator) -> None:
    """The same person id in two installed workspaces: a setting made in one narrows replies
    there only, and is written with that workspace's own token."""
    from tests.test_slack_preferences import change

    for team, code in (("TC013", "code-c"), ("TD014", "code-d")):
        assert Browser(bot.base_url).install(emulator, team, code)[0] == 200
    emulator.reset()
    slack.action(change("flavours", ["snt9b23"], user="U0001", team="TC013"))
    (published,) = emulator.wait_for("views.publish")
    token = published.headers["authorization"].removeprefix("Bearer ")
    assert emulator.issued[token] == "TC013"
    (mine,) = ask(slack, emulator, "TC013", "qwen2.5-72b lora 8k")
    assert "Showing Snt9B23, your settings" in json.dumps(mine.params, ensure_ascii=False)
    (theirs,) = ask(slack, emulator, "TD014", "qwen2.5-72b lora 8k")
    assert "your settings" not in json.dumps(theirs.params, ensure_ascii=False)


def test_a_rotating_token_is_refreshed_before_it_expires(bot: Bot, slack: SlackSender,
                                                        emulator: SlackEmulator) -> None:
    """With token rotation, a bot token that expires within the hour is refreshed (Slack's
    refresh grant) before it is used, and the reply goes out with the new token."""
    emulator.token_lifetime = 600  # ten minutes: inside the refresh window
    try:
        assert Browser(bot.base_url).install(emulator, "TR015", "code-r")[0] == 200
        first = {t for t, team in emulator.issued.items() if team == "TR015"}
        (call,) = ask(slack, emulator, "TR015", "qwen 2.5 72b lora 8k?")
        used = call.headers["authorization"].removeprefix("Bearer ")
        assert emulator.issued[used] == "TR015" and used not in first  # a refreshed token
    finally:
        emulator.token_lifetime = None


def test_an_expired_state_installs_nothing(bot: Bot, emulator: SlackEmulator) -> None:
    """A redirect that comes back after the state's ten minutes is refused."""
    browser = Browser(bot.base_url)
    _, page = browser.get("/slack/install")
    state = re.search(r"state=([A-Za-z0-9_-]+)", page)
    assert state is not None
    database = Path(bot.log).parent / "state" / "mincards" / "mincards.db"
    with sqlite3.connect(database) as conn:  # as if the person came back an hour later
        conn.execute("UPDATE slack_oauth_states SET expire_at = '2000-01-01 00:00:00' "
                     "WHERE state = ?", (state.group(1),))
    emulator.oauth_codes["code-e"] = "TE016"
    status, _ = browser.get(f"/slack/oauth_redirect?code=code-e&state={state.group(1)}")
    assert status >= 400 and "TE016" not in installations(bot)


def test_tokens_are_stored_encrypted_never_in_the_clear(
        bot: Bot, slack: SlackSender, emulator: SlackEmulator) -> None:
    status, page = Browser(bot.base_url).install(emulator, "TE020", "code-e")
    assert status == 200, page
    database = Path(bot.log).parent / "state" / "mincards" / "mincards.db"
    with sqlite3.connect(database) as conn:
        stored = [row[0] for table in ("slack_installations", "slack_bots")
                  for row in conn.execute(f"SELECT bot_token FROM {table} WHERE team_id='TE020'")]
    assert stored and all(v.startswith("gAAAAA") for v in stored)
    assert not set(stored) & set(emulator.issued)
    dump = database.read_bytes() + b"".join(
        p.read_bytes() for p in database.parent.glob("mincards.db-*"))
    assert not any(token.encode() in dump for token in emulator.issued)
    (call,) = ask(slack, emulator, "TE020", "qwen 2.5 7b lora")
    assert emulator.issued[call.headers["authorization"].removeprefix("Bearer ")] == "TE020"


def _state_of(page: str) -> str:
    found = re.search(r"state=([A-Za-z0-9_-]+)", page)
    assert found is not None, page
    return found.group(1)


def test_a_state_from_another_browser_installs_nothing(bot: Bot, emulator: SlackEmulator) -> None:
    """The state is bound to the browser that started the install (Bolt's state cookie): a
    redirect carrying it from another browser, with no cookie or with that browser's own, is
    refused, and the state stays usable by its own browser."""
    started = Browser(bot.base_url)
    state = _state_of(started.get("/slack/install")[1])
    assert started.cookies, "the install page sets the state cookie"
    emulator.oauth_codes["code-o"] = "TO021"
    stranger = Browser(bot.base_url)  # no cookie at all
    status, page = stranger.get(f"/slack/oauth_redirect?code=code-o&state={state}")
    assert status >= 400 and "code-o" not in page
    other = Browser(bot.base_url)  # a cookie of its own, for another state
    other.get("/slack/install")
    status, page = other.get(f"/slack/oauth_redirect?code=code-o&state={state}")
    assert status >= 400 and "code-o" not in page
    assert "TO021" not in installations(bot)
    ok, page = started.get(f"/slack/oauth_redirect?code=code-o&state={state}")
    assert ok == 200, page
    assert "TO021" in installations(bot)


def test_a_code_used_twice_installs_once_and_says_so(bot: Bot, emulator: SlackEmulator) -> None:
    """Slack takes each code once: a second redirect with it (a fresh state, the same code)
    gets an error page naming no code or token, and the first install is untouched."""
    assert Browser(bot.base_url).install(emulator, "TW022", "code-w")[0] == 200
    before = _bot_tokens(bot, "TW022")
    again = Browser(bot.base_url)
    state = _state_of(again.get("/slack/install")[1])
    status, page = again.get(f"/slack/oauth_redirect?code=code-w&state={state}")
    assert status >= 400
    assert "code-w" not in page and not [t for t in emulator.issued if t in page]
    assert _bot_tokens(bot, "TW022") == before


def _bot_tokens(bot: Bot, team: str) -> list[tuple[str, str]]:
    database = Path(bot.log).parent / "state" / "mincards" / "mincards.db"
    with sqlite3.connect(database) as conn:
        return [(str(r[0]), str(r[1])) for r in conn.execute(
            "SELECT bot_token, installed_at FROM slack_bots WHERE team_id = ? "
            "ORDER BY installed_at", (team,))]


def test_an_install_for_one_workspace_leaves_anothers_rows_alone(
        bot: Bot, slack: SlackSender, emulator: SlackEmulator) -> None:
    """B's install, and A's re-install, write their own workspace's rows only: A's token,
    settings and answers stay A's through both."""
    from tests.test_slack_preferences import change

    assert Browser(bot.base_url).install(emulator, "TA023", "code-a23")[0] == 200
    slack.action(change("flavours", ["snt9b23"], user="U0001", team="TA023"))
    emulator.wait_for("views.publish")
    a_rows = _bot_tokens(bot, "TA023")
    assert Browser(bot.base_url).install(emulator, "TB024", "code-b24")[0] == 200
    assert _bot_tokens(bot, "TA023") == a_rows
    (call,) = ask(slack, emulator, "TA023", "qwen2.5-72b lora 8k")
    assert emulator.issued[call.headers["authorization"].removeprefix("Bearer ")] == "TA023"
    assert "your settings" in json.dumps(call.params, ensure_ascii=False)
    b_rows = _bot_tokens(bot, "TB024")
    assert Browser(bot.base_url).install(emulator, "TA023", "code-a23b")[0] == 200
    assert _bot_tokens(bot, "TB024") == b_rows
    (call,) = ask(slack, emulator, "TB024", "qwen2.5-72b lora 8k")
    assert emulator.issued[call.headers["authorization"].removeprefix("Bearer ")] == "TB024"
    assert "your settings" not in json.dumps(call.params, ensure_ascii=False)


def for_enterprise(event: dict[str, object], enterprise: str, team: str,
                   org_wide: bool) -> dict[str, object]:
    """An event from a workspace of an Enterprise Grid org, as Slack sends it."""
    body = for_team(event, team)
    body["enterprise_id"] = enterprise
    body["is_ext_shared_channel"] = False
    body["authorizations"] = [{"enterprise_id": enterprise, "team_id": None if org_wide else team,
                               "user_id": "UBOT", "is_bot": True,
                               "is_enterprise_install": org_wide}]
    return body


def test_an_enterprise_grid_install_answers_its_workspaces_only(
        bot: Bot, slack: SlackSender, emulator: SlackEmulator) -> None:
    """An org-wide install (is_enterprise_install, no team) answers an event of any of its
    workspaces with the org's token; a workspace install inside another org answers that
    workspace only; an org that never installed is answered by nobody."""
    browser = Browser(bot.base_url)
    state = _state_of(browser.get("/slack/install")[1])
    emulator.org_codes["code-org"] = "E0GRID1"
    assert browser.get(f"/slack/oauth_redirect?code=code-org&state={state}")[0] == 200
    emulator.oauth_codes["code-t"] = "TG025"
    emulator.code_enterprise["code-t"] = "E0GRID2"
    browser = Browser(bot.base_url)
    state = _state_of(browser.get("/slack/install")[1])
    assert browser.get(f"/slack/oauth_redirect?code=code-t&state={state}")[0] == 200

    for enterprise, team, org_wide, token_of in (("E0GRID1", "TW026", True, "E0GRID1"),
                                                 ("E0GRID1", "TW027", True, "E0GRID1"),
                                                 ("E0GRID2", "TG025", False, "TG025")):
        emulator.reset()
        body = for_enterprise(mention("qwen 2.5 72b lora 8k?"), enterprise, team, org_wide)
        assert slack.post(json.dumps(body), "application/json").status == 200
        (call,) = emulator.wait_for("chat.postMessage", timeout=10)
        token = call.headers["authorization"].removeprefix("Bearer ")
        assert emulator.issued[token] == token_of
        assert emulator.issued_enterprise[token] == enterprise
    for enterprise, team, org_wide in (("E0NEVER", "TX028", True),   # an org never installed
                                       ("E0GRID2", "TX029", False)):  # a workspace not installed
        emulator.reset()
        body = for_enterprise(mention("qwen 2.5 72b lora 8k?"), enterprise, team, org_wide)
        assert slack.post(json.dumps(body), "application/json").status == 200
        time.sleep(0.5)
        assert emulator.of("chat.postMessage") == []
