"""/metrics: Prometheus's scrape, registered only when METRICS is on (off, it is a 404).

For the host, not the public: a request that came through a proxy (it carries X-Forwarded-For,
which compose's nginx and every ingress controller add, and no client can take off) is answered
404 as well, so Prometheus scrapes the replicas or pods directly."""

from flask import Blueprint, abort, request

from .. import metrics

bp = Blueprint("metrics", __name__)


@bp.get("/metrics")
def scrape():
    if "X-Forwarded-For" in request.headers:
        abort(404)
    body, content_type = metrics.exposition()
    return body, {"Content-Type": content_type}
