"""Game states as the API takes and returns them, for tests that restore a position."""

from app.engine import VARIANTS


def restorable_state(board, **fields):
    """A whole state: ``board`` plus the fields of a game not yet won or over, or as given, with the
    size and goal of a board of its rows."""
    variant = VARIANTS[len(board)]
    state = {"board": board, "score": 0, "won": False, "over": False, "keep_playing": False, "moves": 0}
    return state | {"size": variant.size, "goal": variant.goal} | fields
