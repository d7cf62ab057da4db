"""A model's shape from the Hugging Face Hub, for the estimator: its `config.json` and the
parameter count of its published weights (the Hub's safetensors metadata).

Fetched with huggingface_hub, which honours HF_ENDPOINT (a mirror, or a test's local Hub) and
HF_TOKEN (gated and private models). Bounded: one deadline for the whole fetch; config.json
refused above 1 MB, read streamed and cut there whatever its headers say; every request,
redirects included, checked first (handlers/hub_client.py). Cached on disk (the shape read from
it, under the cache folder's `hub/`, evicted past a bound), so a model asked again is estimated
without a request. Never on the path of an acknowledgement: callers run it after Slack has been
answered, off the event loop. Every failure is one HubError line; nothing is made up.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import time
from pathlib import Path
from urllib.parse import urlsplit

from mincards.bot.errors import MincardsError
from mincards.bot.estimating.hf_config import MAX_BYTES, parse_config
from mincards.bot.estimating.shape import Shape, ShapeError
from mincards.bot.facts.checked_cache import cache_dir
from mincards.handlers import hub_cache
from mincards.handlers.bounded import within
from mincards.handlers.hub_client import Refused, TooLarge, guarded_session, read_bounded

log = logging.getLogger(__name__)
DEADLINE_SECONDS = 15.0
# Overrides DEADLINE_SECONDS (seconds, above 0): a slow mirror given longer, a test less.
DEADLINE_ENV = "MINCARDS_HUB_TIMEOUT"
# A shape read from the Hub is kept this long: a repository's config rarely changes, and a
# week-old shape is still the model's.
KEEP_SECONDS = 7 * 24 * 3600
_REPO = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,95}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}")
HUB_HOSTS = ("huggingface.co", "hf.co")
# Paths on the Hub that are not models.
NOT_MODELS = frozenset({"datasets", "spaces", "docs", "blog", "collections", "papers", "api",
                        "organizations", "settings", "models", "login", "join", "pricing"})


class HubError(MincardsError):
    """Why the Hub gave no shape, in one line."""


# MINCARDS_HUB=off (or false, 0, no): never ask the Hub; a name or an id it would have been
# asked about is said as not looked up.
SWITCH_ENV = "MINCARDS_HUB"
_OFF = frozenset({"off", "false", "0", "no", "disabled"})


def reach(timeout: float) -> None:
    """Fail at once where the Hub cannot be reached (no name service, no route, a refused
    port): huggingface_hub retries a connection error with backoff for some 24 s, which would
    spend the whole deadline to say the same. HubError naming the host."""
    import socket

    endpoint = os.environ.get("HF_ENDPOINT") or "https://huggingface.co"
    parts = urlsplit(endpoint if "://" in endpoint else "https://" + endpoint)
    host = parts.hostname or ""
    # Said without the address itself, which may carry a user and password.
    if parts.scheme not in ("http", "https") or not host:
        raise HubError("HF_ENDPOINT is not an http(s) address with a host, so the name was not "
                       "looked up")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise HubError("HF_ENDPOINT has no valid port, so the name was not looked up") from None
    try:
        with socket.create_connection((host, port), timeout=min(timeout, 5.0)):
            pass
    except OSError as exc:
        raise HubError(f"cannot reach Hugging Face at {host} "
                       f"({exc.strerror or type(exc).__name__}), so the name was not looked "
                       "up") from None


# A size written in a name ("70B", "1.5b"), not an active size ("A3B"), an expert count
# ("8x7B") or a Gemma-3n effective size ("E4B").
_NAMED_SIZE = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)b(?![a-z0-9])", re.IGNORECASE)
# How far a configuration's count may be from the size its name says before it is taken for
# another model's configuration (names round: 8B is 8.03B, 7B is 7.6B, 30B is 30.5B).
NAMED_SIZE_TOLERANCE = 1.6


def check_named_size(name: str, shape: Shape) -> None:
    """HubError when the name says a size the configuration is far from: a config that is
    another model's (a mislabelled upload, a search that found the wrong model)."""
    sizes = [float(m.group(1)) for m in _NAMED_SIZE.finditer(name)]
    if not sizes or shape.params_b <= 0:
        return
    named = max(sizes)
    if not 1 / NAMED_SIZE_TOLERANCE <= shape.params_b / named <= NAMED_SIZE_TOLERANCE:
        raise HubError(f"{shape.name}'s configuration describes {shape.params_b:,.1f}B "
                       f"parameters, not the {named:g}B its name says: it is not taken for "
                       "that model")


