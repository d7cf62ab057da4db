"""A real PostgreSQL server on a free loopback port, started and stopped by the test that needs
it: `initdb` into a temporary folder and `pg_ctl`, as an unprivileged user when the tests run
as root (PostgreSQL refuses to run as root)."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.bot_process import free_port

USER = "mincards"  # the database role


def _binary(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(str(p) for p in Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    if not candidates:
        raise AssertionError(f"{name} is not installed (`make test` installs Debian's "
                             "postgresql with apt-get when it can)")
    return candidates[-1]


def _runner() -> tuple[list[str], int | None, int | None]:
    """(the command prefix, uid, gid): PostgreSQL's own user, or nobody, when we are root."""
    if os.geteuid() != 0:
        return [], None, None
    for name in ("postgres", "nobody"):
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        return ["runuser", "-u", name, "--"], entry.pw_uid, entry.pw_gid
    raise AssertionError("running as root with no unprivileged user for PostgreSQL")


@dataclass
class Postgres:
    url: str          # postgresql+asyncpg://...
    folder: Path
    port: int

    def _ctl(self, *args: str, check: bool = True) -> None:
        prefix, _, _ = _runner()
        subprocess.run([*prefix, _binary("pg_ctl"), "-D", str(self.folder / "data"), *args],
                       check=check, capture_output=True, timeout=90)

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off")
        self._ctl("-o", options, "-l", str(self.folder / "server.log"), "-w", "-t", "60",
                  "start")

    def stop(self) -> None:
        """Stop the server at once (a database going down mid-test)."""
        self._ctl("-m", "immediate", "-w", "stop", check=False)


@contextlib.contextmanager
def running_postgres() -> Iterator[Postgres]:
    """A server in a folder of its own under the system's temporary folder (PostgreSQL's user
    must reach it, which pytest's private folders do not allow); gone when the block ends."""
    prefix, uid, gid = _runner()
    folder = Path(tempfile.mkdtemp(prefix="mincards-pg-"))
    folder.chmod(0o755)
    if uid is not None and gid is not None:
        os.chown(folder, uid, gid)
    try:
        subprocess.run([*prefix, _binary("initdb"), "-D", str(folder / "data"), "-U", USER,
                        "--auth=trust", "-E", "UTF8", "--no-sync"], check=True,
                       capture_output=True, timeout=120)
        port = free_port()
        server = Postgres(f"postgresql+asyncpg://{USER}@127.0.0.1:{port}/postgres", folder, port)
        server.start()
        try:
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
