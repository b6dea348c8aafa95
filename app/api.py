"""The JSON API: thin routes over the engine and the game kept in the session."""

import json
import logging
import re

from flask import Blueprint, current_app, request, session
from werkzeug.exceptions import RequestEntityTooLarge

from . import hints, seals
from .engine import DIRECTIONS, Game, GameFinished, InvalidState, check_count
from .errors import ApiError

log = logging.getLogger(__name__)
bp = Blueprint("api", __name__, url_prefix="/api")

# Keys a page may send in one request: far more than a player presses in a round trip.
MAX_BATCH = 64
# A restore may carry the game's sealed copy, which grows with the game: this holds one of
# about 150,000 moves, more than any game reaches (the API's other bodies stay at MAX_CONTENT_LENGTH).
MAX_RESTORE_LENGTH = 65536
REQUEST_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
NUMBER = re.compile(r"[0-9]{1,9}")
# In the session: [id, move count after it, points gained] of the last request with an id that
# moved, so that a repeat of it (its answer was lost) gets that answer again, not a refusal.
LAST_MOVES = "last_moves"


def load_game():
    """The session's game, or None when there is none or it cannot be read."""
    record = session.get("game")
    if record is None:
        return None
    try:
        return Game.from_record(record)
    except (ValueError, TypeError, InvalidState):
        log.warning("corrupted game in a session treated as missing")
        return None


def save_game(game):
    session["game"] = game.to_record()


def has_played_game(stored):
    """Whether a session holds a game with a move, made here or before it was restored: one worth keeping."""
    game = stored.get("game")
    return isinstance(game, dict) and isinstance(game.get("moves"), int) and game["moves"] > 0


@bp.get("/game")
def current_game():
    game = load_game()
    created = game is None
    if created:
        game = seals.new_game()
        save_game(game)
    return {**game.to_state(), "created": created}


@bp.post("/game")
def new_game():
    try:
        game = seals.new_game(json_object(optional={"seed"}).get("seed"))
    except InvalidState as error:
        raise ApiError(400, "invalid_seed", str(error)) from None
    current_app.session_interface.regenerate(session)  # a new game, a new id: an id seen before opens nothing
    save_game(game)
    return game.to_state(), 201


@bp.put("/game")
def restore_game():
    """The page's saved game put back. With the sealed copy the server gave for exactly this state
    (GET /api/game/token) it is the server's game again, verification included, and counts a restore;
    otherwise it is a game the server did not see played, on tiles to come that it draws anew."""
    request.max_content_length = MAX_RESTORE_LENGTH
    body = json_object(any_fields=True)
    token = body.pop("token", None)
    try:
        game = seals.restored_game(body)
    except InvalidState as error:
        raise ApiError(400, "invalid_state", str(error)) from None
    sealed = None if token is None else seals.unseal(token)
    if sealed is not None and sealed.to_state() == game.to_state():
        game = sealed
        game.restores += 1
    save_game(game)
    return game.to_state()


@bp.get("/game/token")
def game_token():
    """The game's sealed copy, for the page to keep; ``token`` is null for a game that cannot be sealed."""
    game = existing_game()
    return {"token": seals.seal(game), "moves": game.moves}


@bp.post("/game/moves")
def move():
    """One move, or a batch of moves played in order; with ``moves`` (the valid-move count of the
    state the client saw) it is idempotent.

    A request that names a count the game has left behind (a key pressed in another tab, a
    restore) changes nothing and answers 409 ``out_of_sync``, unless it repeats, by its ``id``,
    the last request that moved the game there: then it gets that request's answer again. A batch
    stops at the move that finishes the game; the directions after it are dropped.
    """
    body = json_object(optional={"direction", "directions", "moves", "id"})
    directions = requested_directions(body)
    try:
        seen = check_count("moves", body["moves"]) if "moves" in body else None
    except InvalidState as error:
        raise ApiError(400, "invalid_moves", str(error)) from None
    request_id = body.get("id")
    if "id" in body and not (isinstance(request_id, str) and REQUEST_ID.fullmatch(request_id)):
        raise ApiError(400, "invalid_id", "id must be 1 to 64 letters, digits, '-' or '_'")
    game = existing_game()
    if seen is not None and seen != game.moves:
        last = session.get(LAST_MOVES)
        if request_id is not None and isinstance(last, list) and last[:2] == [request_id, game.moves]:
            return {**game.to_state(), "moved": True, "gained": last[2], "repeated": True}
        message = f"the game is at {game.moves} moves, not {seen}: nothing was changed"
        raise ApiError(409, "out_of_sync", message, state=game.to_state())
    outcomes = []
    for direction in directions:
        if outcomes and game.finished:
            break
        try:
            outcomes.append(game.play(direction))
        except GameFinished as finished:
            raise ApiError(409, "game_finished", str(finished), state=game.to_state()) from None
    moved = any(outcome.moved for outcome in outcomes)
    gained = sum(outcome.gained for outcome in outcomes)
    if moved:
        save_game(game)
        if request_id is not None:
            session[LAST_MOVES] = [request_id, game.moves, gained]
    if "direction" in body:
        return {**game.to_state(), **outcomes[0].to_dict()}
    return {**game.to_state(), "moved": moved, "gained": gained}


