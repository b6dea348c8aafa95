"""Watching the app as a host does: Prometheus metrics added up over gunicorn's workers, and JSON
log lines that let a request be followed from nginx to the app. All traffic to 127.0.0.1."""

import json
import os
import signal
from contextlib import contextmanager

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.support.client import HttpClient
from tests.support.compose_stack import replicas_behind_nginx
from tests.support.http_play import play_move
from tests.support.servers import NGINX, gunicorn_server

pytestmark = pytest.mark.slow
LABELS = {"route", "method", "status", "reason", "le"}


@contextmanager
def paused(pid):
    """One worker stopped meanwhile: the requests go to the other."""
    os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(pid, signal.SIGCONT)


def samples(text):
    return [sample for family in text_string_to_metric_families(text) for sample in family.samples]


def total(found, name, **labels):
    return sum(s.value for s in found if s.name == name and labels.items() <= s.labels.items())


def test_metrics_add_up_both_workers_and_name_no_player(tmp_path):
    folder = tmp_path / "metrics"
    folder.mkdir()
    env = {"FLASK_METRICS": "true", "PROMETHEUS_MULTIPROC_DIR": folder, "FLASK_RATELIMIT_ENABLED": "false"}
    with gunicorn_server(env=env, args=["--workers", "2"]) as server:
        first, second = server.wait_for_workers(2)[:2]
        client = HttpClient(server.url)
        with paused(second):
            assert client.post("/api/game", json={}).status == 201
            for _ in range(10):
                play_move(client)
        with paused(first):
            for _ in range(10):
                play_move(client)
            assert client.post("/api/game/hint", json={}).status == 200
            saved = client.post("/api/records", json={"name": "Ann"})
            assert saved.status == 201
        assert {f"counter_{first}.db", f"counter_{second}.db"} <= set(os.listdir(folder)), "both workers counted"
        scrape = client.get("/metrics")
        assert scrape.status == 200 and scrape.content_type.startswith("text/plain")
        found = samples(scrape.body.decode())
        assert total(found, "game2048_moves_total") == 20
        assert total(found, "game2048_games_started_total") == 1
        assert total(found, "game2048_hints_total") == 1 and total(found, "game2048_hint_seconds_count") == 1
        assert total(found, "game2048_hint_depth_count") == 1
        assert total(found, "game2048_records_saved_total") == 1
        assert total(found, "game2048_sessions_stored_total") >= 1
        assert total(found, "game2048_requests_total", route="/api/game/moves", status="200") >= 20
        assert total(found, "game2048_request_seconds_count", route="/api/game/moves") >= 20
        keys = {key for sample in found for key in sample.labels}
        assert keys <= LABELS, keys - LABELS
        values = " ".join(value for sample in found for value in sample.labels.values())
        for personal in ("127.0.0.1", saved.json()["id"], client.cookies["session"]):
            assert personal not in values


def test_without_the_setting_there_is_no_metrics_route():
    with gunicorn_server() as server:
        assert HttpClient(server.url).get("/metrics").status == 404


@pytest.mark.skipif(NGINX is None, reason="nginx is not installed")
def test_json_logs_follow_a_request_id_from_nginx_to_the_app_and_back(built_image, tmp_path):
    with replicas_behind_nginx(built_image, tmp_path, ("app",), FLASK_LOG_FORMAT="json",
                               FLASK_METRICS="true") as served:  # fmt: skip
        client = HttpClient(served.url)
        assert client.post("/api/game", json={}, headers={"Origin": served.url}).status == 201
        answer = client.get("/api/game")
        request_id = answer.headers["x-request-id"]
        assert answer.status == 200 and len(request_id) == 32
        assert client.get("/metrics").status == 404, "not reachable from the public side of the proxy"
        nginx_lines = (served.proxy.prefix / "requests.log").read_text().splitlines()
        assert any(f"request_id={request_id}" in line and "GET /api/game " in line for line in nginx_lines)
        replica = served.replicas[0]
        client.get("/healthz")  # and one more line, to be sure the one above was written
        lines = [json.loads(line) for line in replica.log().splitlines() if line.strip()]  # every line is JSON
        mine = [line for line in lines if line.get("request_id") == request_id and line.get("message") == "request"]
        assert mine, "the app's line for the request nginx logged"
        assert {"time", "level", "method", "route", "status", "duration_ms"} <= set(mine[0])
        assert (mine[0]["method"], mine[0]["route"], mine[0]["status"]) == ("GET", "/api/game", 200)
        requests = [line for line in lines if line.get("message") == "request"]
        assert not [line for line in requests if "client" in line or "127.0.0.1" in json.dumps(line)], "no address"
        assert any(line.get("logger") == "gunicorn.error" for line in lines), "gunicorn's own lines are JSON too"
