"""The game in the session: made, put back, played, taken back and helped, by the rules the API
promises. The routes (app/routes/game_api.py) read a request, call one function here, and answer.

The session is the store's (app/store/); the game in it is a PlayedGame (played.py: the engine's
game and what the product keeps beside it), in its stored form. Every game gets a random id, and
unless the player chose its seed, its seed derives from that id under the server's key (app/seals.py).

One game, one place: a game is held by one session at a time (the store refuses a second,
app/store/locking.py), so whatever a session sees of a game, or asks about it, is counted on the
game itself. A sealed copy put back gives the game back only where no other session holds it and
no record has shown its seed; otherwise it gives a fork: a new game on the same position, with
tiles of its own, never verified. A copy of a day's game always gives a fork, which plays on as
practice. Help is counted on the position too: a hint or auto-play counts on the game a fork came
from, and on every live game standing on the same board, whichever session holds it
(docs/architecture.md#how-a-verified-game-stays-fair lists every way back in time and what each does).
"""

import logging
import secrets
from dataclasses import dataclass

from flask import current_app, session

from .. import assistance, daily, hints, metrics, records, seals, store
from ..engine import CLASSIC, CannotUndo, GameFinished, InvalidState, MoveOutcome, variant_of
from ..engine.state import given_seed
from ..errors import ApiError
from .played import PlayedGame

log = logging.getLogger(__name__)

# Keys a page may send in one request: far more than a player presses in a round trip.
MAX_BATCH = 64
# In the session: [id, move count after it, points gained, whether it moved] of the last request of
# moves with an id, so that a repeat of it (its answer was lost) gets that answer again, not a
# refusal, and a request sent after it is played where it left the game.
LAST_MOVES = "last_moves"


def new_game(seed=None, variant=CLASSIC):
    """A new game of ``variant``: on the player's seed (a number, or its digits in a string), or on the
    one its fresh id derives."""
    game_id = secrets.token_urlsafe(12)
    if seed is not None:
        return PlayedGame.begin(game_id, given_seed(seed), variant, seed_chosen=True)
    return PlayedGame.begin(game_id, seals.seed_for(game_id), variant, seed_chosen=False)


def current():
    """The session's game, made if it has none: (game, whether it was made now)."""
    game = load_game()
    if game is not None:
        return game, False
    game = new_game()
    save_game(game)
    metrics.count("games")
    return game, True


def start(seed=None, size=CLASSIC.size):
    """A new game of ``size`` in a new session."""
    try:
        variant = variant_of(size)
    except InvalidState as error:
        raise ApiError(400, "invalid_size", str(error)) from None
    try:
        game = new_game(seed, variant)
    except InvalidState as error:
        raise ApiError(400, "invalid_seed", str(error)) from None
    return _begin(game)


def start_daily():
    """Today's game in a new session: ranked if it is the browser's first attempt of the day and its
    address has ranked attempts left (daily.claim_ranked), else practice: the day's board, and tiles
    to come of its own, so that it foretells nothing of a ranked attempt."""
    day = daily.today()
    game = PlayedGame.begin(secrets.token_urlsafe(12), seals.day_seed(day), CLASSIC, seed_chosen=False, day=day)
    game.ranked = daily.claim_ranked(day, game.id)
    if not game.ranked:
        game = _game_at(game.start_state(), day)
    metrics.count("daily_games", ranked=str(game.ranked).lower())
    return _begin(game)


def start_archive(day):
    """A revealed day's game played again in a new session: the day's board and tiles, on its public
    seed (so chosen, never verified, and never ranked); it moves on after the reveal (_refuse_closed)."""
    game = PlayedGame.begin(secrets.token_urlsafe(12), seals.day_seed(day), CLASSIC, seed_chosen=True, day=day)
    metrics.count("daily_games", ranked="false")
    return _begin(game)


def _begin(game):
    """``game`` in a new session: the session's old id opens nothing any more (what else the session
    keeps goes with it)."""
    current_app.session_interface.regenerate(session)
    save_game(game)
    metrics.count("games")
    return game


