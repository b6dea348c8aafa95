"""/metrics: Prometheus's scrape, registered only when METRICS is on (off, it is a 404).

Not for the public: compose's nginx answers it 404, and a host scrapes the replicas directly."""

from flask import Blueprint

from .. import metrics

bp = Blueprint("metrics", __name__)


@bp.get("/metrics")
def scrape():
    body, content_type = metrics.exposition()
    return body, {"Content-Type": content_type}
