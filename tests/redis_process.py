"""A real redis-server on a free loopback port, started and stopped by the test that needs it."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import redis

from tests.bot_process import free_port


@contextlib.contextmanager
def running_redis(workdir: Path, password: str | None = None, port: int | None = None
                  ) -> Iterator[str]:
    """Yields the server's URL; the server is gone when the block ends. `port`: a given one
    (a Redis restarted where the bot expects it), else a free one."""
    exe = shutil.which("redis-server")
    if exe is None:
        raise AssertionError("redis-server is not installed (`make test` installs it with "
                             "apt-get when it can: apt-get install -y redis-server)")
    port = port or free_port()
    args = [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", str(workdir)]
    if password:
        args += ["--requirepass", password]
    log = (workdir / f"redis-{port}.log").open("wb")
    process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
    auth = f":{password}@" if password else ""
    url = f"redis://{auth}127.0.0.1:{port}/0"
    try:
        client = redis.Redis.from_url(url, socket_timeout=1)
        deadline = time.monotonic() + 30
        while True:
            try:
                if client.ping():
                    break
            except redis.RedisError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise AssertionError("redis-server did not come up") from None
                time.sleep(0.05)
        client.close()
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
