"""Real server processes for tests: redis-server and gunicorn on the loopback interface.

Reusable by any suite (deploy, load, fault tests)::

    from tests.servers import HttpClient, gunicorn_server, redis_server

    with redis_server() as redis, gunicorn_server(env={"FLASK_SESSION_TYPE": "redis",
                                                       "FLASK_REDIS_URL": redis.url}) as app:
        client = HttpClient(app.url)
        assert client.post("/api/game", json={"seed": 1}).status == 201

Every process runs in its own process group and is stopped on exit (SIGTERM, then
SIGKILL for the whole group), every wait has a deadline and all traffic stays on
127.0.0.1. Only the standard library is used.
"""

import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.cookiejar import CookieJar
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
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


def _proc_stats():
    """(pid, state, ppid, pgrp, cpu clock ticks used) of every process, from /proc."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid pgrp ...; comm may contain spaces or parentheses.
        fields = stat[stat.rfind(")") + 2 :].split()
        yield int(entry.name), fields[0], int(fields[1]), int(fields[2]), int(fields[11]) + int(fields[12])


def child_pids(pid):
    """The live direct children of ``pid`` (e.g. a gunicorn master's workers)."""
    return sorted(p for p, state, ppid, _, _ in _proc_stats() if ppid == pid and state != "Z")


def group_pids(pgid):
    """The live (not zombie) members of process group ``pgid``."""
    return sorted(p for p, state, _, pgrp, _ in _proc_stats() if pgrp == pgid and state != "Z")


def group_cpu_seconds(pgid):
    """CPU time (user and system) used so far by the live members of process group ``pgid``."""
    ticks = sum(cpu for _, state, _, pgrp, cpu in _proc_stats() if pgrp == pgid and state != "Z")
    return ticks / os.sysconf("SC_CLK_TCK")


def listening_sockets(port):
    """How many TCP sockets listen on ``port`` (several with SO_REUSEPORT), from /proc/net."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                count += 1
    return count


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

    def __init__(self, argv, *, env=None, cwd=None, log_path=None, name="process"):
        self.argv = [str(a) for a in argv]
        self.env = env
        self.cwd = cwd
        self.name = name
        if log_path is None:
            fd, log_path = tempfile.mkstemp(prefix=f"{name}-", suffix=".log")
            os.close(fd)
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
        wait_until(lambda: not group_pids(self.popen.pid), 10, message=f"{self.name} group gone")
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


# --- HTTP -------------------------------------------------------------------------------


@dataclass
class Response:
    status: int
    headers: dict
    body: bytes = field(repr=False)

    def json(self):
        return json.loads(self.body)

    @property
    def content_type(self):
        return self.headers.get("content-type", "")


class HttpClient:
    """A tiny cookie-keeping HTTP client (standard library only, no proxies, no redirects).

    Every request opens a new connection, so with several gunicorn workers requests
    land on whichever worker accepts them. ``base_url`` may be changed, or given per
    request, to play one session against several servers with the same cookie.
    """

    def __init__(self, base_url=None, timeout=10):
        self.base_url = base_url
        self.timeout = timeout
        self.cookies = CookieJar()
        self._opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}),
            urllib.request.HTTPCookieProcessor(self.cookies),
            _NoRedirect(),
        )

    def request(self, method, path, json=None, base_url=None, headers=None, timeout=None):
        url = path if "://" in path else (base_url or self.base_url).rstrip("/") + path
        data = None
        all_headers = {"Accept": "application/json", **(headers or {})}
        if json is not None:
            data = _json_dumps(json)
            all_headers["Content-Type"] = "application/json"
        req = urllib.request.Request(url, data=data, method=method, headers=all_headers)
        try:
            with self._opener.open(req, timeout=timeout or self.timeout) as resp:
                return Response(resp.status, _lower(resp.headers), resp.read())
        except urllib.error.HTTPError as error:
            with error:
                return Response(error.code, _lower(error.headers), error.read())

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, json=None, **kw):
        return self.request("POST", path, json=json, **kw)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _json_dumps(value):
    return json.dumps(value).encode()


def _lower(headers):
    return {k.lower(): v for k, v in headers.items()}


def http_status(url, timeout=2):
    """The status of a GET, or None when nothing answers."""
    try:
        return HttpClient(timeout=timeout).get(url).status
    except (OSError, urllib.error.URLError):
        return None


# --- redis-server -----------------------------------------------------------------------


class RedisServer:
    """A throwaway redis-server on 127.0.0.1 that can be stopped and started on the same port."""

    def __init__(self, port, directory, binary=REDIS_SERVER):
        self.port = port
        self.directory = Path(directory)
        self.binary = binary
        self.process = None

    @property
    def url(self):
        return f"redis://{LOOPBACK}:{self.port}/0"

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

    def save(self):
        """Write dump.rdb now (there is no automatic saving): the next start() loads it."""
        if self.command("SAVE") != b"+OK":
            raise RuntimeError("redis SAVE failed")

    def ping(self):
        try:
            return self.command("PING") == b"+PONG"
        except OSError:
            return False

    def command(self, *args, timeout=2):
        """Send one command, return the first line of the raw RESP reply (e.g. b'+PONG')."""
        payload = f"*{len(args)}\r\n".encode()
        for arg in args:
            raw = str(arg).encode()
            payload += b"$%d\r\n%s\r\n" % (len(raw), raw)
        with socket.create_connection((LOOPBACK, self.port), timeout=timeout) as s:
            s.sendall(payload)
            reply = b""
            while not reply.endswith(b"\r\n"):
                chunk = s.recv(4096)
                if not chunk:
                    break
                reply += chunk
        return reply.split(b"\r\n", 1)[0]


@contextmanager
def redis_server(port=None, directory=None, timeout=10):
    """Start redis-server on a free loopback port (no persistence); stop it afterwards."""
    with tempfile.TemporaryDirectory(prefix="redis-") as tmp:
        server = RedisServer(port or free_port(), directory or tmp)
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
        """Poll /healthz until it answers ``status`` (any answer if None)."""

        def ready():
            if not self.process.alive():
                raise RuntimeError(f"gunicorn exited with {self.process.popen.returncode}:\n{self.process.tail()}")
            answer = http_status(self.url + "/healthz")
            return answer is not None and (status is None or answer == status)

        try:
            wait_until(ready, timeout, interval=0.1, message=f"{self.url}/healthz answering {status}")
        except TimeoutError as error:
            raise TimeoutError(f"{error}\n{self.process.tail()}") from None

    def kill(self):
        return self.process.kill()

    def log(self):
        return self.process.log()


@contextmanager
def gunicorn_server(app=APP, *, env=None, args=(), port=None, argv=None, cwd=PROJECT_ROOT,
                    log_path=None, timeout=20, wait_status=200):
    """Run gunicorn on 127.0.0.1 until /healthz answers, yield it, then stop its process group.

    Either ``argv`` is a whole command line (``gunicorn`` and ``python`` in it are mapped to
    this interpreter's) that must already bind ``port``, or one is built from ``args`` and
    ``app``. ``env`` is added to the scrubbed current environment (no inherited FLASK_*);
    without FLASK_INSTANCE_PATH in it, a temporary instance folder is used.
    ``wait_status=None`` waits for any answer (e.g. a 503 while Redis is down).
    """
    port = port or free_port()
    with tempfile.TemporaryDirectory(prefix="gunicorn-") as tmp:
        full_env = server_env({"FLASK_INSTANCE_PATH": str(Path(tmp) / "instance"), **(env or {})})
        full_env.setdefault("XDG_RUNTIME_DIR", tmp)  # gunicorn >= 25 control socket, if enabled
        argv = [*gunicorn_command(), "--bind", f"{LOOPBACK}:{port}", *args, app] if argv is None else local_argv(argv)
        process = ManagedProcess(argv, env=full_env, cwd=cwd, log_path=log_path or Path(tmp) / "gunicorn.log",
                                 name="gunicorn").start()
        server = GunicornServer(process, port)
        try:
            server.wait_healthy(timeout, status=wait_status)
            yield server
        finally:
            process.stop()


# --- playing the game over HTTP -------------------------------------------------------

STATE_KEYS = ("board", "score", "won", "over", "keep_playing", "moves")
DIRECTIONS = ("left", "up", "right", "down")


def game_state(payload):
    """The game part of an API answer (drops "created", "moved", "animation", ...)."""
    return {k: payload[k] for k in STATE_KEYS}


def play_move(client, base_url=None, headers=None):
    """Make one move that changes the board (trying each direction); return the answer's JSON.

    AssertionError if no direction moves or a request fails.
    """
    for direction in DIRECTIONS:
        resp = client.post("/api/game/moves", json={"direction": direction}, base_url=base_url, headers=headers)
        assert resp.status == 200, (resp.status, resp.body[:300])
        body = resp.json()
        if body["moved"]:
            return body
    raise AssertionError("no direction moves this game")


# --- a DNS stand-in and nginx (for the reverse proxy's real configuration) --------------


class FakeDns:
    """A UDP DNS server on 127.0.0.1 answering A queries from ``records`` (name -> addresses).

    Stands in for Docker's embedded DNS (127.0.0.11) so that nginx's ``resolver``
    configuration can be exercised; unknown names get NXDOMAIN, other types no answer.
    """

    def __init__(self, records, ttl=1):
        self.records = {k.lower().rstrip("."): list(v) for k, v in records.items()}
        self.ttl = ttl
        self.queries = []
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._sock.bind((LOOPBACK, 0))
        self._sock.settimeout(0.2)
        self.port = self._sock.getsockname()[1]
        self._stop = False
        self._thread = None

    def __enter__(self):
        self._thread = threading.Thread(target=self._serve, name="fake-dns", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop = True
        self._thread.join(5)
        self._sock.close()

    def _serve(self):
        while not self._stop:
            try:
                packet, peer = self._sock.recvfrom(512)
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                self._sock.sendto(self._answer(packet), peer)
            except (OSError, ValueError, IndexError):
                continue

    def _answer(self, packet):
        ident, _flags, _qdcount = struct.unpack("!HHH", packet[:6])
        labels, i = [], 12
        while packet[i]:
            labels.append(packet[i + 1 : i + 1 + packet[i]].decode("ascii", "replace"))
            i += 1 + packet[i]
        qtype, _qclass = struct.unpack("!HH", packet[i + 1 : i + 5])
        question = packet[12 : i + 5]
        name = ".".join(labels).lower()
        self.queries.append((name, qtype))
        addresses = self.records.get(name)
        if addresses is None:
            return struct.pack("!HHHHHH", ident, 0x8183, 1, 0, 0, 0) + question
        answers = b""
        if qtype == 1:  # A
            for address in addresses:
                answers += struct.pack("!HHHIH", 0xC00C, 1, 1, self.ttl, 4) + socket.inet_aton(address)
        count = len(addresses) if qtype == 1 else 0
        return struct.pack("!HHHHHH", ident, 0x8180, 1, count, 0, 0) + question + answers


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
            wait_until(lambda: _listening(port) or not process.alive(), timeout, message="nginx listening")
            if not process.alive():
                raise RuntimeError(f"nginx exited:\n{process.tail()}")
            process.prefix = Path(prefix)
            yield process
        finally:
            process.stop()


def _listening(port):
    try:
        with socket.create_connection((LOOPBACK, port), timeout=0.5):
            return True
    except OSError:
        return False
