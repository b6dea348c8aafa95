"""gunicorn's settings file, read from the folder it starts in (the project root; /app in the image).

The command line and GUNICORN_CMD_ARGS still say where to listen and how many workers; this file
brings the schema up to date before the workers start, leaves the forwarded headers to the app,
writes the logs as FLASK_LOG_FORMAT asks and, with FLASK_METRICS, gives the workers one folder for
their metrics.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

# No peer may tell gunicorn the scheme (X-Forwarded-Proto and the like) or SCRIPT_NAME: by default
# it believes them from 127.0.0.1, whatever FLASK_TRUSTED_PROXIES says, and a client on the
# same machine could pass for HTTPS. The app's ProxyFix, set by FLASK_TRUSTED_PROXIES, is then
# the one place that decides. gunicorn reads "" as an empty list: no address is trusted (a
# UNIX socket, which the image does not bind, always is).
forwarded_allow_ips = ""



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


def on_starting(server):
    """Bring the records' schema up to date once, before any worker starts.

    Building the app migrates the schema, so a short-lived process builds it and exits.
    Workers then find the schema current and never load Alembic, which a worker that
    migrated would keep for its whole life (12 MB each). If the database is down, the
    process says so and the workers migrate later, on the first request that needs it.
    """
    server.log.info("bringing the records' schema up to date")
    subprocess.run([sys.executable, "-c", "from app import create_app; create_app()"], check=False)
