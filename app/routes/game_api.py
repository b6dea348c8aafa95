"""/api/game: the session's game, its moves, hints and the copies the page keeps. Thin routes over
the engine's Game and the game kept in the session (app/games.py)."""

import re

from flask import Blueprint, current_app, request, session

from .. import games, hints, limits, metrics, seals
from ..engine import DIRECTIONS, CannotUndo, GameFinished, InvalidState, check_count, slide_tiles
from ..errors import ApiError
from ..requests import json_object

bp = limits.api_routes(Blueprint("api", __name__, url_prefix="/api"))

# A restore may carry the game's sealed copy, which grows with the game: this holds one of
# about 150,000 moves, more than any game reaches (the API's other bodies stay at MAX_CONTENT_LENGTH).
MAX_RESTORE_LENGTH = 65536
REQUEST_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
# In the session: [id, move count after it, points gained] of the last request with an id that
# moved, so that a repeat of it (its answer was lost) gets that answer again, not a refusal.
LAST_MOVES = "last_moves"


@bp.get("/game")
def current_game():
    game = games.load_game()
    created = game is None
    if created:
        game = games.new_game()
        games.save_game(game)
        metrics.count("games")
    return {**game.to_state(), "created": created, "helped": game.helped}  # helped: for the player's statistics


@bp.post("/game")
def start_game():
    try:
        game = games.new_game(json_object(optional={"seed"}).get("seed"))
    except InvalidState as error:
        raise ApiError(400, "invalid_seed", str(error)) from None
    current_app.session_interface.regenerate(session)  # a new game, a new id: an id seen before opens nothing
    games.save_game(game)
    metrics.count("games")
    return game.to_state(), 201


@bp.put("/game")
def restore_game():
    """The page's saved game put back, with the sealed copy it kept, if any (app/games.py)."""
    request.max_content_length = MAX_RESTORE_LENGTH
    body = json_object(any_fields=True)
    token = body.pop("token", None)
    try:
        game = games.restored_game(body, token)
    except InvalidState as error:
        raise ApiError(400, "invalid_state", str(error)) from None
    games.save_game(game)
    return game.to_state()


@bp.get("/game/token")
def game_token():
    """The game's sealed copy, for the page to keep; ``token`` is null for a game that cannot be sealed."""
    game = games.existing_game()
    return {"token": seals.seal(game), "moves": game.moves}


@bp.post("/game/moves")
def move():
    """One move, or a batch of moves played in order; with ``moves`` (the valid-move count of the
    state the client saw) it is idempotent.

    A request that names a count the game has left behind (a key pressed in another tab, a
    restore) changes nothing and answers 409 ``out_of_sync``, unless it repeats, by its ``id``,
    the last request that moved the game there: then it gets that request's answer again. A batch
    stops at the move that finishes the game; the directions after it are dropped. Only a single
    ``direction`` is answered with its animation.
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
    game = games.existing_game()
    if seen is not None and seen != game.moves:
        last = session.get(LAST_MOVES)
        if request_id is not None and isinstance(last, list) and last[:2] == [request_id, game.moves]:
            return {**game.to_state(), "moved": True, "gained": last[2], "repeated": True}
        message = f"the game is at {game.moves} moves, not {seen}: nothing was changed"
        raise ApiError(409, "out_of_sync", message, state=game.to_state())
    before = game.board
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
    metrics.count("moves", sum(outcome.moved for outcome in outcomes))
    if moved:
        games.save_game(game)
        if request_id is not None:
            session[LAST_MOVES] = [request_id, game.moves, gained]
    answer = {**game.to_state(), "moved": moved, "gained": gained}
    if "direction" in body:
        answer["animation"] = animation(before, body["direction"], outcomes[0].spawned)
    return answer


def animation(board, direction, spawned):
    """Every tile after the slide, with the cells it came from, and the new tile (None if nothing moved)."""
    new_tile = None if spawned is None else dict(zip(("row", "col", "value"), spawned, strict=True))
    return {"tiles": slide_tiles(board, direction), "spawned": new_tile}


@bp.post("/game/undo")
def undo():
    """Take the last move back (up to the engine's UNDO_DEPTH), its new tile with it: played again,
    the move brings the same tile. With ``moves`` (the count the client saw) it is refused once the
    game has moved on from there. A game that uses undo is marked, like a hinted one."""
    body = json_object(optional={"moves"})
    game = games.existing_game()
    try:
        seen = check_count("moves", body["moves"]) if "moves" in body else game.moves
    except InvalidState as error:
        raise ApiError(400, "invalid_moves", str(error)) from None
    if seen != game.moves:
        message = f"the game is at {game.moves} moves, not {seen}: nothing was taken back"
        raise ApiError(409, "out_of_sync", message, state=game.to_state())
    try:
        game.undo()
    except CannotUndo as refused:
        raise ApiError(409, "cannot_undo", str(refused), state=game.to_state()) from None
    session.pop(LAST_MOVES, None)  # that request's answer no longer describes the game
    games.save_game(game)
    return game.to_state()


@bp.post("/game/keep-playing")
def keep_playing():
    json_object()
    game = games.existing_game()
    try:
        game.choose_keep_playing()
    except GameFinished as refused:
        raise ApiError(409, "cannot_keep_playing", str(refused), state=game.to_state()) from None
    games.save_game(game)
    return game.to_state()


@bp.get("/game/hint")
@limits.per_session("HINT_RATE_LIMIT")
@limits.work_time
def hint():
    """The solver's move for the current game: the session's lock allows one search at a time.

    The game counts its hints: a record of it shows it was assisted.
    """
    game = games.existing_game()
    if game.finished:
        raise ApiError(409, "game_finished", "the game is finished: there is nothing to hint", state=game.to_state())
    try:
        suggestion = hints.suggest(game.board, float(current_app.config["SOLVER_BUDGET_MS"]), current_app.instance_path)
    except hints.SolverBusy:
        metrics.count("solver_refusals", reason="busy")
        raise
    metrics.count("hints")
    metrics.observe("hint_seconds", suggestion.ms / 1000)
    metrics.observe("hint_depth", suggestion.depth)
    game.hints += 1
    games.save_game(game)
    return suggestion.to_dict()


@bp.post("/game/autoplay")
def autoplay():
    """The page says auto-play is about to move in this game: a record of it shows it was assisted."""
    json_object()
    game = games.existing_game()
    game.autoplay = True
    games.save_game(game)
    return game.to_state()


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
