"""gunicorn's settings file, read from the folder it starts in (the project root; /app in the image).

The command line and GUNICORN_CMD_ARGS still say where to listen and may change any setting; this
file runs two workers unless WEB_CONCURRENCY says otherwise, gives them a worker class that reads
each request whole before the app sees it (app/worker.py), brings the schema up to date
before they start, leaves the forwarded headers to the app, writes the logs as FLASK_LOG_FORMAT
asks and, with FLASK_METRICS, gives the workers one folder for their metrics.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

# Two workers wherever it runs (the image, the README's command), as the docs say; WEB_CONCURRENCY
# (or -w) sets another count. Each answers one request at a time, on one core.
workers = int(os.environ.get("WEB_CONCURRENCY") or 2)

# No peer may tell gunicorn the scheme (X-Forwarded-Proto and the like) or SCRIPT_NAME: by default
# it believes them from 127.0.0.1, whatever FLASK_TRUSTED_PROXIES says, and a client on the
# same machine could pass for HTTPS. The app's ProxyFix, set by FLASK_TRUSTED_PROXIES, is then
# the one place that decides. gunicorn reads "" as an empty list: no address is trusted (a
# UNIX socket, which the image does not bind, always is).
forwarded_allow_ips = ""

# No control socket: the app does not use it, and by default every server a user starts would share
# one path (~/.gunicorn/gunicorn.ctl), so stopping one deleted another's.
control_socket_disable = True


def flask_setting(name, default):
    """A FLASK_* setting read as the app's config.from_prefixed_env reads it: JSON if it parses."""
    value = os.environ.get(f"FLASK_{name}")
    if value is None:
        return default
    try:
        return json.loads(value)
    except ValueError:
        return value


JSON_LOGS = flask_setting("LOG_FORMAT", "text") == "json"
# As JSON the app writes each request's line itself, with its route and request id (app/logs.py);
# as text gunicorn's access log does, on standard output.
accesslog = None if JSON_LOGS else "-"
if JSON_LOGS:
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "app.logs.json_formatter"}},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}},
        "loggers": {"gunicorn.error": {"level": "INFO", "handlers": ["console"], "propagate": False}},
    }

if flask_setting("METRICS", False):
    # prometheus_client's multiprocess mode: each worker writes its counts to files here, read
    # together by /metrics. Unless the host names one, a fresh folder at every start, in memory
    # where there is one (/dev/shm is writable on a read-only root), so no dead run's counts add in.
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(
            prefix="game2048-metrics-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None
        )

    def on_exit(server):
        if os.path.basename(os.environ["PROMETHEUS_MULTIPROC_DIR"]).startswith("game2048-metrics-"):
            shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)


BAD_SETTING = 78  # EX_CONFIG: the app's settings stop the start (app/config.py)
BUILD_APP = f"""
import json, sys
from app import config, create_app
try:
    app = create_app()
except config.ConfigError as error:
    print(error.message, file=sys.stderr)
    sys.exit({BAD_SETTING})
print(json.dumps(config.describe_data_folder(app)))
"""


def on_starting(server):
    """Bring the records' schema up to date once, before any worker starts, and say where the data is.

    Building the app migrates the schema, so a short-lived process builds it and exits, printing
    what the host should know of its data folder (config.describe_data_folder), logged here once.
    Workers then find the schema current and never load Alembic, which a worker that migrated
    would keep for its whole life (12 MB each). If the database is down, the process says so and
    the workers migrate later, on the first request that needs it. A setting that is not of its
    form stops gunicorn here, with the one line that names it, before any worker starts.
    """
    server.log.info("bringing the records' schema up to date")
    said = subprocess.run([sys.executable, "-c", BUILD_APP], capture_output=True, text=True, check=False)  # fmt: skip
    if said.returncode == BAD_SETTING:
        for line in said.stderr.strip().splitlines():
            server.log.error(line)
        raise SystemExit(BAD_SETTING)
    sys.stderr.write(said.stderr)
    if said.returncode == 0:
        folder, *earlier = json.loads(said.stdout.splitlines()[-1])
        server.log.info(folder)
        for warning in earlier:
            server.log.warning(warning)


# Each request read whole before the app sees it, so that no slow client holds a worker (app/worker.py).
worker_class = "app.worker.BufferingWorker"
# Connections a worker holds at once, while their requests arrive or their answers leave: each
# holds at most a request's head and body limits (app/worker.py), so a worker buffers 48 MB at most.
worker_connections = 250
# Answers go through the worker's loop, which sendfile() would go around (static files are sent
# from memory anyway: app/assets.py).
sendfile = False
