"""gunicorn's settings file, read from the folder it starts in (the project root; /app in the image).

The command line and GUNICORN_CMD_ARGS still say how to serve; this file only adds a hook.
"""

import subprocess
import sys


def on_starting(server):
    """Bring the records' schema up to date once, before any worker starts.

    Building the app migrates the schema, so a short-lived process builds it and exits.
    Workers then find the schema current and never load Alembic, which a worker that
    migrated would keep for its whole life (12 MB each). If the database is down, the
    process says so and the workers migrate later, on the first request that needs it.
    """
    server.log.info("bringing the records' schema up to date")
    subprocess.run([sys.executable, "-c", "from app import create_app; create_app()"], check=False)
