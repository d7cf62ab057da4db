"""Sites whose model pages people paste (data/links.toml): their hosts and the paths of a model
page, for answers under a pasted link (Slack unfurls)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from mincards.bot.errors import DataError
from mincards.bot.facts.datafiles import STRICT_KEYS, load_toml

FILE = "links.toml"
PLACES = ("{org}", "{name}")


@dataclass(frozen=True, kw_only=True)
class ModelSite:
    __pydantic_config__ = STRICT_KEYS
    display: str
    hosts: tuple[str, ...]
    path: tuple[str, ...]          # fixed parts and the {org}, {name} places
    pages: tuple[str, ...] = ()    # a model's own pages after its path (tree, files)
    not_models: tuple[str, ...] = ()
    library: str | None = None     # an org that stands for "the site's own" (Ollama's library)
    tag_separator: str | None = None

    def __post_init__(self) -> None:
        if not self.hosts or any(not h or h != h.lower() for h in self.hosts):
            raise ValueError("hosts: one or more lower-case host names")
        if sorted(p for p in self.path if p in PLACES) != sorted(PLACES):
            raise ValueError("path: needs {org} and {name} once each")


@dataclass(frozen=True, kw_only=True)
class ModelSites:
    __pydantic_config__ = STRICT_KEYS
    max_links: int = 5
    site: tuple[ModelSite, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if self.max_links < 1:
            raise ValueError("max_links: at least 1")

    @property
    def hosts(self) -> tuple[str, ...]:
        return tuple(h for s in self.site for h in s.hosts)

    def of_host(self, host: str) -> ModelSite | None:
        host = host.lower().removeprefix("www.")
        return next((s for s in self.site if host in s.hosts), None)


def load_sites(path: Path) -> ModelSites:
    """The sites in `path`; none when the data folder has no such file (from before it)."""
    if not path.exists():
        return ModelSites()
    sites = load_toml(path, ModelSites)
    seen: set[str] = set()
    for site in sites.site:
        if seen & set(site.hosts):
            raise DataError(path, f"a host of {site.display!r} is listed twice")
        seen |= set(site.hosts)
    return sites


@cache
def model_sites() -> ModelSites:
    from mincards.bot.facts.knowledge import default_data_dir

    return load_sites(default_data_dir() / FILE)
