"""Logs a host reads with their tools: a request id on every answer, and JSON lines that name no
player unless the host asks. (Through gunicorn and nginx: tests/deploy/test_operations.py.)"""

import json
import logging

import pytest
from flask import url_for


@pytest.fixture
def json_lines(make_app, capsys):
    """An app logging JSON; its lines on standard error, parsed (every one must be JSON)."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level

    def make(**config):
        app = make_app(LOG_FORMAT="json", PROPAGATE_EXCEPTIONS=False, **config)
        return app, lambda: [json.loads(line) for line in capsys.readouterr().err.splitlines()]

    yield make
    root.handlers[:], root.level = handlers, level


def test_every_answer_carries_a_request_id_its_own_or_the_proxys(client):
    made = client.get("/api/game").headers["X-Request-ID"]
    assert len(made) == 32 and made != client.get("/api/game").headers["X-Request-ID"]
    assert client.get("/healthz", headers={"X-Request-ID": "edge-42.a_b"}).headers["X-Request-ID"] == "edge-42.a_b"
    forged = client.get("/healthz", headers={"X-Request-ID": 'x" injected=1'}).headers["X-Request-ID"]
    assert len(forged) == 32 and "injected" not in forged, "an id that could break a log line is replaced"


def test_a_static_file_cached_for_good_is_sent_without_its_id_which_the_log_still_has(json_lines):
    app, lines = json_lines()
    client = app.test_client()
    with app.test_request_context():
        fingerprinted = url_for("static", filename="js/render.js")
    reply = client.get(fingerprinted, headers={"X-Request-ID": "still-logged"})
    assert reply.status_code == 200 and "immutable" in reply.headers["Cache-Control"]
    assert "X-Request-ID" not in reply.headers
    assert any(line.get("request_id") == "still-logged" for line in lines())
    assert client.get("/static/js/render.js").headers["X-Request-ID"], "one to revalidate still carries it"


def test_a_request_is_one_json_line_with_its_route_and_no_address(json_lines):
    app, lines = json_lines()
    client = app.test_client()
    reply = client.get("/api/records/nosuchrecord", headers={"X-Request-ID": "abc-1"})
    assert reply.status_code == 404
    [line] = [line for line in lines() if line["message"] == "request"]
    assert line["request_id"] == "abc-1" and line["level"] == "INFO" and line["time"]
    assert (line["method"], line["route"], line["status"]) == ("GET", "/api/records/<record_id>", 404)
    assert line["duration_ms"] >= 0
    assert "nosuchrecord" not in json.dumps(line) and "client" not in line


def test_the_address_is_logged_only_when_the_host_asks(json_lines):
    app, lines = json_lines(LOG_CLIENT_ADDRESS=True)
    app.test_client().get("/healthz", environ_base={"REMOTE_ADDR": "127.0.0.9"})
    assert [line["client"] for line in lines() if line["message"] == "request"] == ["127.0.0.9"]


def test_an_error_is_one_line_with_its_traceback_and_request_id(json_lines):
    app, lines = json_lines()

    @app.get("/fails")
    def fails():
        raise RuntimeError("the disk caught fire")

    reply = app.test_client().get("/fails", headers={"X-Request-ID": "oops-7"})
    assert reply.status_code == 500
    [error] = [line for line in lines() if line["level"] == "ERROR"]
    assert error["request_id"] == "oops-7"
    assert "RuntimeError: the disk caught fire" in error["traceback"] and "Traceback" in error["traceback"]
