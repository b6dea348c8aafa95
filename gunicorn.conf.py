"""gunicorn's settings file, read from the folder it starts in (the project root; /app in the image).

The command line and GUNICORN_CMD_ARGS still say how to serve; this file adds a hook and
leaves the forwarded headers to the app.
"""

import subprocess
import sys

# No peer may tell gunicorn the scheme (X-Forwarded-Proto and the like) or SCRIPT_NAME: by default
# it believes them from 127.0.0.1, whatever FLASK_TRUSTED_PROXIES says, and a client on the
# same machine could pass for HTTPS. The app's ProxyFix, set by FLASK_TRUSTED_PROXIES, is then
# the one place that decides. gunicorn reads "" as an empty list: no address is trusted (a
# UNIX socket, which the image does not bind, always is).
forwarded_allow_ips = ""


def on_starting(server):
    """Bring the records' schema up to date once, before any worker starts.

    Building the app migrates the schema, so a short-lived process builds it and exits.
    Workers then find the schema current and never load Alembic, which a worker that
    migrated would keep for its whole life (12 MB each). If the database is down, the
    process says so and the workers migrate later, on the first request that needs it.
    """
    server.log.info("bringing the records' schema up to date")
    subprocess.run([sys.executable, "-c", "from app import create_app; create_app()"], check=False)