def restore(state, token):
    """The page's saved game put back (``token``: the sealed copy it kept, if any): the server's own
    game again when it may be (a restore counted), a fork when another session holds it or it is a
    day's game (practice on that position until the day is revealed), and otherwise a game the
    server did not see played, on tiles to come that it draws anew."""
    try:
        game = _game_at(state)
    except InvalidState as error:
        raise ApiError(400, "invalid_state", str(error)) from None
    sealed = None if token is None else seals.unseal(token)
    if sealed is not None and sealed.start_state() == game.start_state():
        if sealed.day is not None:
            if not daily.revealed(sealed.day):
                game.day, game.fork_of = sealed.day, sealed.fork_of or sealed.id
        elif not records.seed_shown(sealed.id):  # else its tiles to come are known: a game drawn anew
            if store.held_elsewhere(sealed.id):
                game.fork_of = sealed.fork_of or sealed.id
            else:
                sealed.restores += 1
                game = sealed
    session.pop(LAST_MOVES, None)
    save_game(game)
    return game


def _refuse_help(game, what):
    """Today's game is played without help: 409 ``daily_without_help``."""
    if game.day is not None:
        message = f"today's game is played without help: no hint, auto-play or undo ({what} refused)"
        raise ApiError(409, "daily_without_help", message, state=game.to_state())


def _refuse_closed(game):
    """A day's game moves until its seed is revealed: then anyone could work out its tiles to come. A
    game from the archive (start_archive), on the seed already public, moves on."""
    if game.day is not None and not daily.from_archive(game) and daily.revealed(game.day):
        message = f"the game of {game.day} closed when its seed was revealed: it can be saved as it is"
        raise ApiError(409, "daily_closed", message, state=game.to_state())


def _game_at(state, day=None):
    """A game of the server's from ``state`` on: its own id, and a seed derived from it; with ``day``,
    practice at that day's game (its tiles drawn from that seed, app/engine/game.py)."""
    game_id = secrets.token_urlsafe(12)
    return PlayedGame.from_state(state, seals.seed_for(game_id), id=game_id, seed_chosen=False, day=day)


def sealed_copy():
    """The session's game sealed for the page to keep ({token, moves}; token None for a game without an id)."""
    game = existing_game()
    return {"token": seals.seal(game), "moves": game.moves}


@dataclass
class Played:
    """What a request of moves did: the game after it, the board before, and each move's outcome."""

    game: PlayedGame
    before: int
    outcomes: list[MoveOutcome]
    gained: int
    repeated: bool = False  # a repeat of the request that left the game here: nothing was played again
    repeated_moved: bool = True  # for a repeat: whether that request moved the game

    @property
    def moved(self):
        return self.repeated_moved if self.repeated else any(outcome.moved for outcome in self.outcomes)


def play(directions, seen=None, request_id=None, after=None):
    """Directions played in order (a batch stops at the move that finishes the game).

    With ``seen`` (the move count of the state the client saw) it is idempotent: a request that
    names a count the game has left behind (a key pressed in another tab, a restore) changes
    nothing and is refused (409 ``out_of_sync``), unless it repeats, by its ``request_id``, the
    last request played, which left the game there: then it gets that request's answer again.

    With ``after`` instead of ``seen``, the id of the request the client sent just before this one
    and has no answer to yet: it is played only where that request left the game (it was played
    last, moving the game or not, and nothing since), else refused the same way. So a page may send
    its next batch of keys without waiting for the last one's answer, and each is still played
    once, in order.
    """
    game = existing_game()
    checked = seen is not None or after is not None
    at = game.moves if after is not None and _played_last(after, game) else seen
    if checked and at != game.moves:
        if _played_last(request_id, game):
            last = session[LAST_MOVES]
            return Played(game, game.board, [], last[2], repeated=True, repeated_moved=last[3:] != [False])
        played_from = f"where request {after} left it" if after is not None else seen
        message = f"the game is at {game.moves} moves, not {played_from}: nothing was changed"
        raise ApiError(409, "out_of_sync", message, state=game.to_state())
    _refuse_closed(game)
    played = Played(game, game.board, [], 0)
    for direction in directions:
        if played.outcomes and game.finished:
            break
        try:
            played.outcomes.append(game.play(direction))
        except GameFinished as finished:
            raise ApiError(409, "game_finished", str(finished), state=game.to_state()) from None
    played.gained = sum(outcome.gained for outcome in played.outcomes)
    metrics.count("moves", sum(outcome.moved for outcome in played.outcomes))
    if played.moved:
        save_game(game)
    if request_id is not None:
        session[LAST_MOVES] = [request_id, game.moves, played.gained, played.moved]
    return played


