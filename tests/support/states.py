"""Game states as the API takes and returns them, for tests that restore a position."""


def restorable_state(board, **fields):
    """A whole state: ``board`` plus the fields of a game not yet won or over, or as given."""
    return {"board": board, "score": 0, "won": False, "over": False, "keep_playing": False, "moves": 0} | fields
