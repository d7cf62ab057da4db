"""What must outlive one request: events already answered, and each conversation's context.

One small interface, `State`, with two implementations: `MemoryState` in this process (the
default) and `RedisState`, shared by every process and machine that points at the same Redis
(`REDIS_URL`), so that a retry landing on another worker is still answered once and a thread
goes on wherever its next question lands. Redis holds event ids and parsed contexts (model
keys, strategy, lengths, budget), never a person's text, and every key expires.

Redis being down never stops an answer: `RedisState` falls back to its own process memory for a
few seconds at a time (a retry then may be answered twice, which beats not at all) and says so
in the log at most once a minute. The process's own memory is always asked first, and the ids it
answered alone are written back when Redis returns: a redelivery after the outage (or after a
Redis restart without persistence) is not answered again, here or by another process.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol, TypeVar
from urllib.parse import urlparse

from mincards.bot import shallow_json
from mincards.bot.answering.conversation import KEEP_SECONDS as CONTEXT_SECONDS
from mincards.bot.answering.conversation import Context, MemoryContexts
from mincards.handlers import metrics

log = logging.getLogger(__name__)
T = TypeVar("T")
# A call to Redis gives up after this much time waiting on it (a socket timeout, on the Redis
# threads: see RedisState); an ack must never wait long on a slow store.
REDIS_TIMEOUT_SECONDS = 0.25
# Threads that talk to Redis: calls beyond them queue, and each is one quick round trip.
REDIS_THREADS = 8
# After a failure Redis is left alone this long (this process's memory answers meanwhile).
REDIS_PAUSE_SECONDS = 5.0
WARN_EVERY_SECONDS = 60.0
PREFIX = "mincards:"
# Slack retries a delivery three times within about five minutes; keep ids well past that.
EVENT_SECONDS = 15 * 60
MAX_EVENT_IDS = 50_000


class SeenEvents:
    """A bounded, expiring set of event ids; thread-safe."""

    def __init__(self, keep_seconds: float = EVENT_SECONDS, max_ids: int = MAX_EVENT_IDS) -> None:
        self.keep = keep_seconds
        self.max = max_ids
        self._seen: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def first_time(self, event_id: str) -> bool:
        """True the first time an id is offered (and remembers it); False after."""
        now = time.monotonic()
        with self._lock:
            while self._seen and (next(iter(self._seen.values())) < now - self.keep
                                  or len(self._seen) >= self.max):
                self._seen.popitem(last=False)
            if event_id in self._seen:
                return False
            self._seen[event_id] = now
            return True

    def __contains__(self, event_id: object) -> bool:
        with self._lock:
            return event_id in self._seen


class State(Protocol):
    async def first_time(self, event_id: str) -> bool:
        """True the first time an event id is offered (and remembers it); False after."""

    async def context(self, key: str) -> Context | None:
        """The conversation's context, if it has one that has not expired."""

    async def remember(self, key: str, context: Context | None) -> None:
        """Keep the conversation's context; None forgets it."""

    async def close(self) -> None: ...


class MemoryState:
    """This process's memory: bounded and expiring (see SeenEvents and MemoryContexts)."""

    def __init__(self) -> None:
        self.seen = SeenEvents()
        self.contexts = MemoryContexts()

    async def first_time(self, event_id: str) -> bool:
        return self.seen.first_time(event_id)

    async def context(self, key: str) -> Context | None:
        return self.contexts.get(key)

    async def remember(self, key: str, context: Context | None) -> None:
        self.contexts.put(key, context)

    async def close(self) -> None:
        return None


def redis_location(url: str) -> str:
    """host:port/db of a Redis URL, for logs: never its password."""
    parsed = urlparse(url)
    return f"{parsed.hostname or 'localhost'}:{parsed.port or 6379}{parsed.path or ''}"


