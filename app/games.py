"""The game kept in the session: made, read back, written, and put back from what the page kept.

The session is the store's (app/store/); the game in it is the engine's Game, stored as
``Game.to_stored`` writes it. Every game gets a random id, and unless the player chose its
seed, its seed derives from that id under the server's key (app/seals.py).
"""

import logging
import secrets

from flask import session

from . import seals
from .engine import Game, InvalidState
from .errors import ApiError

log = logging.getLogger(__name__)

# Keys a page may send in one request: far more than a player presses in a round trip.
MAX_BATCH = 64


def new_game(seed=None):
    """A new game: on the player's seed, or on the one its fresh id derives."""
    game_id = secrets.token_urlsafe(12)
    game = Game.new(seed) if seed is not None else Game.new(seals.seed_for(game_id), seed_chosen=False)
    game.id = game_id
    return game


def restored_game(state, token):
    """The page's saved game put back: with the server's sealed copy of exactly this state, the
    server's own game again (a restore counted); otherwise a game the server did not see played,
    on tiles to come that it draws anew."""
    game_id = secrets.token_urlsafe(12)
    game = Game.from_state(state, seals.seed_for(game_id), seed_chosen=False)
    game.id = game_id
    sealed = None if token is None else seals.unseal(token)
    if sealed is not None and sealed.to_state() == game.to_state():
        sealed.restores += 1
        return sealed
    return game


def load_game():
    """The session's game, or None when there is none or it cannot be read."""
    stored = session.get("game")
    if stored is None:
        return None
    try:
        return Game.from_stored(stored)
    except (ValueError, TypeError, InvalidState):
        log.warning("corrupted game in a session treated as missing")
        return None


def save_game(game):
    session["game"] = game.to_stored()


def existing_game():
    game = load_game()
    if game is None:
        raise ApiError(404, "no_game", "this session has no game; start or restore one first")
    return game


def has_played_game(stored_session):
    """Whether a session holds a game with a move, made here or before it was restored: one worth keeping."""
    game = stored_session.get("game")
    return isinstance(game, dict) and isinstance(game.get("moves"), int) and game["moves"] > 0
