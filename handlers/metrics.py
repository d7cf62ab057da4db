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

import logging
import os
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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


def redis_fallback() -> None:
    _METRICS.get("redis").inc()


def connection(event: str) -> None:
    _METRICS.get("connections").labels(event).inc()


def enable_multiprocess() -> Path:
    """Choose multiprocess mode for this process and those it forks (gunicorn's workers): a
    fresh folder for their sample files, unless the operator named one."""
    named = os.environ.get(MULTIPROC_ENV)
    if named:
        folder = Path(named)
        folder.mkdir(parents=True, exist_ok=True)
        for stale in folder.glob("*.db"):  # a previous run's samples would be added in
            stale.unlink()
    else:
        folder = Path(tempfile.mkdtemp(prefix="mincards-metrics-"))
        os.environ[MULTIPROC_ENV] = str(folder)
    return folder


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
