"""Optional OpenTelemetry traces around a request, its answering, its Slack calls and its
database calls. Off unless configured with OpenTelemetry's own variables
(OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; OTEL_SERVICE_NAME,
OTEL_SDK_DISABLED and the rest as the SDK reads them) and installed (`pip install
'mincards[otel]'`); off, each span is a no-op costing one attribute check. Spans are sent over
OTLP/HTTP in batches by the SDK's own thread, never on the path of an acknowledgement; what is
still buffered when a process exits is sent by the SDK's own exit hook."""

from __future__ import annotations

import contextlib
import logging
import os
from typing import Any

log = logging.getLogger(__name__)
ENDPOINT_ENVS = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
SERVICE = "mincards"


class _Tracing:
    tracer: Any = None


_STATE = _Tracing()


def configured() -> bool:
    if os.environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    return any(os.environ.get(name, "").strip() for name in ENDPOINT_ENVS)


def start() -> bool:
    """Set up the exporter in this process (each worker, after the fork); True when on."""
    if _STATE.tracer is not None or not configured():
        return _STATE.tracer is not None
    try:
        from opentelemetry import trace
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError:
        log.warning("OpenTelemetry is configured (%s) but not installed: pip install "
                    "'mincards[otel]'; no traces this run", " or ".join(ENDPOINT_ENVS))
        return False
    name = os.environ.get("OTEL_SERVICE_NAME") or SERVICE
    provider = TracerProvider(resource=Resource.create({"service.name": name}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    _STATE.tracer = trace.get_tracer("mincards")
    log.info("OpenTelemetry traces on, as service %s", name)
    return True


# Off, every span is this one object: nothing made per call on the answering path.
_OFF = contextlib.nullcontext()


def span(name: str, **attributes: str | int | float | bool
         ) -> contextlib.AbstractContextManager[Any]:
    if _STATE.tracer is None:
        return _OFF
    return _STATE.tracer.start_as_current_span(name, attributes=attributes)


def enter_span(name: str, **attributes: str | int | float | bool) -> str | None:
    """Start a span and make it current for the rest of this task (a request's own; the
    listeners Bolt runs after the middleware, and the tasks they start, are its children),
    ended at once: it marks the request's arrival. Its trace id, when tracing is on."""
    if _STATE.tracer is None:
        return None
    from opentelemetry import context, trace

    started = _STATE.tracer.start_span(name, attributes=attributes)
    context.attach(trace.set_span_in_context(started))
    started.end()
    return format(started.get_span_context().trace_id, "032x")


def current_trace_id() -> str | None:
    """The trace id of the current span as 32 hex digits, when tracing is on."""
    if _STATE.tracer is None:
        return None
    from opentelemetry import trace

    context = trace.get_current_span().get_span_context()
    return format(context.trace_id, "032x") if context.is_valid else None