class RedisState:
    """Redis through a synchronous client on a few threads of its own: a call's timeout is
    then the socket's, real time spent waiting on Redis. With redis-py's asyncio client the
    timer ran on the event loop, and a process busy answering a burst (the loop held for a
    second or more) let it fire on a healthy Redis: the fallback to memory then answered
    retries on two workers twice (a fresh-clone CI run beside a CPU burner; 23 of 150)."""

    def __init__(self, url: str, fallback: MemoryState | None = None) -> None:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        # No retries inside redis-py: one bounded attempt, then this process's memory.
        self.redis = redis.Redis.from_url(url, socket_timeout=REDIS_TIMEOUT_SECONDS,
                                          socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
                                          retry=Retry(NoBackoff(), 0), decode_responses=True,
                                          max_connections=REDIS_THREADS * 2)
        self._threads = ThreadPoolExecutor(REDIS_THREADS, thread_name_prefix="mincards-redis")
        self.where = redis_location(url)
        self.fallback = fallback or MemoryState()
        self._paused_until = 0.0
        self._warned_at = -WARN_EVERY_SECONDS
        self._warned_context_at = -WARN_EVERY_SECONDS
        # Ids this process answered while Redis was away: written back when it returns.
        self._unshared: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    async def _call(self, work: Callable[[], T]) -> T:
        """`work` on the Redis threads; what it raises is raised here. A call queued behind a
        failure that paused Redis gives up at once, without a wait of its own."""
        def guarded() -> T:
            if not self._usable():
                raise _Paused
            return work()

        return await asyncio.get_running_loop().run_in_executor(self._threads, guarded)

    def _usable(self) -> bool:
        return time.monotonic() >= self._paused_until

    def _failed(self, exc: BaseException) -> None:
        if isinstance(exc, _Paused):
            return
        now = time.monotonic()
        self._paused_until = now + REDIS_PAUSE_SECONDS
        metrics.redis_fallback()
        if now - self._warned_at >= WARN_EVERY_SECONDS:
            self._warned_at = now
            log.warning("Redis at %s is unreachable (%s); answering from this process's memory "
                        "(a retry landing on another process may be answered twice)",
                        self.where, type(exc).__name__)

    async def first_time(self, event_id: str) -> bool:
        # This process's memory first: what it answered while Redis was away (or before a
        # Redis restart that lost its keys) is never answered again by it.
        if event_id in self.fallback.seen:
            return False
        if self._usable():
            try:
                stored = await self._call(lambda: self._claim(event_id))
                self.fallback.seen.first_time(event_id)  # known here too, should Redis go
                return stored
            except Exception as exc:  # any failure of the store: answer anyway
                self._failed(exc)
        first = await self.fallback.first_time(event_id)
        if first:
            with self._lock:
                self._unshared[event_id] = time.monotonic()
                while len(self._unshared) > MAX_EVENT_IDS:
                    self._unshared.popitem(last=False)
        return first

    def _claim(self, event_id: str) -> bool:
        if self._unshared:
            self._share_unshared()
        return bool(self.redis.set(f"{PREFIX}event:{event_id}", "1", nx=True,
                                   ex=EVENT_SECONDS))

    def _share_unshared(self) -> None:
        """Tell Redis the ids this process answered alone, with what is left of their time, so
        a redelivery landing on another process is not answered again either."""
        now = time.monotonic()
        with self._lock:
            pending = [(i, EVENT_SECONDS - (now - t)) for i, t in self._unshared.items()]
        with self.redis.pipeline(transaction=False) as pipe:
            for event_id, left in pending:
                if left >= 1:
                    pipe.set(f"{PREFIX}event:{event_id}", "1", nx=True, ex=int(left))
            pipe.execute()
        with self._lock:
            for event_id, _ in pending:
                self._unshared.pop(event_id, None)

    async def context(self, key: str) -> Context | None:
        if self._usable():
            try:
                raw = await self._call(lambda: self.redis.get(f"{PREFIX}context:{key}"))
            except Exception as exc:
                self._failed(exc)
            else:
                if raw is None:
                    return None
                return await self._decoded(key, raw)
        return await self.fallback.context(key)

    async def _decoded(self, key: str, raw: str | bytes) -> Context | None:
        """A stored context, or None (and the key dropped) when it is not one this bot wrote:
        corrupted, or nested deep enough to exhaust the parser."""
        try:
            context = Context.from_json(shallow_json.loads(raw))
            problem = "not a context" if context is None else ""
        except (ValueError, TypeError, AttributeError, RecursionError) as exc:
            context, problem = None, type(exc).__name__
        if context is not None:
            return context
        now = time.monotonic()
        if now - self._warned_context_at >= WARN_EVERY_SECONDS:
            self._warned_context_at = now
            log.warning("dropped a conversation context in Redis that this bot cannot read "
                        "(%s); that thread starts afresh", problem)
        try:
            await self._call(lambda: self.redis.delete(f"{PREFIX}context:{key}"))
        except Exception as failure:
            self._failed(failure)
        return None

    async def remember(self, key: str, context: Context | None) -> None:
        await self.fallback.remember(key, context)
        if not self._usable():
            return
        name = f"{PREFIX}context:{key}"
        try:
            if context is None:
                await self._call(lambda: self.redis.delete(name))
            else:
                text = json.dumps(context.json())
                await self._call(lambda: self.redis.set(name, text, ex=int(CONTEXT_SECONDS)))
        except Exception as exc:
            self._failed(exc)

    async def close(self) -> None:
        try:
            await asyncio.get_running_loop().run_in_executor(self._threads, self.redis.close)
        except Exception:  # closing a connection that never opened
            log.debug("closing the Redis client failed", exc_info=True)
        self._threads.shutdown(wait=False, cancel_futures=True)


class _Paused(Exception):
    """A call that found Redis paused by an earlier failure when its turn came."""


def redis_problem(url: str, timeout: float = 2.0) -> str | None:
    """Why Redis at `url` cannot be used right now, in a few words (never the password); None
    when it answers."""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
    try:
        client.ping()
    except redis.AuthenticationError:
        return "it refused the password in REDIS_URL"
    except redis.ResponseError as exc:
        if "NOAUTH" in str(exc) or "WRONGPASS" in str(exc):
            return "it wants a password (none, or the wrong one, is in REDIS_URL)"
        return f"it answered with an error ({type(exc).__name__})"
    except (redis.ConnectionError, redis.TimeoutError, OSError) as exc:
        return f"it cannot be reached ({type(exc).__name__})"
    except redis.RedisError as exc:  # bytes that are not Redis' protocol, and the like
        return f"it does not answer as Redis does ({type(exc).__name__})"
    finally:
        client.close()
    return None


def make_state(redis_url: str | None) -> State:
    return RedisState(redis_url) if redis_url else MemoryState()
