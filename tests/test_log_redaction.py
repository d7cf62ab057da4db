"""What the log filter scrubs: Slack's tokens by shape, and what an OAuth exchange carries (the
code, the client secret, a refresh token, the state), in each form slack_sdk and Bolt write them.
The real processes' logs are swept too (tests/test_slack_install.py's module fixture)."""

from __future__ import annotations

import pytest

from mincards.handlers.logs import REDACTED, RedactSecrets


@pytest.mark.parametrize(("line", "hidden"), [
    ("body_params: {'code': '1234.5678.9abc', 'redirect_uri': None}", "1234.5678.9abc"),
    ("request: {'code': ['1234.5678.9abc'], 'state': ['8e6b0f7c-d0d8']}", "1234.5678.9abc"),
    ("request: {'code': ['1234.5678.9abc'], 'state': ['8e6b0f7c-d0d8']}", "8e6b0f7c-d0d8"),
    ("GET /slack/oauth_redirect?code=1234.5678.9abc&state=s1 HTTP/1.1", "1234.5678.9abc"),
    ("Failed to fetch oauth.v2.access result with code: 1234.5678.9abc - error", "1234.5678.9abc"),
    ("{'client_secret': 'c0ffee', 'grant_type': 'refresh_token'}", "c0ffee"),
    ("refresh_token=xoxe-1-My0xLTExMQ-abc", "xoxe-1-My0xLTExMQ-abc"),
    ("using xoxe.xoxb-1-MS0yLTEx-abc for T1", "xoxe.xoxb-1-MS0yLTEx-abc"),
    ("token xoxb-1-2-abc and xapp-1-A1-2-ff", "xoxb-1-2-abc"),
])
def test_secrets_of_an_oauth_exchange_are_scrubbed(line: str, hidden: str) -> None:
    scrubbed = RedactSecrets([]).scrub(line)
    assert hidden not in scrubbed and REDACTED in scrubbed


@pytest.mark.parametrize("line", ["status code: 200", "the state of things",
                                  "exit code: 2, retrying", "a code review"])
def test_ordinary_words_are_left_alone(line: str) -> None:
    assert RedactSecrets([]).scrub(line) == line
