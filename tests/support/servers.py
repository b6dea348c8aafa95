"""Real server processes for tests and benchmarks: redis-server, gunicorn and nginx on loopback.

Shared by the test suites (deploy, load, fault tests) and the lab's benchmarks::

    from tests.support.client import HttpClient
    from tests.support.servers import gunicorn_server, redis_server

    with redis_server() as redis, gunicorn_server(env={"FLASK_SESSION_TYPE": "redis",
                                                       "FLASK_REDIS_URL": redis.url}) as app:
        client = HttpClient(app.url)
        assert client.post("/api/game", json={"seed": 1}).status == 201

Every process runs in its own process group and is stopped on exit (SIGTERM, then
SIGKILL for the whole group), every wait has a deadline and all traffic stays on
127.0.0.1. Processes and sockets are read with psutil, Redis is asked with redis-py.
"""

import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager, suppress
from pathlib import Path

import psutil
import redis

from tests.support.client import http_status

PROJECT_ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
APP = "app:create_app()"
# Inherited variables that would change how a server under test behaves.
_SCRUBBED_PREFIXES = (
    "FLASK_", "GUNICORN_", "WEB_CONCURRENCY", "XDG_RUNTIME_DIR", "PYTHONPATH", "HTTP_PROXY", "HTTPS_PROXY",
)


