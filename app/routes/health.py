"""Liveness and readiness: /healthz says the process serves, /readyz that it can do its work now.

Orchestrators restart what is not live and send no traffic to what is not ready; a store or
database outage is a matter of readiness, not a reason to restart every replica.
"""

from flask import Blueprint, current_app
from limits.errors import StorageError

from .. import database, hints, release, seals, store
from ..errors import respond
from ..faults import Unavailable

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    """The process answers requests, and which version it runs: nothing behind it is asked."""
    return {"status": "ok", "version": release.VERSION}


@bp.get("/readyz")
def readyz():
    """Ready when the session store, the records database (with the schema this code needs) and the
    instance folder all answer; otherwise 503 naming each that does not."""
    checks = {
        "sessions": store.ping,
        "records": database.check_ready,
        "instance_folder": lambda: hints.check_slot(current_app.instance_path),
        "secret_key": seals.check_key,
    }
    failing = {}
    for name, check in checks.items():
        try:
            check()
        except (Unavailable, StorageError, database.NotReady) as error:
            failing[name] = str(error)
    if not failing:
        return {"status": "ready"}
    response = respond(503, "not_ready", f"not ready: {', '.join(failing)}", failing=failing)
    response.headers["Retry-After"] = "5"
    return response
