"""/metrics: Prometheus's scrape, registered only when METRICS is on (off, it is a 404).

For the host, not the public: it answers only the networks in METRICS_ALLOWED_FROM (loopback
unless the host names its Prometheus's), and never a request that came through a proxy (it
carries X-Forwarded-For, which compose's nginx and every ingress controller add, and no client
can take off): elsewhere it is a 404, so Prometheus scrapes the replicas or pods directly."""

from flask import Blueprint, abort

from .. import metrics

bp = Blueprint("metrics", __name__)


@bp.get("/metrics")
def scrape():
    if not metrics.may_scrape():
        abort(404)
    body, content_type = metrics.exposition()
    return body, {"Content-Type": content_type}