def free_port(host=LOOPBACK):
    """A TCP port that nothing listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def wait_until(predicate, timeout, interval=0.05, message="condition"):
    """Call ``predicate`` until it returns something truthy, which is returned; else TimeoutError."""
    deadline = time.monotonic() + timeout
    while True:
        result = predicate()
        if result:
            return result
        if time.monotonic() >= deadline:
            raise TimeoutError(f"{message} not met within {timeout} s")
        time.sleep(interval)


def _alive(process):
    return process.status() != psutil.STATUS_ZOMBIE


def _group(pgid):
    """The live (not zombie) members of process group ``pgid``."""
    for process in psutil.process_iter():
        with suppress(psutil.Error, ProcessLookupError):
            if os.getpgid(process.pid) == pgid and _alive(process):
                yield process


def child_pids(pid):
    """The live direct children of ``pid`` (e.g. a gunicorn master's workers)."""
    with suppress(psutil.NoSuchProcess):
        return sorted(child.pid for child in psutil.Process(pid).children() if _alive(child))
    return []


def group_cpu_seconds(pgid):
    """CPU time (user and system) used so far by the live members of process group ``pgid``."""
    total = 0.0
    for process in _group(pgid):
        with suppress(psutil.Error):
            times = process.cpu_times()
            total += times.user + times.system
    return total


def listening_sockets(port):
    """How many TCP sockets listen on ``port`` (several with SO_REUSEPORT)."""
    return sum(1 for c in psutil.net_connections("tcp") if c.status == psutil.CONN_LISTEN and c.laddr.port == port)


def server_env(extra=None):
    """The current environment without FLASK_*/gunicorn/proxy settings, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith(_SCRUBBED_PREFIXES)}
    env["NO_PROXY"] = env["no_proxy"] = "*"
    env.update({k: str(v) for k, v in (extra or {}).items()})
    return env


def gunicorn_command():
    """How to start this interpreter's gunicorn (its script next to python, else ``-m``)."""
    script = Path(sys.executable).parent / "gunicorn"
    return [str(script)] if script.exists() else [sys.executable, "-m", "gunicorn"]


def readme_command(port):
    """The README's command that serves the game (its ``gunicorn ...``), bound to 127.0.0.1:port."""
    line = next(line for line in (PROJECT_ROOT / "README.md").read_text().splitlines() if "gunicorn -b" in line)
    argv = shlex.split(line[line.index("gunicorn -b") :])
    assert argv[2] == "127.0.0.1:8000", f"the README's command binds {argv[2]}"
    return local_argv([*argv[:2], f"{LOOPBACK}:{port}", *argv[3:]])


def local_argv(argv):
    """An image's command line made runnable here: its gunicorn and python become ours."""
    head, rest = argv[0], list(argv[1:])
    if head == "gunicorn":
        return gunicorn_command() + rest
    if head in ("python", "python3"):
        return [sys.executable, *rest]
    return [head, *rest]


class ManagedProcess:
    """A child process in its own process group, its output in a log file."""

    def __init__(self, argv, *, log_path, env=None, cwd=None, name="process"):
        self.argv = [str(a) for a in argv]
        self.env = env
        self.cwd = cwd
        self.name = name
        self.log_path = Path(log_path)
        self.popen = None

    def start(self):
        with open(self.log_path, "ab") as log:
            self.popen = subprocess.Popen(
                self.argv,
                env=self.env,
                cwd=self.cwd,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return self

    @property
    def pid(self):
        return self.popen.pid

    def alive(self):
        return self.popen is not None and self.popen.poll() is None

    def log(self):
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def signal(self, signum):
        if not self.alive():
            return
        with suppress(ProcessLookupError):
            self.popen.send_signal(signum)

    def wait(self, timeout):
        """The exit code, or None if still running after ``timeout`` seconds."""
        try:
            return self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill(self):
        """SIGKILL the whole process group at once (a crash, an OOM kill).

        Returns once every member is dead, so that their sockets are closed.
        """
        if self.popen is None:
            return None
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        code = self.wait(10)
        wait_until(lambda: not any(_group(self.popen.pid)), 10, message=f"{self.name} group gone")
        return code

    def stop(self, timeout=10):
        """SIGTERM to the leader, then SIGKILL to the group; always reaps. Returns the exit code."""
        if self.popen is None:
            return None
        code = None
        if self.alive():
            self.signal(signal.SIGTERM)
            code = self.wait(timeout)
        with suppress(ProcessLookupError, PermissionError):  # leftovers (workers of a crashed master) go too
            os.killpg(self.popen.pid, signal.SIGKILL)
        if code is None:
            code = self.wait(10)
        return code

    def tail(self, lines=30):
        return "\n".join(self.log().splitlines()[-lines:])


# --- redis-server -----------------------------------------------------------------------


class RedisServer:
    """A throwaway redis-server on 127.0.0.1 that can be stopped and started on the same port.

    With ``password``, clients must give it (``--requirepass``, as compose's Redis); ``url`` carries it.
    """

    def __init__(self, port, directory, binary=REDIS_SERVER, password=None):
        self.port = port
        self.directory = Path(directory)
        self.binary = binary
        self.password = password
        self.process = None

    @property
    def url(self):
        credentials = f":{self.password}@" if self.password else ""
        return f"redis://{credentials}{LOOPBACK}:{self.port}/0"

    def start(self, timeout=10):
        if self.process is not None and self.process.alive():
            raise RuntimeError("redis-server is already running")
        argv = [
            self.binary,
            "--port", str(self.port),
            "--bind", LOOPBACK,
            "--save", "",
            "--appendonly", "no",
            "--dir", str(self.directory),
            "--daemonize", "no",
            "--protected-mode", "yes",
            "--logfile", "",
            *(["--requirepass", self.password] if self.password else []),
        ]  # fmt: skip
        self.process = ManagedProcess(
            argv, env=server_env(), log_path=self.directory / "redis.log", name="redis"
        ).start()
        try:
            wait_until(lambda: self.ping() or not self.process.alive(), timeout, message="redis-server PING")
        except TimeoutError:
            self.stop()
            raise
        if not self.process.alive():
            raise RuntimeError(f"redis-server exited at start:\n{self.process.tail()}")
        return self

    def stop(self, timeout=10):
        """SIGTERM (nothing is saved: --save '') and wait until the port is closed."""
        if self.process is not None:
            self.process.stop(timeout)

    def client(self):
        """A redis-py client of this server (short timeouts: tests stop and start it)."""
        return redis.Redis(host=LOOPBACK, port=self.port, password=self.password, socket_timeout=2,
                           socket_connect_timeout=2)

    def save(self):
        """Write dump.rdb now (there is no automatic saving): the next start() loads it."""
        with self.client() as client:
            client.save()

    def ping(self):
        try:
            with self.client() as client:
                return client.ping()
        except redis.RedisError:
            return False


@contextmanager
def redis_server(port=None, directory=None, timeout=10, password=None):
    """Start redis-server on a free loopback port (no persistence); stop it afterwards."""
    with tempfile.TemporaryDirectory(prefix="redis-") as tmp:
        server = RedisServer(port or free_port(), directory or tmp, password=password)
        server.start(timeout)
        try:
            yield server
        finally:
            server.stop()


# --- gunicorn ---------------------------------------------------------------------------


class GunicornServer:
    def __init__(self, process, port):
        self.process = process
        self.port = port

    @property
    def url(self):
        return f"http://{LOOPBACK}:{self.port}"

    def workers(self):
        return child_pids(self.process.pid)

    def wait_for_workers(self, count, timeout=15):
        return wait_until(lambda: len(self.workers()) >= count and self.workers(), timeout,
                          message=f"{count} gunicorn workers")

    def wait_healthy(self, timeout=20, status=200):
        """Poll /readyz until it answers ``status`` (any answer if None: the process serves)."""

        def ready():
            if not self.process.alive():
                raise RuntimeError(f"gunicorn exited with {self.process.popen.returncode}:\n{self.process.tail()}")
            answer = http_status(self.url + "/readyz")
            return answer is not None and (status is None or answer == status)

        try:
            wait_until(ready, timeout, interval=0.1, message=f"{self.url}/readyz answering {status}")
        except TimeoutError as error:
            raise TimeoutError(f"{error}\n{self.process.tail()}") from None

    def kill(self):
        return self.process.kill()

    def log(self):
        return self.process.log()


@contextmanager
def gunicorn_server(app=APP, *, env=None, args=(), port=None, argv=None, cwd=PROJECT_ROOT,
                    log_path=None, timeout=20, wait_status=200):
    """Run gunicorn on 127.0.0.1 until /readyz answers, yield it, then stop its process group.

    Either ``argv`` is a whole command line (``gunicorn`` and ``python`` in it are mapped to
    this interpreter's) that must already bind ``port``, or one is built from ``args`` and
    ``app``. ``env`` is added to the scrubbed current environment (no inherited FLASK_*);
    without FLASK_INSTANCE_PATH in it, a temporary instance folder is used.
    ``wait_status=None`` waits for any answer (e.g. a 503 while Redis is down).
    """
    port = port or free_port()
    with tempfile.TemporaryDirectory(prefix="gunicorn-") as tmp:
        full_env = server_env({"FLASK_INSTANCE_PATH": str(Path(tmp) / "instance"), **(env or {})})
        argv = [*gunicorn_command(), "--bind", f"{LOOPBACK}:{port}", *args, app] if argv is None else local_argv(argv)
        process = ManagedProcess(argv, env=full_env, cwd=cwd, log_path=log_path or Path(tmp) / "gunicorn.log",
                                 name="gunicorn").start()
        server = GunicornServer(process, port)
        try:
            server.wait_healthy(timeout, status=wait_status)
            yield server
        finally:
            process.stop()


# --- nginx -----------------------------------------------------------------------------

NGINX = os.environ.get("NGINX") or shutil.which("nginx") or (
    "/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None
)

_NGINX_MAIN = """\
daemon off;
master_process off;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log info;
events {{ worker_connections 256; }}
http {{
    access_log {prefix}/access.log;
    client_body_temp_path {prefix}/tmp/body;
    proxy_temp_path {prefix}/tmp/proxy;
    fastcgi_temp_path {prefix}/tmp/fastcgi;
    uwsgi_temp_path {prefix}/tmp/uwsgi;
    scgi_temp_path {prefix}/tmp/scgi;
    include {prefix}/site.conf;
}}
"""


@contextmanager
def nginx_proxy(site_conf, port, binary=NGINX, timeout=10):
    """Run nginx (one process, in the foreground) with ``site_conf`` as its only server.

    ``site_conf`` is the text of a conf.d file (server blocks, resolver, ...) that must
    listen on 127.0.0.1:``port``. Yields the ManagedProcess; stops it afterwards.
    """
    if binary is None:
        raise RuntimeError("nginx is not installed")
    with tempfile.TemporaryDirectory(prefix="nginx-") as prefix:
        (Path(prefix) / "tmp").mkdir()
        (Path(prefix) / "site.conf").write_text(site_conf)
        (Path(prefix) / "nginx.conf").write_text(_NGINX_MAIN.format(prefix=prefix))
        check = subprocess.run([binary, "-e", "stderr", "-p", prefix, "-c", f"{prefix}/nginx.conf", "-t"],
                               capture_output=True, text=True, timeout=timeout, check=False)
        if check.returncode != 0:
            raise RuntimeError(f"nginx -t failed:\n{check.stderr}")
        process = ManagedProcess([binary, "-e", "stderr", "-p", prefix, "-c", f"{prefix}/nginx.conf"],
                                 env=server_env(), log_path=Path(prefix) / "stderr.log", name="nginx").start()
        try:
            wait_until(lambda: listening_sockets(port) or not process.alive(), timeout, message="nginx listening")
            if not process.alive():
                raise RuntimeError(f"nginx exited:\n{process.tail()}")
            process.prefix = Path(prefix)
            yield process
        finally:
            process.stop()