def hub_off_reason() -> str | None:
    """Why the Hub is not asked here, or None when it may be."""
    if os.environ.get(SWITCH_ENV, "").strip().lower() in _OFF:
        return f"the Hugging Face Hub is off here ({SWITCH_ENV}=off), so the name was not looked up"
    return None


def repo_id(text: str) -> str | None:
    """The Hub model a name or link points at ('Qwen/Qwen2.5-7B', huggingface.co/Qwen/...,
    hf.co/...), or None: a dataset, a Space, a file, or not a Hub name at all."""
    text = text.strip().strip("<>")
    if "://" in text or text.startswith(HUB_HOSTS):
        parts = urlsplit(text if "://" in text else "https://" + text)
        if (parts.hostname or "").lower() not in HUB_HOSTS:
            return None
        segments = [s for s in parts.path.split("/") if s]
        if len(segments) < 2 or segments[0] in NOT_MODELS:
            return None
        if len(segments) > 2 and segments[2] not in ("tree", "blob"):
            return None
        text = "/".join(segments[:2])
    return text if _REPO.fullmatch(text) and ".." not in text else None


def _cache_file(repo: str) -> Path | None:
    base = cache_dir()
    if base is None:
        return None
    digest = hashlib.sha256(repo.encode()).hexdigest()[:32]
    return base / "hub" / f"{digest}.json"


def cached_shape(repo: str) -> Shape | None:
    """The shape kept from an earlier fetch, if it is recent; never a request."""
    path = _cache_file(repo)
    try:
        if path is None or time.time() - path.stat().st_mtime > KEEP_SECONDS:
            return None
        kept = json.loads(path.read_bytes()[:100_000])
        if kept.get("repo") != repo:
            return None
        return Shape(name=repo, params_b=float(kept["params_b"]),
                     active_b=float(kept["active_b"]) if kept.get("active_b") else None,
                     layers=kept.get("layers"), hidden=kept.get("hidden"),
                     vocab=kept.get("vocab"), vision=bool(kept.get("vision")), source="hub")
    except (OSError, ValueError, KeyError, TypeError, ShapeError):
        return None  # missing or damaged: fetched again


def _keep(repo: str, shape: Shape) -> None:
    path = _cache_file(repo)
    if path is None:
        return
    try:
        hub_cache.keep(path, json.dumps({
            "repo": repo, "params_b": shape.params_b, "active_b": shape.active_b,
            "layers": shape.layers, "hidden": shape.hidden, "vocab": shape.vocab,
            "vision": shape.vision}))
    except OSError as exc:
        log.warning("could not keep the Hub shape of %s (%s)", repo, exc.strerror or exc)


def _is_timeout(exc: BaseException) -> bool:
    """A timeout from the HTTP client underneath (httpx, httpx2, requests, urllib3: each names
    its own class) or from a socket. The client's read timeout equals the deadline, so under load
    it can fire just before the wait below does: both mean the same thing to the asker."""
    return isinstance(exc, TimeoutError) or any(
        kind.__name__.endswith(("Timeout", "TimeoutException", "TimeoutError"))
        for kind in type(exc).__mro__)


