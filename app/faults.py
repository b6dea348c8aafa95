"""What the app cannot do for a moment: each fault is answered 503 with Retry-After (app/errors.py),
with its own message, and nothing was changed. A small module of its own, so that the session store,
the lock files and the solver can all raise them without importing one another."""


class Unavailable(Exception):
    """Something the request needs does not answer now; asking again shortly may work."""


class StoreUnavailable(Unavailable):
    """The session store cannot be reached or written.

    Each backend raises it for its own failures, so nothing else needs to know the backend's.
    """


class WriteOutcomeUnknown(StoreUnavailable):
    """The write-back was sent but its answer never came: it may or may not have been applied."""


class SolverUnavailable(Unavailable):
    """The solver's slot (a lock file in the instance folder) cannot be opened."""
