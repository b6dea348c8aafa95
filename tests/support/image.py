"""The Docker image's command lines and environment (from tests.support.dockerfile), made runnable on this machine."""

import subprocess
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tests.support import dockerfile
from tests.support.servers import free_port, gunicorn_server, local_argv

IMAGE_BIND = "0.0.0.0:8000"
# Shows which worker served each request (gunicorn reads GUNICORN_CMD_ARGS itself;
# the CMD sets no access log format, so this adds one without changing the CMD).
PID_ACCESS_LOG = "--access-logformat '%(p)s %(m)s %(U)s %(s)s'"
# Workers compile the solver before they answer when the cache is empty (docs/deployment.md, one container).
START_TIMEOUT = 90


@dataclass(frozen=True)
class Image:
    """What an image holds, made here: its WORKDIR, and the bin folder of the Python environment the
    app is installed in (None: this interpreter's, with the checkout's app)."""

    workdir: Path
    bin: Path | None = None

    def argv(self, argv):
        """A command line of the image, its ``gunicorn`` and ``python`` the environment's own."""
        if self.bin is None or argv[0] not in ("gunicorn", "python", "python3"):
            return local_argv(argv)
        return [str(self.bin / argv[0]), *argv[1:]]


def cmd(port):
    """The Dockerfile's CMD, bound to 127.0.0.1:port instead of 0.0.0.0:8000."""
    argv = dockerfile.cmd()
    assert IMAGE_BIND in argv, f"the CMD must bind {IMAGE_BIND}: {argv}"
    return [f"127.0.0.1:{port}" if a == IMAGE_BIND else a for a in argv]


def healthcheck(image, port):
    """The Dockerfile's HEALTHCHECK command asking port ``port`` instead of 8000, and its timeout."""
    options, argv = dockerfile.healthcheck()
    replaced = [a.replace(":8000/", f":{port}/") for a in argv]
    assert replaced != argv, f"the HEALTHCHECK must ask port 8000: {argv}"
    timeout = float(options.get("timeout", "30s").rstrip("s"))
    return image.argv(replaced), timeout


def run_healthcheck(image, port):
    """The health check's exit code, run like Docker would (killed at its --timeout)."""
    argv, timeout = healthcheck(image, port)
    try:
        return subprocess.run(argv, capture_output=True, timeout=timeout, check=False).returncode
    except subprocess.TimeoutExpired:
        return "timed out"


@cache
def _numba_cache():
    """Made on first use, so that importing this module (pytest collecting) leaves no folder behind."""
    return Path(tempfile.mkdtemp(prefix="numba-cache-"))


def env(instance, **extra):
    """The image's ENV with the instance folder moved from /data to ``instance``.

    numba's cache (also in /data in the image) is one folder for the whole test run: only the
    first server compiles the solver, as a container does on an empty volume.
    """
    values = dockerfile.env()
    assert values.get("FLASK_INSTANCE_PATH") == "/data"
    assert values.get("NUMBA_CACHE_DIR", "").startswith("/data/")
    values["FLASK_INSTANCE_PATH"] = str(instance)
    values["NUMBA_CACHE_DIR"] = str(_numba_cache())
    values.update({k: str(v) for k, v in extra.items()})
    return values


@contextmanager
def server(image, instance, port=None, wait_status=200, gunicorn_args="", **extra_env):
    """The image's CMD run in its WORKDIR with its Python environment, until /readyz answers.

    ``gunicorn_args`` are added through GUNICORN_CMD_ARGS, as a user of the image would.
    """
    port = port or free_port()
    environment = {"GUNICORN_CMD_ARGS": f"{PID_ACCESS_LOG} {gunicorn_args}".strip(), **env(instance, **extra_env)}
    with gunicorn_server(argv=image.argv(cmd(port)), port=port, env=environment, cwd=image.workdir,
                         wait_status=wait_status, timeout=START_TIMEOUT) as running:
        yield running


def served_by(log, path_prefix="/api/"):
    """The worker pids in the access log lines written with PID_ACCESS_LOG, per request."""
    pids = []
    for line in log.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0].startswith("<") and parts[2].startswith(path_prefix):
            pids.append(int(parts[0].strip("<>")))
    return pids
