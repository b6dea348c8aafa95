"""/api/game: the session's game, its moves, hints and the copies the page keeps. Thin routes: each
reads its request and answers with what app/games/session.py, which keeps the game's rules, did."""

import re

from flask import Blueprint, request

from .. import limits
from ..engine import CLASSIC, DIRECTIONS, InvalidState, check_count, slide_tiles
from ..errors import ApiError
from ..games import session as games
from ..requests import json_object

bp = limits.api_routes(Blueprint("api", __name__, url_prefix="/api"))

# A restore may carry the game's sealed copy, which grows with the game: this holds one of
# about 150,000 moves, more than any game reaches (the API's other bodies stay at MAX_CONTENT_LENGTH).
MAX_RESTORE_LENGTH = 65536
REQUEST_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


@bp.get("/game")
def current_game():
    game, created = games.current()
    return {**game.to_state(), "created": created, "helped": game.helped}  # helped: for the player's statistics


@bp.post("/game")
def start_game():
    body = json_object(optional={"seed", "size"})
    return games.start(body.get("seed"), body.get("size", CLASSIC.size)).to_state(), 201


@bp.put("/game")
def restore_game():
    """The page's saved game put back, with the sealed copy it kept, if any."""
    request.max_content_length = MAX_RESTORE_LENGTH
    body = json_object(any_fields=True)
    token = body.pop("token", None)
    return games.restore(body, token).to_state()


@bp.get("/game/token")
def game_token():
    """The game's sealed copy, for the page to keep; ``token`` is null for a game that cannot be sealed."""
    return games.sealed_copy()


@bp.post("/game/moves")
def move():
    """One ``direction``, answered with its animation, or a batch of ``directions``; with ``moves``
    (the count the client saw) and an ``id`` it is idempotent, and so it is with ``after`` (the id of
    the request sent just before, not answered yet) instead of ``moves`` (games.play)."""
    body = json_object(optional={"direction", "directions", "moves", "id", "after"})
    directions = requested_directions(body)
    request_id, after = request_id_of(body, "id"), request_id_of(body, "after")
    if after is not None and ("moves" in body or request_id is None):
        raise ApiError(400, "invalid_after", "after takes the place of moves, and needs an id")
    played = games.play(directions, seen_count(body), request_id, after)
    answer = {**played.game.to_state(), "moved": played.moved, "gained": played.gained}
    if played.repeated:
        answer["repeated"] = True
    elif "direction" in body:
        answer["animation"] = animation(played.game, played.before, body["direction"], played.outcomes[0].spawned)
    return answer


def animation(game, board, direction, spawned):
    """Every tile of ``game`` after the slide from ``board``, with the cells it came from, and the new
    tile (None if nothing moved)."""
    new_tile = None if spawned is None else dict(zip(("row", "col", "value"), spawned, strict=True))
    return {"tiles": slide_tiles(board, direction, game.variant), "spawned": new_tile}


@bp.post("/game/undo")
def undo():
    """Take the last move back; with ``moves``, only from the count the client saw."""
    return games.undo(seen_count(json_object(optional={"moves"}))).to_state()


@bp.post("/game/keep-playing")
def keep_playing():
    json_object()
    return games.keep_playing().to_state()


@bp.post("/game/hint")
@limits.per_session("HINT_RATE_LIMIT")
@limits.work_time
def hint():
    """The solver's move for the current game: a POST, since the game counts it (a record shows the help)."""
    json_object()
    return games.hint().to_dict()


@bp.post("/game/autoplay")
def autoplay():
    """The page says auto-play is about to move in this game: a record of it shows it was helped."""
    json_object()
    return games.autoplay().to_state()


def request_id_of(body, field):
    """The body's request id in ``field`` (``id``, or ``after``: the one sent before), None if not sent."""
    value = body.get(field)
    if field in body and not (isinstance(value, str) and REQUEST_ID.fullmatch(value)):
        raise ApiError(400, f"invalid_{field}", f"{field} must be 1 to 64 letters, digits, '-' or '_'")
    return value


def seen_count(body):
    """The body's ``moves``: the move count of the state the client played from (None: not sent)."""
    try:
        return check_count("moves", body["moves"]) if "moves" in body else None
    except InvalidState as error:
        raise ApiError(400, "invalid_moves", str(error)) from None


def requested_directions(body):
    """The body's ``direction``, or its ``directions`` (a batch of 1 to MAX_BATCH), as a list."""
    if ("direction" in body) == ("directions" in body):
        raise ApiError(400, "missing_field", "send either direction or directions")
    directions = [body["direction"]] if "direction" in body else body["directions"]
    if not isinstance(directions, list) or not 1 <= len(directions) <= games.MAX_BATCH:
        raise ApiError(400, "invalid_directions", f"directions must be a list of 1 to {games.MAX_BATCH} directions")
    if not all(isinstance(direction, str) and direction in DIRECTIONS for direction in directions):
        raise ApiError(400, "invalid_direction", f"direction must be one of: {', '.join(DIRECTIONS)}")
    return directions
