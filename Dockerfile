# The bot as an image: `mincards serve` in HTTP mode (or --mode socket), non-root, the exact
# versions the suite last passed with (constraints.txt). Build: docker build -t mincards .
# Settings come from the environment, each secret also from NAME_FILE (docs/operations.md).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
# What the package is built from, and nothing else (.dockerignore keeps .env and tests out).
COPY pyproject.toml README.md constraints.txt ./
COPY src ./src
COPY bot ./bot
COPY handlers ./handlers
COPY playground ./playground
COPY data ./data
RUN pip install --constraint constraints.txt '.[slack]' \
    && rm -rf /app/build \
    && useradd --uid 10001 --user-group --no-create-home --shell /usr/sbin/nologin mincards \
    && mkdir -p /var/lib/mincards /var/cache/mincards \
    && chown mincards:mincards /var/lib/mincards /var/cache/mincards

# The SQLite settings database (when DATABASE_URL is not set) and the facts cache: writable
# folders of their own, so the rest of the filesystem can be read-only.
ENV XDG_STATE_HOME=/var/lib/mincards \
    MINCARDS_CACHE=/var/cache/mincards \
    HOST=0.0.0.0 \
    PORT=3000 \
    LOG_FORMAT=json \
    DRAIN_SECONDS=8
VOLUME ["/var/lib/mincards"]
USER 10001:10001
EXPOSE 3000

# Alive: /healthz on PORT (HEALTH_PORT in Socket Mode). `mincards probe --ready` asks /readyz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["mincards", "probe"]
# SIGTERM drains: acknowledged replies get DRAIN_SECONDS, gunicorn one second more, inside
# Docker's default 10 s stop timeout.
STOPSIGNAL SIGTERM
ENTRYPOINT ["mincards", "serve"]
CMD ["--mode", "http"]
