"""What an operator watches: Prometheus' text format at /metrics on a listener of its own.

`METRICS_PORT` turns it on, bound to `METRICS_HOST` (127.0.0.1 unless set), so the port Slack
reaches never shows it. Under gunicorn the workers are separate processes: prometheus_client's
multiprocess mode has each write its samples to files in PROMETHEUS_MULTIPROC_DIR, and the
master, which serves /metrics, adds them up. `enable_multiprocess` must run before
prometheus_client is first imported, so this module imports it only inside its functions and
at the first count.

Every label value comes from this code's own vocabulary (a surface, an outcome, an intent, a
Web API method): never a person's text or a model name someone typed.
"""

from __future__ import annotations

import fcntl
import logging
import os
import re
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
# Acknowledgements must land within Slack's 3 s; replies within a few Slack round trips.
ACK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
REPLY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0)
log = logging.getLogger(__name__)


@dataclass
class _Metrics:
    """The instruments, made at first use (after multiprocess mode was chosen)."""

    made: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)
    items: dict[str, Any] = field(default_factory=dict)

    def get(self, name: str) -> Any:
        if not self.made:
            with self.lock:
                if not self.made:
                    self.items = _instruments()
                    self.made = True
        return self.items[name]


# A database read is cached; the misses take milliseconds, a bad day hundreds.
DATABASE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


def _instruments() -> dict[str, Any]:
    from prometheus_client import Counter, Histogram

    return {
        "requests": Counter("mincards_requests", "Requests from Slack, by surface and outcome",
                            ("surface", "outcome")),
        "ack": Histogram("mincards_ack_seconds", "Time from a request's arrival to its "
                         "acknowledgement", buckets=ACK_BUCKETS),
        "reply": Histogram("mincards_reply_seconds", "Time a listener took to answer, Slack "
                           "calls included", buckets=REPLY_BUCKETS),
        "answers": Counter("mincards_answers", "Answers given, by intent (not_found and "
                           "not_covered: the table had no answer)", ("intent",)),
        "slack": Counter("mincards_slack_calls", "Calls to Slack, by Web API method (or "
                         "response_url) and outcome", ("method", "outcome")),
        "redis": Counter("mincards_redis_fallbacks", "Times a call to Redis failed and this "
                         "process's memory answered instead"),
        "connections": Counter("mincards_connections", "HTTP connections, by what happened to "
                               "them", ("event",)),
        "database": Histogram("mincards_database_seconds", "Time a database call took, by "
                              "operation", ("operation",), buckets=DATABASE_BUCKETS),
        "surfaces": Counter("mincards_surface_results", "What the newer surfaces did, by "
                            "surface (unfurl, assistant, workflow_step) and result",
                            ("surface", "result")),
        "ready": Counter("mincards_readiness_checks", "Readiness checks (/readyz) of each "
                         "dependency, by result (ok, down)", ("dependency", "result")),
        "database_errors": Counter("mincards_database_errors", "Database calls that failed or "
                                   "timed out (the defaults answered), by operation",
                                   ("operation",)),
    }


_METRICS = _Metrics()


def prepare() -> None:
    """Make the instruments now (prometheus_client takes some 75 ms to import), at start-up,
    not during the first request; after multiprocess mode is chosen."""
    _METRICS.get("requests")


def request(surface: str, outcome: str) -> None:
    _METRICS.get("requests").labels(surface, outcome).inc()


def ack_seconds(seconds: float) -> None:
    _METRICS.get("ack").observe(seconds)


def reply_seconds(seconds: float) -> None:
    _METRICS.get("reply").observe(seconds)


def answer(intent: str) -> None:
    _METRICS.get("answers").labels(intent).inc()


def slack_call(method: str, outcome: str) -> None:
    _METRICS.get("slack").labels(method, outcome).inc()


def ready(dependency: str, ok: bool) -> None:
    _METRICS.get("ready").labels(dependency, "ok" if ok else "down").inc()


def redis_fallback() -> None:
    _METRICS.get("redis").inc()


def connection(event: str) -> None:
    _METRICS.get("connections").labels(event).inc()


def database(operation: str, seconds: float) -> None:
    _METRICS.get("database").labels(operation).observe(seconds)


def surface_result(surface: str, result: str) -> None:
    _METRICS.get("surfaces").labels(surface, result).inc()


def database_error(operation: str) -> None:
    _METRICS.get("database_errors").labels(operation).inc()


# prometheus_client's own sample files: counter_<pid>.db, histogram_<pid>.db, gauge_<mode>_<pid>.db.
_SAMPLES = re.compile(r"(?:counter|histogram|summary|gauge_[a-z]+)_(\d+)\.db")
# Held (flock) by the bot that serves this folder's samples, for as long as it runs.
LOCK_NAME = "mincards-metrics.lock"


class FolderInUse(Exception):
    """Another live bot adds up the samples in this folder."""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def claim(folder: Path) -> IO[bytes]:
    """Hold the folder for this bot (and the workers it forks), or FolderInUse when another
    live bot holds it: two bots adding up one folder would count each other's requests. Then
    remove the sample files of processes that are gone (a previous run's), never a live
    process's, and nothing that is not a sample file."""
    lock = (folder / LOCK_NAME).open("ab")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        raise FolderInUse(str(folder)) from None
    for path in folder.iterdir():
        match = _SAMPLES.fullmatch(path.name)
        if match and path.is_file() and not _alive(int(match.group(1))):
            path.unlink(missing_ok=True)
    return lock


# Inside a folder the operator named, the samples live in a folder of their own: the collector
# reads every *.db file where the samples are, and another program's file there (its own
# important.db) made /metrics answer 500 and hid every count.
OWN_FOLDER = "mincards-samples"


def enable_multiprocess() -> tuple[Path, IO[bytes]]:
    """Choose multiprocess mode for this process and those it forks (gunicorn's workers): a
    fresh folder for their sample files, or a folder of the bot's own inside the one the
    operator named (nothing else in it is read, moved or removed); held while it runs."""
    named = os.environ.get(MULTIPROC_ENV)
    if named:
        folder = Path(named) / OWN_FOLDER
        folder.mkdir(parents=True, exist_ok=True)
    else:
        folder = Path(tempfile.mkdtemp(prefix="mincards-metrics-"))
    # The workers gunicorn forks write where the master reads.
    os.environ[MULTIPROC_ENV] = str(folder)
    try:
        return folder, claim(folder)
    except FolderInUse:
        raise FolderInUse(named or str(folder)) from None


def worker_exited(pid: int) -> None:
    """A worker is gone (recycled, signalled, reloaded): its live gauges no longer count. Its
    counters stay, so totals never go back."""
    if os.environ.get(MULTIPROC_ENV):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)


def serve_metrics(host: str, port: int) -> None:
    """Serve /metrics from a thread of this process: every process's samples in multiprocess
    mode, this one's otherwise."""
    from prometheus_client import REGISTRY, CollectorRegistry, start_http_server

    registry: Any = REGISTRY
    if os.environ.get(MULTIPROC_ENV):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    start_http_server(port, host, registry=registry)
    log.info("metrics on http://%s:%d/metrics", host, port)
