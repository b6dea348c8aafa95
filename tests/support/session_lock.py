"""Holding a session's lock from a test, as a slow request of that session would."""

from contextlib import contextmanager


@contextmanager
def holding_the_session_of(app, client):
    """A request context of the API (only the API opens the session): opening it takes the lock."""
    cookie = client.get_cookie("session").value
    with app.test_request_context("/api/game", headers={"Cookie": f"session={cookie}"}):
        yield
