"""Prometheus metrics in one process (summed over gunicorn's workers: tests/deploy/test_operations.py).
The process's counters outlive an app, so the test reads what one session adds."""

from prometheus_client.parser import text_string_to_metric_families


def scrape(client):
    reply = client.get("/metrics")
    assert reply.status_code == 200 and reply.content_type.startswith("text/plain")
    families = text_string_to_metric_families(reply.text)
    return {s.name: s.value for family in families for s in family.samples if not s.labels}


def test_metrics_count_what_players_do(make_app):
    client = make_app(METRICS=True).test_client()
    client.post("/api/game", json={"seed": 7})
    before = scrape(client)
    moved = 0
    for direction in ["left", "up", "right", "down"] * 2:
        moved += client.post("/api/game/moves", json={"direction": direction}).get_json()["moved"]
    client.post("/api/game", json={})
    after = scrape(client)
    assert moved and after["game2048_moves_total"] - before["game2048_moves_total"] == moved
    assert after["game2048_games_started_total"] - before["game2048_games_started_total"] == 1


def test_metrics_are_not_served_through_a_proxy_nor_when_off(make_app):
    on = make_app(METRICS=True, TRUSTED_PROXIES=1).test_client()
    assert on.get("/metrics").status_code == 200, "asked directly, as Prometheus does"
    assert on.get("/metrics", headers={"X-Forwarded-For": "127.0.0.5"}).status_code == 404
    assert make_app().test_client().get("/metrics").status_code == 404


def test_metrics_answer_only_the_allowed_networks(make_app):
    """Loopback by default; a host names its Prometheus's network (here one loopback address)."""
    default = make_app(METRICS=True).test_client()
    assert default.get("/metrics", environ_base={"REMOTE_ADDR": "127.0.0.9"}).status_code == 200
    only = make_app(METRICS=True, METRICS_ALLOWED_FROM=["127.0.0.2/32"]).test_client()
    assert only.get("/metrics", environ_base={"REMOTE_ADDR": "127.0.0.2"}).status_code == 200
    assert only.get("/metrics", environ_base={"REMOTE_ADDR": "127.0.0.3"}).status_code == 404


def test_invented_methods_add_no_series(make_app):
    client = make_app(METRICS=True).test_client()
    # The one "other" series, the unmatched route's and the scrape's own, made before counting,
    # whatever ran in this process before.
    client.open("/api/game", method="BREW")
    client.open("/made-up/route", method="XYZ")
    client.get("/metrics")
    before = client.get("/metrics").text
    for number in range(400):
        client.open("/api/game", method=f"BREW{number}")
        client.open(f"/made-up/{number}", method=f"X{number}")
    after = client.get("/metrics").text
    series = [line for line in after.splitlines() if line.startswith("game2048_requests_total{")]
    assert not [line for line in series if "BREW" in line or 'method="X' in line]
    assert any('method="other"' in line and 'route="unmatched"' in line for line in series)
    assert len(after) - len(before) < 1000, "only the counts and the few series of the scrapes themselves changed"
