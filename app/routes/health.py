"""Liveness for load balancers and Docker's HEALTHCHECK."""

from flask import Blueprint

from .. import store

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    """200 only when the session store answers; failures become a 503 via app.errors."""
    store.ping()
    return {"status": "ok"}
