"""A pasted link to a model's page (Hugging Face, ModelScope, Ollama: data/links.toml) read as
the model's name, as a question would name it; None for anything else (a dataset, a space, a
file, the site's own pages, another site)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from mincards.bot.facts.links import ModelSite, ModelSites

MAX_URL = 2000
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:+")


@dataclass(frozen=True)
class ModelLink:
    url: str
    site: str    # the site's display name
    name: str    # what the question would say: "Qwen/Qwen2.5-72B-Instruct", "qwen2.5 72b"


def _segment(text: str) -> str | None:
    part = unquote(text)
    return part if part and set(part) <= _NAME_CHARS and part not in (".", "..") else None


def _named(site: ModelSite, org: str, name: str) -> str | None:
    if site.tag_separator and site.tag_separator in name:
        name, _, tag = name.partition(site.tag_separator)
        name = f"{name} {tag}" if tag else name
    if not name:
        return None
    return name if site.library is not None and org == site.library else f"{org}/{name}"


def read_link(url: str, sites: ModelSites) -> ModelLink | None:
    """The model a link is the page of; None when it is not a model's page."""
    if not isinstance(url, str) or len(url) > MAX_URL:
        return None
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname or ""
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or parts.username or parts.password:
        return None
    site = sites.of_host(host)
    if site is None:
        return None
    segments = [s for s in parts.path.split("/") if s]
    if len(segments) < len(site.path) or (segments and segments[0] in site.not_models):
        return None
    found: dict[str, str] = {}
    for want, have in zip(site.path, segments, strict=False):
        if want.startswith("{"):
            value = _segment(have)
            if value is None:
                return None
            found[want] = value
        elif want != have:
            return None
    rest = segments[len(site.path):]
    if rest and rest[0] not in site.pages:
        return None  # a file, a discussion, anything but the model's own page
    name = _named(site, found["{org}"], found["{name}"])
    return ModelLink(url=url, site=site.display, name=name) if name else None
