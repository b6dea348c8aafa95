"""Games the server can vouch for after it forgot them: seeds derived from its key, and sealed copies.

Every game gets a random id, and unless the player chose its seed, the seed is derived from
that id with the server's secret key (HMAC-SHA256): only the server can work it out, and it
never leaves the server while the game can still move (a record shows it once the game is over).

A sealed copy (``seal``) is the game's stored record without its seed, signed with the same key
(itsdangerous). The page keeps the latest one it was given; when the server has forgotten the
session (an evicted or expired session, a store that was emptied) the page sends it with its
game, and ``unseal`` gives back the game as the server had it, seed and verification included.
The copy holds only what the player has already seen, so it tells nothing of tiles to come.
The server cannot tell the latest copy from an older one it sealed for the same game, so a game
put back from a copy counts the restore, and is no longer "without help" (see the README).

The key is SECRET_KEY; without one, a key is made once and kept in the instance folder, which
every worker of the machine shares. Replicas that share a session store must share SECRET_KEY.
"""

import hashlib
import hmac
import logging
import os
import secrets
from pathlib import Path

from flask import current_app
from itsdangerous import BadData, URLSafeSerializer

from .engine import Game, InvalidState

log = logging.getLogger(__name__)

KEY_FILE = "secret_key"
SALT = "sealed-game"


def init_app(app):
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_key(Path(app.instance_path) / KEY_FILE)


def _instance_key(path: Path) -> str:
    """The key kept at ``path``, made there the first time: written aside and linked into place,
    so that workers starting together all read the one key that won."""
    if not path.exists():
        draft = path.with_name(f".{path.name}.{os.getpid()}")
        try:
            draft.write_text(secrets.token_hex(32))
            draft.chmod(0o600)
            try:
                os.link(draft, path)
            except FileExistsError:
                pass
            finally:
                draft.unlink()
        except OSError as error:
            log.warning("cannot keep a secret key in %s (%s): sealed games will not survive a restart", path, error)
            return secrets.token_hex(32)
    return path.read_text().strip()


def _key() -> bytes:
    key = current_app.config["SECRET_KEY"]
    return key if isinstance(key, bytes) else key.encode()


def seed_for(game_id: str) -> int:
    """The seed of the game with this id: 63 bits of HMAC-SHA256 under the server's key."""
    digest = hmac.digest(_key(), f"seed:{game_id}".encode(), hashlib.sha256)
    return int.from_bytes(digest[:8], "big") >> 1


def new_game(seed: int | None = None) -> Game:
    """A new game: on the player's seed, or on the one its fresh id derives."""
    game_id = secrets.token_urlsafe(12)
    game = Game.new(seed) if seed is not None else Game.new(seed_for(game_id), seed_chosen=False)
    game.id = game_id
    return game


def restored_game(state: dict) -> Game:
    """A game put back from a state the client sent: a new id, tiles to come derived from it."""
    game_id = secrets.token_urlsafe(12)
    game = Game.from_state(state, seed_for(game_id), seed_chosen=False)
    game.id = game_id
    return game


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt=SALT)


def seal(game: Game) -> str | None:
    """The game's sealed copy, or None for a game stored before games had ids (its seed cannot be derived)."""
    if game.id is None:
        return None
    record = game.to_record()
    if not game.seed_chosen:
        del record["seed"]
    return _serializer().dumps(record)


def unseal(token) -> Game | None:
    """The game a sealed copy holds, or None when it is not one this server sealed (or it cannot be read)."""
    try:
        record = _serializer().loads(token)
        if "seed" not in record:
            record["seed"] = seed_for(record["id"])
        return Game.from_record(record)
    except (BadData, InvalidState, TypeError, KeyError) as error:
        log.info("a sealed game was refused: %s", error)
        return None
