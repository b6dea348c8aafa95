import pytest

from app import create_app


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance", "RATELIMIT_ENABLED": False})


@pytest.fixture
def client(app):
    return app.test_client()
