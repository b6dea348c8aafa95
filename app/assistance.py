"""Help from this server on a position, counted on every game it could help, whichever session asked
(docs/architecture.md#how-a-verified-game-stays-fair: the second session).

The session store keeps the board each live game that could still be verified stands on, past its
first EARLY_MOVES moves (app/store/locking.py; app/games/session.py's position_of). A hint, auto-play, or
a review's analysis asked on a board counts, at once, on each game of another session standing on
that board, turned or mirrored alike, whatever score and move count it was typed in with: in the
``help_elsewhere`` table every replica shares, and on the game's record if it has one. Every record
shows it (``with_help_elsewhere``).

The day's ranked attempts share the boards of the line they play, by design, so that a stranger
asking about a board could knock honest attempts off the day's leaderboard: for them it counts only
when asked from the attempt's own address, and it is counted when the attempt is saved, from the
boards the address asked about that day (app/daily.py keeps them), so that an attempt that reaches
a board its address asked about beforehand, on another attempt's line, is counted too.
"""

import dataclasses

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError

from . import daily, database, store
from .database import HelpElsewhere, Record, db
from .engine import CLASSIC, symmetries

# Moves after which a game's board is its own: before them honest games often stand on the same board
# (every start board has two tiles), so help asked there tells nobody's game apart.
EARLY_MOVES = 20


def position(board: str, size: int) -> str:
    """A position as the store indexes it: a board as stored (hex), after its size unless it is the
    classic 4x4's (boards of two sizes can share a number)."""
    return board if size == CLASSIC.size else f"{size}:{board}"


def least_form(board: int) -> str:
    """One name for a classic board (a day's game) and its turned and mirrored forms: the least of
    them, in hex."""
    return f"{min(symmetries(board, CLASSIC)):x}"


def asked_on(boards, variant, besides=(), **given) -> None:
    """Help (``hints=N`` or ``autoplay=True``) was given on ``boards`` of ``variant`` in a game of
    ``besides``: counted on every other live game standing on one of them, save a day's ranked attempt
    (its address's asks are counted when it is saved), and the boards kept for those attempts (the
    day's game is classic)."""
    forms = {position(f"{form:x}", variant.size) for board in boards for form in symmetries(board, variant)}
    found = set(store.games_at(forms)) - {None, *besides}
    for game_id in found - daily.ranked_attempts(found):
        help_elsewhere(game_id, **given)
    if variant == CLASSIC:
        daily.keep_asked({least_form(board) for board in boards})


def help_elsewhere(game_id, hints=0, autoplay=False) -> None:
    """Help given on the game's position from another session: counted on the game, and on its record
    if it has one."""
    database.ensure_schema()
    more = {"autoplay": True} if autoplay else {}
    for attempt in range(2):
        try:
            counted = update(HelpElsewhere).where(HelpElsewhere.game_id == game_id)
            if not db.session.execute(counted.values(hints=HelpElsewhere.hints + hints, **more)).rowcount:
                db.session.add(HelpElsewhere(game_id=game_id, hints=hints, autoplay=autoplay))
            recorded = update(Record).where(Record.game_id == game_id)
            db.session.execute(recorded.values(hints=Record.hints + hints, **more))
            db.session.commit()
            return
        except IntegrityError:  # help from another session was counted first: add to it
            db.session.rollback()
            if attempt:
                raise


def with_help_elsewhere(game):
    """The game with the help given on its position elsewhere added to its own; for a day's ranked
    attempt, each board past its first EARLY_MOVES moves its address asked about that day is a hint."""
    given = None if game.id is None else db.session.get(HelpElsewhere, game.id)
    hints, autoplay = (given.hints, given.autoplay) if given is not None else (0, False)
    if game.ranked:
        replaying = game.replaying(game.seed, game.start, game.directions, game.variant, game.by_history)
        boards = {least_form(position.board) for position, _tile in replaying if position.moves >= EARLY_MOVES}
        hints += daily.asked_by_attempt(game.id, boards)
    if not (hints or autoplay):
        return game
    return dataclasses.replace(game, hints=game.hints + hints, autoplay=game.autoplay or autoplay)
