"""Tokens encrypted at rest (issue 39, item 6): Fernet with the keys in SLACK_TOKEN_KEYS,
newest first; a value stored in the clear by an earlier mincards is read as it is and sealed
anew; a value no configured key opens, or a key that is not one, is one line without it."""

from __future__ import annotations

import pytest
from cryptography.fernet import Fernet
from slack_sdk.oauth.installation_store.models.installation import Installation

from mincards.handlers.slack_tables import INSTALLATIONS, SECRET_COLUMNS
from mincards.handlers.token_cipher import TokenCipher, TokenKeyError, is_encrypted, new_key

TOKEN = "xoxb-1111-2222-do-not-leak"


def test_a_token_is_sealed_and_opened_and_never_sealed_twice() -> None:
    cipher = TokenCipher(new_key())
    sealed = cipher.encrypt(TOKEN)
    assert sealed and is_encrypted(sealed) and TOKEN not in sealed
    assert cipher.encrypt(sealed) == sealed
    assert cipher.decrypt(sealed) == TOKEN
    assert cipher.encrypt(None) is None and cipher.decrypt("") == ""


def test_rotation_reads_the_old_key_and_writes_the_new_one() -> None:
    old, new = new_key(), new_key()
    stored = TokenCipher(old).encrypt(TOKEN)
    rotated = TokenCipher(f"{new}, {old}")
    assert rotated.decrypt(stored) == TOKEN and not rotated.current(stored)
    resealed = rotated.encrypt(rotated.decrypt(stored))
    assert rotated.current(resealed) and TokenCipher(new).decrypt(resealed) == TOKEN
    with pytest.raises(TokenKeyError) as caught:
        TokenCipher(new_key()).decrypt(stored)
    assert "a key not in SLACK_TOKEN_KEYS" in str(caught.value) and TOKEN not in str(caught.value)


def test_a_token_stored_in_the_clear_is_read_and_not_current() -> None:
    cipher = TokenCipher(new_key())
    assert cipher.decrypt(TOKEN) == TOKEN and not cipher.current(TOKEN)


@pytest.mark.parametrize("keys,said", [
    ("", "is empty"), ("not-a-key", "key 1 of 1 is not a Fernet key"),
    (f"{Fernet.generate_key().decode()},short", "key 2 of 2 is not a Fernet key")])
def test_a_key_that_is_not_one_is_one_line_without_it(keys: str, said: str) -> None:
    with pytest.raises(TokenKeyError) as caught:
        TokenCipher(keys)
    assert said in str(caught.value) and (not keys or "short" not in str(caught.value))


def test_an_installation_is_sealed_field_by_field_and_the_original_kept() -> None:
    cipher = TokenCipher(new_key())
    installation = Installation(app_id="A1", enterprise_id=None, team_id="T1", user_id="U1",
                                bot_token=TOKEN, bot_refresh_token="xoxe-1-refresh",
                                user_token="xoxp-user", bot_scopes=["chat:write"])
    sealed = cipher.sealed(installation, SECRET_COLUMNS[INSTALLATIONS])
    assert installation.bot_token == TOKEN  # the caller's object is untouched
    for name in ("bot_token", "bot_refresh_token", "user_token"):
        assert is_encrypted(getattr(sealed, name))
    assert sealed.team_id == "T1" and sealed.incoming_webhook_url is None
    assert sealed.to_bot().bot_token == sealed.bot_token
    opened = cipher.opened(sealed, SECRET_COLUMNS[INSTALLATIONS])
    assert (opened.bot_token, opened.user_token) == (TOKEN, "xoxp-user")
