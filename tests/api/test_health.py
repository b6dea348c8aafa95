"""Liveness and readiness: /healthz while anything behind the app is down, /readyz naming what is,
and an app started on an instance folder it cannot write, which recovers once it can."""

import logging
import os

from app import create_app, database
from tests.api.test_store_faults import read_only

READY_KEYS = {"sessions", "records", "instance_folder", "secret_key"}


def failing(client):
    reply = client.get("/readyz")
    assert reply.status_code in (200, 503) and reply.is_json
    return set(reply.get_json().get("failing", {})) if reply.status_code == 503 else set()


def test_with_the_session_store_gone_the_app_is_alive_but_not_ready(make_app):
    app = make_app(SESSION_TYPE="redis", REDIS_URL="redis://127.0.0.1:9/0")  # nothing listens on port 9
    client = app.test_client()
    assert client.get("/healthz").status_code == 200
    reply = client.get("/readyz")
    assert reply.status_code == 503 and int(reply.headers["Retry-After"]) > 0
    assert reply.get_json()["error"]["code"] == "not_ready" and failing(client) == {"sessions"}


def test_with_the_records_database_gone_the_app_is_alive_but_not_ready(make_app, tmp_path):
    app = make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path}/missing/records.db")
    client = app.test_client()
    assert client.get("/healthz").status_code == 200 and failing(client) == {"records"}
    os.makedirs(tmp_path / "missing")
    assert failing(client) == set(), "the schema is brought up to date as soon as the database answers"


def test_a_database_at_an_older_schema_is_brought_up_to_date_when_readiness_is_asked(app):
    with app.app_context():
        database._load_migrate(app).downgrade(directory=str(database.MIGRATIONS), revision="0001")
        assert database._stored_revision() == "0001"
    app.extensions["records_schema_ready"] = False  # as in a process that started before the database had it
    assert failing(app.test_client()) == set()
    with app.app_context():
        assert database._stored_revision() == database.SCHEMA_REVISION


def test_an_instance_folder_that_cannot_be_written_is_one_log_line_at_start_then_ready_once_it_is(tmp_path, caplog):
    instance = tmp_path / "instance"
    instance.mkdir()
    caplog.set_level(logging.INFO)
    with read_only(instance):
        app = create_app({"TESTING": True, "INSTANCE_PATH": instance, "RATELIMIT_ENABLED": False})
        at_start = [r for r in caplog.records if r.levelno >= logging.WARNING]
        client = app.test_client()
        assert client.get("/healthz").status_code == 200
        assert {"sessions", "instance_folder", "secret_key"} <= failing(client)
        assert client.post("/api/game", json={}).status_code == 503
    assert len(at_start) == 1 and str(instance) in at_start[0].getMessage() and not at_start[0].exc_info
    assert "writable" in at_start[0].getMessage()
    assert failing(client) == set()
    assert client.post("/api/game", json={}).status_code == 201


def test_a_missing_instance_folder_that_cannot_be_made_yet_is_ready_once_it_can_be(tmp_path, caplog):
    blocker = tmp_path / "blocked"
    blocker.write_text("a file where a folder should be")
    app = create_app({"TESTING": True, "INSTANCE_PATH": blocker / "instance", "RATELIMIT_ENABLED": False})
    assert [r.levelno for r in caplog.records if r.levelno >= logging.WARNING] == [logging.WARNING]
    client = app.test_client()
    assert READY_KEYS - {"records"} <= failing(client)
    blocker.unlink()
    os.makedirs(blocker / "instance")
    assert failing(client) == set()
