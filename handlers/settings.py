"""Settings from the environment (and a .env file), validated once at start-up."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Literal
from urllib.parse import urlparse

from dotenv import dotenv_values
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)

from mincards.bot.errors import MincardsError

SLACK_API = "https://slack.com/api/"
LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class SettingsError(MincardsError):
    """A setting is missing or malformed; the message names the variable, never its value."""


def _token(value: SecretStr | None, prefix: str, name: str) -> SecretStr | None:
    if value is None:
        return None
    secret = value.get_secret_value()
    if not secret.startswith(prefix):
        raise ValueError(f"{name} must start with '{prefix}'")
    if not all(33 <= ord(c) < 127 for c in secret):
        # A quote or space pasted with it (’ from a chat app): it would fail every call.
        raise ValueError(f"{name} holds a character no Slack token has (a quote or space "
                         "pasted with it?)")
    return value


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True)
    # One workspace: its bot token. Any workspace (HTTP mode): the app's OAuth credentials
    # instead, each workspace's token kept in the database when it installs the app.
    slack_bot_token: SecretStr | None = Field(default=None, alias="SLACK_BOT_TOKEN")
    slack_client_id: str | None = Field(default=None, alias="SLACK_CLIENT_ID")
    slack_client_secret: SecretStr | None = Field(default=None, alias="SLACK_CLIENT_SECRET")
    # Not used (the install's state lives in the database, bound to the browser by Bolt's
    # cookie): accepted so an existing deployment starts, with a warning.
    slack_state_secret: SecretStr | None = Field(default=None, alias="SLACK_STATE_SECRET")
    # Fernet keys, newest first, for the tokens stored per workspace (handlers/token_cipher.py).
    slack_token_keys: SecretStr | None = Field(default=None, alias="SLACK_TOKEN_KEYS")
    slack_signing_secret: SecretStr | None = Field(default=None, alias="SLACK_SIGNING_SECRET")
    slack_app_token: SecretStr | None = Field(default=None, alias="SLACK_APP_TOKEN")
    slack_api_url: str = Field(default=SLACK_API, alias="SLACK_API_URL")
    # A server behind a platform router must listen on every interface.
    host: str = Field(default="0.0.0.0", alias="HOST")
    port: int = Field(default=3000, ge=1, le=65535, alias="PORT")
    log_level: LogLevel = Field(default="INFO", alias="LOG_LEVEL")
    web_concurrency: int = Field(default=1, ge=1, le=64, alias="WEB_CONCURRENCY")
    # A new connection gets this long to send a request's headers (Slack's arrive whole within
    # milliseconds).
    header_timeout: float = Field(default=2.0, gt=0, le=60, alias="HEADER_TIMEOUT")
    # A request's body gets this long to arrive.
    request_timeout: float = Field(default=10.0, gt=0, le=300, alias="REQUEST_TIMEOUT")
    # Connections held open per process; unset: as many as the open-file limit leaves room for.
    max_connections: int | None = Field(default=None, ge=8, le=1_000_000, alias="MAX_CONNECTIONS")
    # Shared state for several processes or machines; unset: each process keeps its own.
    redis_url: SecretStr | None = Field(default=None, alias="REDIS_URL")
    # true: a Redis that cannot be reached (or refuses the password) at start-up stops the bot.
    redis_required: bool = Field(default=False, alias="REDIS_REQUIRED")
    log_format: Literal["text", "json"] = Field(default="text", alias="LOG_FORMAT")
    # /metrics (Prometheus) on a listener of its own, never on the port Slack reaches.
    metrics_port: int | None = Field(default=None, ge=1, le=65535, alias="METRICS_PORT")
    metrics_host: str = Field(default="127.0.0.1", alias="METRICS_HOST")
    # Socket Mode listens for nothing of Slack's: /healthz and /readyz for a platform's probes
    # on this port (on HOST), when set.
    health_port: int | None = Field(default=None, ge=1, le=65535, alias="HEALTH_PORT")
    # On SIGTERM, how long acknowledged replies get to finish: keep it a few seconds under the
    # platform's grace period (Docker: 10 s; Kubernetes: terminationGracePeriodSeconds, 30 s).
    drain_seconds: float = Field(default=8.0, ge=0, le=600, alias="DRAIN_SECONDS")
    # Slack's agent messaging experience (the manifests' agent_view): a DM written in the
    # Messages tab is answered in its own thread, the agent's session. false: an app still on
    # the legacy assistant_view (or a plain Messages tab) answers a DM where it was written.
    agent_view: bool = Field(default=True, alias="AGENT_VIEW")
    # Database connections per process (SQLAlchemy's pool): size kept, more when busy, and how
    # long a call waits for one. Many replicas: keep their sum under the server's limit.
    database_pool_size: int = Field(default=5, ge=1, le=200, alias="DATABASE_POOL_SIZE")
    database_max_overflow: int = Field(default=10, ge=0, le=200, alias="DATABASE_MAX_OVERFLOW")
    database_pool_timeout: float = Field(default=30.0, gt=0, le=300,
                                         alias="DATABASE_POOL_TIMEOUT")
    # Preferences (and, later, installations): postgresql+asyncpg://... for several processes
    # or machines; unset: a SQLite file under $XDG_STATE_HOME/mincards.
    database_url: SecretStr | None = Field(default=None, alias="DATABASE_URL")

    @field_validator("slack_bot_token")
    @classmethod
    def _bot(cls, v: SecretStr | None) -> SecretStr | None:
        return _token(v, "xoxb-", "SLACK_BOT_TOKEN")

    @field_validator("slack_app_token")
    @classmethod
    def _app(cls, v: SecretStr | None) -> SecretStr | None:
        return _token(v, "xapp-", "SLACK_APP_TOKEN")

    @field_validator("slack_api_url")
    @classmethod
    def _url(cls, v: str) -> str:
        parsed = urlparse(v)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError("SLACK_API_URL must be an http(s) URL such as https://slack.com/api/")
        return v if v.endswith("/") else v + "/"

    @field_validator("redis_url")
    @classmethod
    def _redis(cls, v: SecretStr | None) -> SecretStr | None:
        if v is not None and urlparse(v.get_secret_value()).scheme not in (
                "redis", "rediss", "unix"):
            raise ValueError("REDIS_URL must be a redis://, rediss:// or unix:// URL")
        return v

    @field_validator("slack_signing_secret")
    @classmethod
    def _signing(cls, v: SecretStr | None) -> SecretStr | None:
        if v is not None and not all(33 <= ord(c) < 127 for c in v.get_secret_value()):
            raise ValueError("SLACK_SIGNING_SECRET holds a character a signing secret never has "
                             "(a quote or space pasted with it?)")
        return v

    @field_validator("log_format", mode="before")
    @classmethod
    def _format(cls, v: object) -> object:
        return v.lower() if isinstance(v, str) else v

    @field_validator("log_level", mode="before")
    @classmethod
    def _level(cls, v: object) -> object:
        return v.upper() if isinstance(v, str) else v

    @model_validator(mode="after")
    def _credentials(self) -> Settings:
        if self.slack_bot_token is None and not self.oauth:
            raise ValueError("SLACK_BOT_TOKEN is not set (or, to let any workspace install the "
                             "app, SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_TOKEN_KEYS)")
        if self.slack_bot_token is None and self.slack_app_token is not None:
            raise ValueError("Socket Mode needs SLACK_BOT_TOKEN; installation by any workspace "
                             "(SLACK_CLIENT_ID) is for HTTP mode")
        return self

    @property
    def oauth(self) -> bool:
        """Installation by any workspace: OAuth credentials and no single bot token."""
        return (self.slack_bot_token is None and bool(self.slack_client_id)
                and self.slack_client_secret is not None)

    @property
    def socket_mode(self) -> bool:
        return self.slack_app_token is not None

    def mode(self, requested: str = "auto") -> Literal["http", "socket"]:
        """The mode to run in; HTTP mode always has a signing secret to verify requests with."""
        if requested == "socket" or (requested == "auto" and self.socket_mode):
            if not self.socket_mode:
                raise SettingsError("Socket Mode needs SLACK_APP_TOKEN (an xapp- token)")
            return "socket"
        if self.slack_signing_secret is None:
            raise SettingsError("SLACK_SIGNING_SECRET is not set (HTTP mode needs it to verify "
                                "requests; set SLACK_APP_TOKEN instead for Socket Mode)")
        return "http"

    @property
    def redis(self) -> str | None:
        return self.redis_url.get_secret_value() if self.redis_url else None

    def secrets(self) -> list[str]:
        """Every secret value, so logs can be scrubbed of them (a Redis URL may hold a
        password)."""
        values = [s.get_secret_value() for s in (self.slack_bot_token, self.slack_signing_secret,
                                                 self.slack_app_token, self.redis_url,
                                                 self.database_url, self.slack_client_secret,
                                                 self.slack_state_secret,
                                                 self.slack_token_keys)
                  if s is not None and s.get_secret_value()]
        password = urlparse(self.redis).password if self.redis else None
        database = self.database_url.get_secret_value() if self.database_url else ""
        db_password = urlparse(database).password if database else None
        return values + [p for p in (password, db_password) if p]


# Variables read straight from the environment by what runs before or beside Settings (the
# facts cache and data folder, the Hub look-up, the metrics folder, XDG folders): their lines in
# .env were ignored (MINCARDS_CACHE=false there still kept a cache), so they are put in the
# environment, never over a value already set there.
PROCESS_ENV = ("MINCARDS_", "HF_", "PROMETHEUS_MULTIPROC_DIR", "XDG_")


def export_process_env(env_file: str | None = ".env") -> list[str]:
    """The .env file's values for PROCESS_ENV variables, put in os.environ where unset;
    returns the names it set. A file that cannot be read is load_settings' to report."""
    if not env_file or not Path(env_file).is_file():
        return []
    try:
        values = dotenv_values(env_file, encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    exported = []
    for name, value in values.items():
        if value is None or not value.strip() or not name.startswith(PROCESS_ENV):
            continue
        if name not in os.environ:
            os.environ[name] = value.strip()
            exported.append(name)
    return exported


# A secret read from a file (NAME_FILE, as Docker's and Kubernetes' mounted secrets are given,
# /run/secrets/...) is one line or a few: a bigger file is a wrong path.
SECRET_FILE_BYTES = 64 * 1024


def secret_names() -> tuple[str, ...]:
    """The settings that hold secrets (tokens, secrets, URLs with passwords)."""
    return tuple(field.alias for field in Settings.model_fields.values()
                 if field.alias and "SecretStr" in str(field.annotation))


def secrets_from_files(values: Mapping[str, str]) -> dict[str, str]:
    """Each secret NAME whose NAME_FILE is set, read from that file (its content stripped);
    NAME and NAME_FILE both set is refused, as is a file that cannot be read. An error names
    the variable and the path, never what the file holds."""
    read: dict[str, str] = {}
    for name in secret_names():
        path = values.get(f"{name}_FILE")
        if not path:
            continue
        if values.get(name):
            raise SettingsError(f"{name} and {name}_FILE are both set: set one")
        file = Path(path).expanduser()
        try:
            if not file.is_file():
                raise SettingsError(f"{name}_FILE: {path} is not a file")
            if file.stat().st_size > SECRET_FILE_BYTES:
                raise SettingsError(f"{name}_FILE: {path} is over {SECRET_FILE_BYTES // 1024} KB: "
                                    "not a secret's file")
            text = file.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise SettingsError(f"{name}_FILE: cannot read {path} ({exc.strerror})") from None
        except UnicodeDecodeError:
            raise SettingsError(f"{name}_FILE: {path} is not UTF-8 text") from None
        if not text:
            raise SettingsError(f"{name}_FILE: {path} is empty")
        read[name] = text
    return read


def load_settings(environ: Mapping[str, str] | None = None, env_file: str | None = ".env"
                  ) -> Settings:
    """Settings from a .env file overlaid by the environment; blank values count as unset."""
    values: dict[str, str] = {}
    if env_file and Path(env_file).exists():
        try:
            values.update({k: v for k, v in dotenv_values(env_file, encoding="utf-8").items()
                           if v is not None})
        except UnicodeDecodeError:
            raise SettingsError(f"{env_file} is not UTF-8 text: save it as UTF-8 (it holds "
                                "tokens, so it was not read any further)") from None
    values.update(os.environ if environ is None else environ)
    # Whitespace pasted around a value (a signing secret with a trailing space) is never meant.
    values = {k: v.strip() for k, v in values.items() if v.strip()}
    values.update(secrets_from_files(values))
    try:
        settings = Settings.model_validate(values)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            name = str(err["loc"][0]) if err["loc"] else "settings"
            if err["type"] == "missing":
                problems.append(f"{name} is not set")
            else:
                problems.append(f"{name}: {err['msg'].removeprefix('Value error, ')}")
        raise SettingsError("; ".join(problems) + " (see .env.example)") from None
    settings.mode()  # fails early, naming what the default mode is missing
    return settings
