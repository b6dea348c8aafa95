"""A throwaway PostgreSQL server for tests (Debian's apt package), on a free loopback port.

initdb and the server refuse to run as root, so as root they run as the ``postgres``
user that the package creates. The cluster lives in a temporary directory and trusts
local connections; stop() and start() keep its data, as a restart of the server does.
"""

import contextlib
import glob
import os
import shutil
import signal
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path

from .servers import LOOPBACK, ManagedProcess, free_port, server_env, wait_until


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
    def __init__(self, port, directory):
        self.port = port
        self.directory = Path(directory)
        self.data = self.directory / "data"
        self.process = None

    @property
    def url(self):
        return f"postgresql+psycopg://postgres@{LOOPBACK}:{self.port}/postgres"

    def init(self):
        if os.geteuid() == 0:
            shutil.chown(self.directory, "postgres")
        subprocess.run(
            _as_server_user([postgres_bin("initdb"), "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8"]),
            check=True, capture_output=True, timeout=120, env=server_env(),
        )  # fmt: skip
        return self

    def start(self, timeout=30):
        argv = [postgres_bin("postgres"), "-D", self.data, "-p", str(self.port), "-h", LOOPBACK, "-k", self.directory,
                "-c", "fsync=off", "-c", "full_page_writes=off"]  # fmt: skip
        log = Path(self.directory) / "postgres.log"
        self.process = ManagedProcess(_as_server_user(argv), env=server_env(), name="postgres", log_path=log).start()
        wait_until(lambda: self.ready() or not self.process.alive(), timeout, message="PostgreSQL up")
        if not self.process.alive():
            raise RuntimeError(f"PostgreSQL exited at start:\n{self.process.tail()}")
        return self

    def ready(self):
        argv = [postgres_bin("pg_isready"), "-h", LOOPBACK, "-p", str(self.port), "-t", "1"]
        return subprocess.run(argv, capture_output=True, timeout=10).returncode == 0

    def stop(self, timeout=15):
        """Fast shutdown (SIGINT): open connections are cut, as when the server goes down."""
        if self.process is None or not self.process.alive():
            return
        with contextlib.suppress(OSError, ValueError, IndexError):  # to the server: runuser does not pass SIGINT on
            os.kill(int((self.data / "postmaster.pid").read_text().split()[0]), signal.SIGINT)
        self.process.wait(timeout)
        self.process.stop(timeout)

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
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)