def _played_last(request_id, game):
    """Whether the request of moves of this id was played last, and left ``game`` where it is."""
    last = session.get(LAST_MOVES)
    return request_id is not None and isinstance(last, list) and last[:2] == [request_id, game.moves]


def undo(seen=None):
    """Take the last move back (up to the engine's UNDO_DEPTH), its new tile with it: played again,
    the move brings the same tile. With ``seen`` (the count the client saw) it is refused once the
    game has moved on from there. A game that uses undo is marked: it had help."""
    game = existing_game()
    _refuse_help(game, "undo")
    if seen is not None and seen != game.moves:
        message = f"the game is at {game.moves} moves, not {seen}: nothing was taken back"
        raise ApiError(409, "out_of_sync", message, state=game.to_state())
    try:
        game.undo()
    except CannotUndo as refused:
        raise ApiError(409, "cannot_undo", str(refused), state=game.to_state()) from None
    session.pop(LAST_MOVES, None)  # that request's answer no longer describes the game
    save_game(game)
    return game


def keep_playing():
    game = existing_game()
    _refuse_closed(game)
    try:
        game.choose_keep_playing()
    except GameFinished as refused:
        raise ApiError(409, "cannot_keep_playing", str(refused), state=game.to_state()) from None
    save_game(game)
    return game


def hint():
    """The solver's move for the session's game, thought about for SOLVER_BUDGET_MS at most; counted on
    the game, and on the others it could help (_count_on_others)."""
    game = existing_game()
    _refuse_help(game, "a hint")
    if game.finished:
        raise ApiError(409, "game_finished", "the game is finished: there is nothing to hint", state=game.to_state())
    budget_ms = float(current_app.config["SOLVER_BUDGET_MS"])
    try:
        suggestion = hints.suggest(game.board, game.variant, budget_ms, current_app.instance_path)
    except hints.SolverBusy:
        metrics.count("solver_refusals", reason="busy")
        raise
    metrics.count("hints")
    metrics.observe("hint_seconds", suggestion.ms / 1000)
    metrics.observe("hint_depth", suggestion.depth)
    _count_on_others(game, hints=1)
    game.hints += 1
    save_game(game)
    return suggestion


def autoplay():
    """Auto-play is about to move the session's game: counted on it, and on the others it could help."""
    game = existing_game()
    _refuse_help(game, "auto-play")
    _count_on_others(game, autoplay=True)
    game.autoplay = True
    save_game(game)
    return game


def _count_on_others(game, **help_given):
    """Help asked on ``game``'s position helps the game a fork came from, whatever board that game stands
    on now, and the live games of other sessions standing on this board (app/assistance.py)."""
    if game.fork_of is not None:
        assistance.help_elsewhere(game.fork_of, **help_given)
    assistance.asked_on([game.board], game.variant, besides={game.id, game.fork_of}, **help_given)


def save_record(name, listed=True):
    """The session's game saved under ``name`` (``listed`` or by its link only): (record, created). A
    record of a game that is over shows its seed, so the game can no longer take a move back."""
    game = existing_game()
    record, created = records.save(game, name, listed)
    if record.over and not game.seed_shown:
        game.seed_shown = True
        save_game(game)
    return record, created


def load_game():
    """The session's game, or None when there is none or it cannot be read."""
    stored = session.get("game")
    if stored is None:
        return None
    try:
        return PlayedGame.from_stored(stored)
    except (ValueError, InvalidState):  # an entry that is no stored game
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


def position_of(stored_session):
    """The position the session's game stands on (assistance.position: its board as it is stored, and
    its size), while a hint asked there from another session would help a game that can still be
    verified: one the server began on a seed it chose, whose seed no record shows, past its first
    EARLY_MOVES moves (app/assistance.py). None for any other, and for an entry that is no stored game
    of this form: this runs on every request."""
    game = stored_session.get("game")
    if not isinstance(game, dict) or game.get("start", False) is not None or game.get("seed_chosen") is not False:
        return None
    board, moves, size = game.get("board"), game.get("moves"), game.get("size", CLASSIC.size)
    verifiable = game.get("id") and not game.get("seed_shown") and isinstance(board, str) and isinstance(moves, int)
    return assistance.position(board, size) if verifiable and moves >= assistance.EARLY_MOVES else None


def game_of(stored_session):
    """The id of the game a session holds (None: none, or one stored before games had ids)."""
    game = stored_session.get("game")
    game_id = game.get("id") if isinstance(game, dict) else None
    return game_id if isinstance(game_id, str) else None
