"""Games the server can vouch for after it forgot them: seeds derived from its key, and sealed copies.

Every game gets a random id, and unless the player chose its seed, the seed is derived from
that id with the server's secret key (HMAC-SHA256): only the server can work it out, and it
never leaves the server while the game can still move (a record shows it once the game is over).

A sealed copy (``seal``) is the game as the session stores it, without its seed, signed with the same key
(itsdangerous). The page keeps the latest one it was given; when the server has forgotten the
session (an evicted or expired session, a store that was emptied) the page sends it with its
game, and ``unseal`` gives back the game as the server had it, seed and verification included.
The copy holds only what the player has already seen, so it tells nothing of tiles to come;
app/games/session.py decides whether it may be the game again or gives a fork (one game, one place).
The server cannot tell the latest copy from an older one it sealed for the same game, so a game
put back from a copy counts the restore, and is no longer "without help" (docs/deployment.md, Security).

The key is SECRET_KEY; without one, a key is made once and kept in the instance folder, which
every worker of the machine shares (app/config.py). Replicas that share a session store must
share SECRET_KEY.
"""

import hashlib
import hmac
import logging

from flask import current_app
from itsdangerous import BadData, URLSafeSerializer

from .config import secret_key
from .engine import InvalidState
from .faults import StoreUnavailable
from .games.played import PlayedGame, check_stored

log = logging.getLogger(__name__)

SALT = "sealed-game"


def _key() -> bytes:
    """The server's key (config.secret_key); an instance folder that cannot keep it is a store fault (503)."""
    try:
        key = secret_key(current_app)
    except OSError as error:
        raise StoreUnavailable(f"cannot keep the secret key in the instance folder: {error}") from error
    return key if isinstance(key, bytes) else key.encode()


def check_key() -> None:
    """The key is there, or can be made (StoreUnavailable if not)."""
    _key()


def seed_for(game_id: str) -> int:
    """The seed of the game with this id: 63 bits of HMAC-SHA256 under the server's key."""
    digest = hmac.digest(_key(), f"seed:{game_id}".encode(), hashlib.sha256)
    return int.from_bytes(digest[:8], "big") >> 1


def day_seed(day: str) -> int:
    """The seed of a day's game (app/daily.py): the same for everyone that day, secret until it is revealed."""
    digest = hmac.digest(_key(), f"daily:{day}".encode(), hashlib.sha256)
    return int.from_bytes(digest[:8], "big") >> 1


def keyed_name(text: str) -> str:
    """A name for ``text`` that only this server can link back to it (the day's attempts count
    addresses by it, never keeping one)."""
    return hmac.new(_key(), f"name:{text}".encode(), hashlib.sha256).hexdigest()[:32]


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(_key(), salt=SALT)


def seal(game: PlayedGame) -> str | None:
    """The game's sealed copy, or None for a game stored before games had ids (its seed cannot be derived)."""
    if game.id is None:
        return None
    stored = game.to_stored()
    if not game.seed_chosen:
        del stored["seed"]
    return _serializer().dumps(stored)


def unseal(token) -> PlayedGame | None:
    """The game a sealed copy holds, or None when it is not one this server sealed (or it cannot be read)."""
    try:
        stored = _serializer().loads(token)
        if "seed" not in stored:
            stored["seed"] = day_seed(stored["daily"]) if stored.get("daily") else seed_for(stored["id"])
        return check_stored(stored)
    except (BadData, InvalidState, TypeError, KeyError, AttributeError) as error:
        log.info("a sealed game was refused: %s", error)
        return None
