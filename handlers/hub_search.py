"""A model name that neither the table nor the known-models data knows, looked up on the Hugging
Face Hub by its model search: the name as the question wrote it, the Hub's results by downloads
(a bounded number), kept only where the id holds every part of the name; one family among them
is read (the most downloaded), several are asked about. Bounded, cached and switched off as the
Hub fetch is (handlers/hub.py)."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from mincards.bot.estimating.shape import Shape
from mincards.bot.facts.checked_cache import cache_dir
from mincards.handlers import hub_cache
from mincards.handlers.bounded import within
from mincards.handlers.hub import (
    KEEP_SECONDS,
    HubError,
    check_named_size,
    configured_deadline,
    hub_off_reason,
    hub_shape,
    reach,
    repo_id,
)
from mincards.handlers.hub_client import guarded_session

log = logging.getLogger(__name__)
# How many results the search asks for: the first page, by downloads.
SEARCH_LIMIT = 20
# How many matching ids a reply offers when the name is ambiguous.
CHOICES = 4
# A query longer than this is not a model's name.
MAX_QUERY = 60
_PARTS = re.compile(r"[a-z]+|\d+(?:\.\d+)?[a-z]*", re.IGNORECASE)
# Words of a question that are never part of a model's name (lengths, counts, strategies).
_NOT_NAME = re.compile(r"^(?:\d+[km]|\d+k?-?tokens?|\d+(?:cards?|gpus?|npus?|nodes?|卡))$",
                       re.IGNORECASE)


@dataclass(frozen=True)
class Found:
    """What a search found: the id to read, or the ids to choose among (several families)."""

    repo: str | None
    choices: tuple[str, ...] = ()


def _parts(text: str) -> list[str]:
    return [p.lower() for p in _PARTS.findall(text)]


def name_query(question: str, asked: str, not_names: frozenset[str] = frozenset()
               ) -> str | None:
    """The name to search for: the question's own words for the name it asked (`asked`, as the
    reader took it), with the size and version words that follow it. Where the reader kept
    only a size ("quokka 3 24b" read as 24b), the word before it and the versions between are
    the name, unless that word is one of `not_names` ("for 24b"). None when there is no name
    worth a search."""
    first = next(iter(_parts(asked)), "")
    if not first or len(first) < 2:
        return None
    words = [w.strip(".,;:!?()\"'“”") for w in question[:2_000].split()]
    start = next((i for i, w in enumerate(words) if first in w.lower()), None)
    if start is None:
        return None
    if first[0].isdigit():  # a bare size: the name is the word before it, if there is one
        start -= 1
        while start >= 0 and words[start][:1].isdigit():
            start -= 1
        if start < 0 or not words[start].isascii() or not words[start][:1].isalpha() or (
                len(words[start]) < 3 or words[start].lower() in not_names):
            return None
    taken = [words[start]]
    for word in words[start + 1:]:
        # A version or a size continues the name ("olmo 3 32b"); a length or a count does not.
        if not word or not word[0].isdigit() or _NOT_NAME.match(word):
            break
        taken.append(word)
    query = " ".join(taken)
    return query if 2 <= len(query) <= MAX_QUERY else None


def pick(query: str, ids: list[str]) -> Found:
    """The result to read for `query` among the Hub's ids (most downloaded first): only ids
    whose name holds every part of the query count; of one family the most downloaded is read,
    several families are offered."""
    wanted = _parts(query)
    matching = []
    for repo in ids:
        if repo_id(repo) is None or "/" not in repo:
            continue
        name = "".join(_parts(repo.split("/", 1)[1]))
        if all(part in name for part in wanted):
            matching.append(repo)
    if not matching:
        return Found(None)
    families = list(dict.fromkeys(_family(repo) for repo in matching))
    if len(families) == 1:
        return Found(matching[0])
    firsts = [next(r for r in matching if _family(r) == f) for f in families[:CHOICES]]
    return Found(None, tuple(firsts))


def _family(repo: str) -> str:
    """A model family is the first word of its name: copies, quantizations and fine-tunes by
    other organisations keep it (Olmo-3-32B-Think-GGUF); a distill into another family, or
    another family naming the same size, does not."""
    return next(iter(_parts(repo.split("/", 1)[1])), "")


def _cache_file(query: str) -> Path | None:
    base = cache_dir()
    if base is None:
        return None
    digest = hashlib.sha256(("search:" + query.lower()).encode()).hexdigest()[:32]
    return base / "hub" / f"search-{digest}.json"


def _kept(query: str) -> list[str] | None:
    path = _cache_file(query)
    try:
        if path is None or time.time() - path.stat().st_mtime > KEEP_SECONDS:
            return None
        kept = json.loads(path.read_bytes()[:100_000])
        if kept.get("query") != query.lower() or not isinstance(kept.get("ids"), list):
            return None
        return [str(i) for i in kept["ids"]][:SEARCH_LIMIT]
    except (OSError, ValueError, AttributeError):
        return None  # missing or damaged: searched again


def _keep(query: str, ids: list[str]) -> None:
    path = _cache_file(query)
    if path is None:
        return
    try:
        hub_cache.keep(path, json.dumps({"query": query.lower(), "ids": ids}))
    except OSError as exc:
        log.warning("could not keep the Hub search for %r (%s)", query, exc.strerror or exc)


def _search(query: str) -> list[str]:
    from huggingface_hub import HfApi

    guarded_session()
    api = HfApi(endpoint=os.environ.get("HF_ENDPOINT") or None,
                token=os.environ.get("HF_TOKEN") or None)
    ids = []
    for model in api.list_models(search=query, sort="downloads", limit=SEARCH_LIMIT):
        repo = getattr(model, "id", None)
        if isinstance(repo, str):
            ids.append(repo[:200])
        if len(ids) >= SEARCH_LIMIT:  # a Hub that ignores the limit is not read further
            break
    return ids


def search_ids(query: str, deadline: float | None = None) -> list[str]:
    """The Hub's model ids for `query`, most downloaded first: kept from before, else asked
    within `deadline` seconds."""
    off = hub_off_reason()
    if off:
        raise HubError(off)
    kept = _kept(query)
    if kept is not None:
        return kept
    deadline = deadline if deadline is not None else configured_deadline()
    def work() -> list[str]:
        reach(deadline)
        return _search(query)

    try:
        ids = within(work, deadline, "mincards-hub-search")
    except TimeoutError:
        raise HubError(f"Hugging Face did not answer a search for “{query}” within "
                       f"{deadline:g} s") from None
    except HubError:
        raise
    except ImportError:
        raise HubError("searching Hugging Face needs huggingface_hub: pip install "
                       "'mincards[hub]'") from None
    except Exception as exc:
        log.debug("Hub search for %r failed", query, exc_info=True)
        raise HubError(f"cannot search Hugging Face for “{query}” "
                       f"({type(exc).__name__})") from None
    _keep(query, ids)
    return ids


def searched_shape(query: str) -> Shape:
    """The shape of the model the Hub's search finds for `query`, named by its id and said to
    be found by search; HubError when none, or several families, match."""
    found = pick(query, search_ids(query))
    if found.choices:
        raise HubError(f"the Hub has several models called “{query}” "
                       f"({', '.join(found.choices)}): ask again with the one you mean")
    if found.repo is None:
        raise HubError(f"the Hub's search found no model called “{query}”")
    shape = hub_shape(found.repo)
    check_named_size(query, shape)
    return Shape(name=found.repo, params_b=shape.params_b, active_b=shape.active_b,
                 layers=shape.layers, hidden=shape.hidden, vocab=shape.vocab,
                 vision=shape.vision, source="hub-search")
