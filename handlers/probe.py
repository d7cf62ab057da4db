"""`mincards probe`: ask a running bot's /healthz (or /readyz) and exit 0 when it answers 200.

For the places that run a command rather than an HTTP request to decide whether a process is
well: Docker's HEALTHCHECK, compose's healthcheck, a Procfile platform, a shell. Kubernetes asks
the paths itself (httpGet probes). The port is the one the process serves its probes on: in
Socket Mode HEALTH_PORT, in HTTP mode PORT (HEALTH_PORT when set wins, as it is only ever the
probes' port). Standard library only: it runs in the image without curl."""

from __future__ import annotations

import http.client
import os

from mincards.bot.errors import MincardsError
from mincards.handlers.readiness import HEALTH_PATH, READY_PATH

# A probe that waits longer than this is a process that is not well.
PROBE_SECONDS = 3.0
DEFAULT_PORT = 3000


def probe_port(configured: int | None = None) -> int:
    """The port to ask: the one given, else HEALTH_PORT, else PORT, else 3000."""
    if configured is not None:
        return _checked(str(configured), "--port")
    for name in ("HEALTH_PORT", "PORT"):
        value = os.environ.get(name, "").strip()
        if value:
            return _checked(value, name)
    return DEFAULT_PORT


def _checked(value: str, name: str) -> int:
    if not value.isdigit() or not 0 < int(value) < 65536:
        raise MincardsError(f"{name} is not a port (1-65535): {value[:20]!r}")
    return int(value)


def probe(port: int, *, ready: bool = False, host: str = "127.0.0.1",
          timeout: float = PROBE_SECONDS) -> tuple[bool, str]:
    """(well, one line saying what the process answered)."""
    path = READY_PATH if ready else HEALTH_PATH
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"User-Agent": "mincards-probe"})
        response = connection.getresponse()
        body = response.read(4096).decode("utf-8", "replace")
    except (OSError, http.client.HTTPException) as exc:
        reason = (f"no answer within {timeout:g} s" if isinstance(exc, TimeoutError)
                  else getattr(exc, "strerror", None) or type(exc).__name__)
        return False, f"{host}:{port}{path}: {reason}"
    finally:
        connection.close()
    said = " ".join(body.split())[:300]
    return response.status == 200, f"{host}:{port}{path}: {response.status} {said}".rstrip()
