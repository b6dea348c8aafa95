"""Fixtures and helpers of the records' tests: each test runs on SQLite and on a real PostgreSQL."""

import random
import uuid

import pytest

from app.engine import DIRECTIONS
from tests.postgres import postgres_server


@pytest.fixture(scope="module")
def postgres():
    with postgres_server() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request):
    """Settings for a fresh records database of each kind."""
    if request.param == "sqlite":
        return {}
    server = request.getfixturevalue("postgres")
    return {"SQLALCHEMY_DATABASE_URI": server.create_database(f"records_{uuid.uuid4().hex}")}


@pytest.fixture
def make_records_app(make_app, database):
    return lambda **config: make_app(**database, **config)


@pytest.fixture
def client(make_records_app):
    return make_records_app().test_client()


def play(client, count, rng=None):
    """Random moves until ``count`` valid ones or the end (keeping on past 2048); the state then."""
    rng = rng or random.Random(3)
    state = client.get("/api/game").get_json()
    while state["moves"] < count and not state["over"]:
        if state["won"] and not state["keep_playing"]:
            state = client.post("/api/game/keep-playing", json={}).get_json()
        state = client.post("/api/game/moves", json={"direction": rng.choice(DIRECTIONS)}).get_json()
    state = client.get("/api/game").get_json()
    del state["created"]
    return state


def save(client, name="Ann"):
    reply = client.post("/api/records", json={"name": name})
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()["id"]


def hall_of_fame(client, query=""):
    reply = client.get(f"/api/records{query}")
    assert reply.status_code == 200
    return reply.get_json()["records"]
