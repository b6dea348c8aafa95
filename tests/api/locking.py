"""Holding a session's lock from a test, as a slow request of that session would."""

from contextlib import contextmanager


@contextmanager
def holding_the_session_of(app, client):
    """A request context for the client's session: opening its session takes the lock."""
    cookie = client.get_cookie("session").value
    with app.test_request_context(headers={"Cookie": f"session={cookie}"}):
        yield
