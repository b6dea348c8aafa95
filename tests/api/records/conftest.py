"""The records' tests run on SQLite and on a real PostgreSQL server they start."""

import uuid

import pytest

from tests.support.postgres import postgres_server


@pytest.fixture(scope="session")  # one server for the run, whatever order its modules run in
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