@bp.post("/game/keep-playing")
def keep_playing():
    json_object()
    game = existing_game()
    try:
        game.choose_keep_playing()
    except GameFinished as refused:
        raise ApiError(409, "cannot_keep_playing", str(refused), state=game.to_state()) from None
    save_game(game)
    return game.to_state()


@bp.get("/game/hint")
def hint():
    """The solver's move for the current game: the session's lock allows one search at a time.

    The game counts its hints: a record of it shows it was assisted.
    """
    game = existing_game()
    if game.finished:
        raise ApiError(409, "game_finished", "the game is finished: there is nothing to hint", state=game.to_state())
    suggestion = hints.suggest(game.board, float(current_app.config["SOLVER_BUDGET_MS"]), current_app.instance_path)
    game.hints += 1
    save_game(game)
    return suggestion.to_dict()


@bp.post("/game/autoplay")
def autoplay():
    """The page says auto-play is about to move in this game: a record of it shows it was assisted."""
    json_object()
    game = existing_game()
    game.autoplay = True
    save_game(game)
    return game.to_state()


def existing_game():
    game = load_game()
    if game is None:
        raise ApiError(404, "no_game", "this session has no game; start or restore one first")
    return game


def requested_directions(body):
    """The body's ``direction``, or its ``directions`` (a batch of 1 to MAX_BATCH), as a list."""
    if ("direction" in body) == ("directions" in body):
        raise ApiError(400, "missing_field", "send either direction or directions")
    directions = [body["direction"]] if "direction" in body else body["directions"]
    if not isinstance(directions, list) or not 1 <= len(directions) <= MAX_BATCH:
        raise ApiError(400, "invalid_directions", f"directions must be a list of 1 to {MAX_BATCH} directions")
    if not all(isinstance(direction, str) and direction in DIRECTIONS for direction in directions):
        raise ApiError(400, "invalid_direction", f"direction must be one of: {', '.join(DIRECTIONS)}")
    return directions


def query_number(name, default, high, low=0):
    """The query argument ``name`` as a whole number from ``low`` to ``high`` (ASCII digits only:
    ``int()`` also reads other scripts' digits and refuses superscripts that ``str.isdigit`` lets by)."""
    value = request.args.get(name)
    if value is None:
        return default
    if not NUMBER.fullmatch(value) or not low <= int(value) <= high:
        raise ApiError(400, f"invalid_{name}", f"{name} must be a whole number from {low} to {high}")
    return int(value)


def json_object(required=frozenset(), optional=frozenset(), any_fields=False):
    """The request body as a JSON object holding exactly the given fields (or any).

    Parsed here rather than with request.get_json() so that every malformed body,
    including one nested too deeply for the parser, is a 400 and never a 500.
    """
    if not request.is_json:
        raise ApiError(415, "unsupported_media_type", "send the body as application/json")
    raw = request.get_data(cache=True)
    at_cap = request.content_length is None and len(raw) == request.max_content_length
    if at_cap and request.environ["wsgi.input"].read(1):
        raise RequestEntityTooLarge  # a chunked body is cut at the cap, not refused, by Werkzeug
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        raise ApiError(400, "invalid_json", "the body is not valid JSON") from None
    if not isinstance(body, dict):
        raise ApiError(400, "invalid_body", "the body must be a JSON object")
    if any_fields:
        return body
    missing = sorted(set(required) - body.keys())
    if missing:
        raise ApiError(400, "missing_field", f"missing field: {', '.join(missing)}")
    unexpected = sorted(body.keys() - set(required) - set(optional))
    if unexpected:
        raise ApiError(400, "unexpected_field", f"unexpected field: {', '.join(unexpected)}")
    return body
