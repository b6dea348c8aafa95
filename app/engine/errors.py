"""The engine's exceptions, so callers can tell a refused request from a bug."""


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class InvalidState(EngineError, ValueError):
    """A stored or submitted game state that is not a possible game."""


class UnknownDirection(EngineError, ValueError):
    """A move direction other than up, down, left or right."""


class GameFinished(EngineError):
    """The game cannot take this action now: it is over, or won and the player has not chosen to keep playing."""


class CannotUndo(EngineError):
    """There is no move to take back: none played, all the remembered ones taken back already, or
    the game's tiles were made known (its seed shown) and going back would let it replay them."""
