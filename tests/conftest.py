import pytest

from app import create_app


@pytest.fixture
def make_app(tmp_path):
    """Build an app with the tests' defaults (its own instance folder, no rate limits) and ``config``."""

    def make(**config):
        return create_app(
            {"TESTING": True, "INSTANCE_PATH": tmp_path / "instance", "RATELIMIT_ENABLED": False} | config
        )

    return make


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()
