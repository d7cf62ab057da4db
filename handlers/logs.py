"""Logging for the bot: one format (human text, or one JSON object a line with LOG_FORMAT=json),
no secret ever written, whoever logs it, and nothing a client can cause written more than once a
minute per kind.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from datetime import UTC, datetime
from typing import Any, Literal

from aiohttp.http_exceptions import HttpProcessingError

from mincards.handlers.request_context import RequestFields

# Slack's tokens by shape: bot, user, app-level, and rotation's refresh tokens (xoxe-1-...) and
# rotated access tokens (xoxe.xoxb-...).
_TOKEN = re.compile(r"xox[abeposr][.-][A-Za-z0-9.-]+|xapp-[A-Za-z0-9-]+")
# What an OAuth exchange carries besides tokens (slack_sdk logs its request parameters at DEBUG):
# the code Slack handed the redirect, the client secret, a refresh token, the install's state;
# as a query or form parameter (code=...), said (with code: ...) or in a dict's repr ('code':
# '...', 'code': ['...']). A number alone is left alone (an HTTP status code: 200).
_OAUTH_VALUE = re.compile(
    r"""(\b(?:code|client_secret|refresh_token|state)(?:=|:\s+|['"]\s*:\s*\[?\s*['"]))"""
    r"""(?!\d+(?:[&'"\s,}]|$))[^&'"\s,}]+""")
REDACTED = "[redacted]"
NOTICE_SECONDS = 60.0
LogFormat = Literal["text", "json"]
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class RedactSecrets(logging.Filter):
    """Scrubs known secret values and anything shaped like a Slack token from every record."""

    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self.secrets = sorted((s for s in secrets if s), key=len, reverse=True)

    def scrub(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        return _OAUTH_VALUE.sub(rf"\1{REDACTED}", _TOKEN.sub(REDACTED, text))

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        record.msg, record.args = self.scrub(message), None
        if record.exc_text:
            record.exc_text = self.scrub(record.exc_text)
        return True


class Notices:
    """Things clients cause (connections over the limit, malformed requests, bad signatures):
    counted, and logged at most once a minute per kind, with how many there were."""

    def __init__(self, logger: logging.Logger, every: float = NOTICE_SECONDS) -> None:
        self.logger = logger
        self.every = every
        self._counts: dict[str, int] = {}
        self._logged: dict[str, float] = {}
        self._lock = threading.Lock()

    def note(self, kind: str, message: str, *args: object) -> None:
        now = time.monotonic()
        with self._lock:
            count = self._counts.get(kind, 0) + 1
            if now - self._logged.get(kind, -self.every) < self.every:
                self._counts[kind] = count
                return
            self._counts[kind] = 0
            self._logged[kind] = now
        suffix = f" ({count} since the last such line)" if count > 1 else ""
        self.logger.warning(message + suffix, *args)


NOTICES = Notices(logging.getLogger("mincards.clients"))


class _ClientCaused(logging.Filter):
    """aiohttp's server logs a full traceback for every request it cannot parse (both
    Content-Length and Transfer-Encoding, a line that is not HTTP): a stranger could fill the
    disk. Those become counted notices, once a minute; any other error (this bot's own) is
    logged as it comes."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, HttpProcessingError | ConnectionError):
            return True
        NOTICES.note("malformed", "refused a request the HTTP parser could not read (%s)",
                     type(error).__name__)
        return False


class JsonLines(logging.Formatter):
    """One JSON object a line, for log shippers: time, level, logger, message, the request's
    event_id, team and trace_id when the line is about one (and the exception, when there is
    one, as one string)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname, "logger": record.name, "message": record.getMessage()}
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        entry.update(getattr(record, "request_ids", None) or {})
        if record.exc_text:
            entry["exception"] = record.exc_text
        return json.dumps(entry, ensure_ascii=False)


class TextLines(logging.Formatter):
    """TEXT_FORMAT, then the request's ids when the line is about one."""

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        ids = getattr(record, "request_ids", None)
        if not ids:
            return line
        first, newline, rest = line.partition("\n")  # after the message, before a traceback
        said = " ".join(f"{k}={v}" for k, v in ids.items())
        return f"{first} [{said}]{newline}{rest}"


def configure_logging(level: str, secrets: list[str], log_format: LogFormat = "text") -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines() if log_format == "json" else TextLines(TEXT_FORMAT))
    handler.addFilter(RedactSecrets(secrets))
    handler.addFilter(RequestFields())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    server = logging.getLogger("aiohttp.server")
    if not any(isinstance(f, _ClientCaused) for f in server.filters):
        server.addFilter(_ClientCaused())
