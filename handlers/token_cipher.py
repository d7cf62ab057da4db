"""Tokens encrypted at rest: each workspace's bot and user tokens, refresh tokens and incoming
webhook URL are stored encrypted (Fernet: AES-128-CBC with an HMAC-SHA256, from
`cryptography`) with the key in SLACK_TOKEN_KEYS, never in the clear. A database copied,
backed up or read by someone with no key holds no usable token.

Rotation: SLACK_TOKEN_KEYS holds one or more keys, newest first (comma or space separated).
The first encrypts; every one decrypts (MultiFernet), so a key is rotated by putting the new
one first, restarting (each start re-encrypts what was stored under an older key, and what an
earlier mincards stored in the clear), then dropping the old one. Make a key with
`mincards db new-key`."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import TypeVar

from cryptography.fernet import Fernet, InvalidToken, MultiFernet

from mincards.bot.errors import MincardsError

KEYS_ENV = "SLACK_TOKEN_KEYS"
# A Fernet token: version byte 0x80, base64url, so it always begins "gAAAAA".
_ENCRYPTED = re.compile(r"gAAAAA[A-Za-z0-9_=-]+")
T = TypeVar("T")


class TokenKeyError(MincardsError):
    """A key that is not one, or a stored token no configured key opens: one line, no value."""


def new_key() -> str:
    return Fernet.generate_key().decode("ascii")


class TokenCipher:
    def __init__(self, keys: str) -> None:
        parts = [k for k in re.split(r"[\s,]+", keys.strip()) if k]
        if not parts:
            raise TokenKeyError(f"{KEYS_ENV} is empty: make a key with `mincards db new-key`")
        made = []
        for number, key in enumerate(parts, 1):
            try:
                made.append(Fernet(key.encode("ascii")))
            except (ValueError, UnicodeEncodeError):
                raise TokenKeyError(f"{KEYS_ENV}: key {number} of {len(parts)} is not a Fernet "
                                    "key (32 bytes, url-safe base64: `mincards db new-key` "
                                    "makes one)") from None
        self._first = made[0]
        self._all = MultiFernet(made)

    def encrypt(self, value: str | None) -> str | None:
        """Encrypted with the first key; a value already encrypted (an Installation's bot
        sealed once, then handed on as its Bot) is kept, never sealed twice."""
        if not value or is_encrypted(value):
            return value
        return self._first.encrypt(value.encode("utf-8")).decode("ascii")

    def decrypt(self, value: str | None) -> str | None:
        """The stored value opened; one stored in the clear (by an earlier mincards) as is."""
        if not value or not is_encrypted(value):
            return value
        try:
            return self._all.decrypt(value.encode("ascii")).decode("utf-8")
        except InvalidToken:
            raise TokenKeyError(f"a stored token was encrypted with a key not in {KEYS_ENV}: "
                                "put that key back (after the new one)") from None

    def current(self, value: str | None) -> bool:
        """Whether a stored value is already encrypted with the first key."""
        if not value:
            return True
        if not is_encrypted(value):
            return False
        try:
            self._first.decrypt(value.encode("ascii"))
        except InvalidToken:
            return False
        return True

    def sealed(self, entity: T, names: tuple[str, ...]) -> T:
        """A copy of an Installation or Bot with the fields in `names` encrypted."""
        return self._mapped(entity, names, self.encrypt)

    def opened(self, entity: T, names: tuple[str, ...]) -> T:
        return self._mapped(entity, names, self.decrypt)

    @staticmethod
    def _mapped(entity: T, names: tuple[str, ...], how: Callable[[str | None], str | None]
                ) -> T:
        done = copy.copy(entity)
        for name in names:
            if hasattr(done, name):
                setattr(done, name, how(getattr(done, name)))
        return done


def is_encrypted(value: str) -> bool:
    return bool(_ENCRYPTED.fullmatch(value))

