"""A throwaway PostgreSQL server for tests (Debian's apt package), on a free loopback port.

initdb and the server refuse to run as root, so as root pg_ctl runs as the ``postgres``
user that the package creates. The cluster lives in a temporary directory and trusts
local connections; stop() and start() keep its data, as a restart of the server does.
"""

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path

from .servers import LOOPBACK, free_port, server_env


def postgres_bin(program):
    """Debian keeps the server's programs in /usr/lib/postgresql/<version>/bin, off the PATH."""
    installed = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{program}"), reverse=True)
    found = shutil.which(program) or next(iter(installed), None)
    if found is None:
        raise RuntimeError(f"{program} not found: install PostgreSQL (scripts/test does: apt-get install postgresql)")
    return found


def _as_server_user(argv):
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


class PostgresServer:
    """A cluster in ``directory``, run by pg_ctl, which waits for the server to start and to stop."""

    def __init__(self, port, directory):
        self.port = port
        self.directory = Path(directory)
        self.data = self.directory / "data"

    @property
    def url(self):
        return f"postgresql+psycopg://postgres@{LOOPBACK}:{self.port}/postgres"

    def _pg_ctl(self, *args, timeout=60):
        argv = [postgres_bin("pg_ctl"), "-D", self.data, "-w", "-t", str(timeout), *args]
        subprocess.run(_as_server_user(argv), check=True, capture_output=True, timeout=timeout + 10, env=server_env())

    def init(self):
        if os.geteuid() == 0:
            shutil.chown(self.directory, "postgres")
        self._pg_ctl("initdb", "-o", "-U postgres --auth=trust -E UTF8", timeout=120)
        return self

    def start(self, timeout=30):
        options = f"-p {self.port} -h {LOOPBACK} -k {self.directory} -c fsync=off -c full_page_writes=off"
        self._pg_ctl("start", "-o", options, "-l", self.directory / "postgres.log", timeout=timeout)
        return self

    def stop(self, timeout=15):
        """Fast shutdown: open connections are cut, as when the server goes down."""
        self._pg_ctl("stop", "-m", "fast", timeout=timeout)

    def require_password(self, role):
        """Connections as ``role`` must give its password (the others stay trusted)."""
        hba = self.data / "pg_hba.conf"
        hba.write_text(f"host all {role} {LOOPBACK}/32 scram-sha-256\n" + hba.read_text())
        self._pg_ctl("reload")

    def create_database(self, name):
        """A fresh database on this server, and its URL."""
        subprocess.run(
            [postgres_bin("createdb"), "-h", LOOPBACK, "-p", str(self.port), "-U", "postgres", name],
            check=True, capture_output=True, timeout=30,
        )  # fmt: skip
        return self.url.rsplit("/", 1)[0] + f"/{name}"


@contextmanager
def postgres_server():
    """Start PostgreSQL on a free loopback port in a fresh cluster; stop it and delete it afterwards."""
    directory = tempfile.mkdtemp(prefix="postgres-")
    server = PostgresServer(free_port(), directory)
    try:
        yield server.init().start()
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            server.stop()
        shutil.rmtree(directory, ignore_errors=True)