def _explain(repo: str, exc: BaseException, deadline: float) -> str:
    from huggingface_hub.errors import (
        EntryNotFoundError,
        GatedRepoError,
        HfHubHTTPError,
        RepositoryNotFoundError,
    )

    token = bool(os.environ.get("HF_TOKEN"))
    if isinstance(exc, GatedRepoError):
        return (f"{repo} is gated on Hugging Face and HF_TOKEN has no access to it" if token else
                f"{repo} is gated on Hugging Face: accept its terms there and set HF_TOKEN")
    if isinstance(exc, RepositoryNotFoundError):
        return (f"no model {repo} on Hugging Face" + ("" if token else
                " (if it is private, set HF_TOKEN)"))
    if isinstance(exc, EntryNotFoundError):
        return f"{repo} has no config.json on Hugging Face"
    if isinstance(exc, HfHubHTTPError):
        status = exc.response.status_code if exc.response is not None else "an error"
        return f"Hugging Face answered {status} for {repo}"
    if isinstance(exc, ShapeError):
        return f"{repo}: {exc}"
    if isinstance(exc, HubError):
        return str(exc)
    if isinstance(exc, Refused):
        return f"Hugging Face's answer for {repo} pointed to {exc}"
    if isinstance(exc, TooLarge):
        return f"{repo}'s config.json is {exc}; a model's configuration is a few KB"
    if _is_timeout(exc):
        return _too_slow(repo, deadline)
    return f"cannot read {repo} from Hugging Face ({type(exc).__name__})"


def _fetch(repo: str, timeout: float) -> Shape:
    from huggingface_hub import HfApi, get_hf_file_metadata, hf_hub_url
    from huggingface_hub.utils import build_hf_headers

    deadline_at = time.monotonic() + timeout
    guarded_session()  # every request below, redirects included, is checked before it goes
    endpoint = os.environ.get("HF_ENDPOINT") or None
    token = os.environ.get("HF_TOKEN") or None
    info = HfApi(endpoint=endpoint, token=token).model_info(repo, timeout=timeout)
    total = getattr(getattr(info, "safetensors", None), "total", None)
    url = hf_hub_url(repo, "config.json", endpoint=endpoint)
    # The HEAD says why a file cannot be had (gated, missing) as the Hub's errors do.
    meta = get_hf_file_metadata(url, token=token, timeout=timeout, endpoint=endpoint)
    if meta.size is not None and meta.size > MAX_BYTES:
        raise TooLarge(f"{meta.size:,} bytes")
    # Read by the bot, not hf_hub_download: streamed and cut at MAX_BYTES and the deadline,
    # whatever the HEAD said, and not kept (the shape read from it is).
    status, text = read_bounded(url, build_hf_headers(token=token), deadline_at)
    if status >= 400:
        raise HubError(f"Hugging Face answered {status} for {repo}'s config.json")
    params = float(total) / 1e9 if isinstance(total, (int, float)) and total > 0 else None
    return parse_config(text, repo, "hub", params_b=params)


def _too_slow(repo: str, deadline: float) -> str:
    return f"Hugging Face did not answer within {deadline:g} s for {repo}"


def configured_deadline() -> float:
    try:
        seconds = float(os.environ.get(DEADLINE_ENV, ""))
    except ValueError:
        return DEADLINE_SECONDS
    return seconds if 0 < seconds <= 300 else DEADLINE_SECONDS


def hub_shape(repo: str, deadline: float | None = None) -> Shape:
    """The model's shape: kept from before, else fetched within `deadline` seconds."""
    off = hub_off_reason()
    if off:
        raise HubError(off)
    deadline = deadline if deadline is not None else configured_deadline()
    kept = cached_shape(repo)
    if kept is not None:
        check_named_size(repo, kept)
        return kept
    try:
        import huggingface_hub  # noqa: F401
    except ImportError:
        raise HubError("reading Hugging Face needs huggingface_hub: pip install "
                       "'mincards[hub]'") from None
    def work() -> Shape:
        reach(deadline)
        return _fetch(repo, deadline)

    try:
        shape = within(work, deadline, "mincards-hub")
    except TimeoutError:
        raise HubError(_too_slow(repo, deadline)) from None
    except Exception as exc:
        log.debug("Hub fetch of %s failed", repo, exc_info=True)
        raise HubError(_explain(repo, exc, deadline)) from None
    _keep(repo, shape)
    check_named_size(repo, shape)
    return shape

