"""Strict validation of game states that come in from outside: a client's,
a sealed copy put back, a backup's line.

Anything malformed raises InvalidState with a message a person can act on, and
nothing else: callers may pass arbitrary decoded JSON.
"""

import re
from datetime import date

from .board import CELL_BITS, EXPONENT_BY_VALUE, MAX_EXPONENT, MAX_TILE, SIZE, max_tile
from .errors import InvalidState
from .rules import WIN_TILE

STATE_KEYS = frozenset({"board", "score", "won", "keep_playing", "moves"})
OPTIONAL_KEYS = frozenset({"over"})  # accepted for round trips, always recomputed
# The most a game can reach: the score of every tile from 4 to MAX_TILE built from 2s
# (a 2**k tile scores (k - 1) * 2**k on its way), and as many moves as the tiles' sum can
# grow by 2 (each move adds a tile) before it passes 2 * MAX_TILE. Play never goes past them.
MAX_SCORE = sum((k - 1) << k for k in range(2, MAX_EXPONENT + 1))
MAX_MOVES = MAX_TILE
# Hints, restores and undos are the server's own counts (a record shows them); any count JSON carries exactly will do.
COUNT_LIMITS = {"score": MAX_SCORE, "moves": MAX_MOVES, "hints": 2**53 - 1, "restores": 2**53 - 1, "undos": 2**53 - 1}
SEED_LIMIT = 2**63
GAME_ID = re.compile(r"[A-Za-z0-9_-]{16}")
DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _shown(value) -> str:
    """repr for an error message, cut short so a huge input cannot flood logs."""
    try:
        text = repr(value)
    except ValueError:  # an int with more digits than Python will print
        return "a number too long to show"
    return text if len(text) <= 40 else text[:37] + "..."


def check_keys(state, required: frozenset, optional: frozenset = OPTIONAL_KEYS) -> None:
    """``state`` is an object holding every ``required`` key, and no key but those and ``optional``."""
    if not isinstance(state, dict):
        raise InvalidState(f"a game state must be an object, got {type(state).__name__}")
    missing = required - state.keys()
    if missing:
        raise InvalidState(f"missing keys: {', '.join(sorted(missing))}")
    extra = state.keys() - required - optional
    if extra:
        raise InvalidState(f"unexpected keys: {', '.join(sorted(map(_shown, extra)))}")


def check_count(name: str, value) -> int:
    """A counter (score, moves) within what a game can reach, else InvalidState. Exactly an int, asked by
    its type (True is an int to isinstance; JSON and the store give plain ints): one call less a check."""
    limit = COUNT_LIMITS[name]
    if type(value) is not int or not 0 <= value <= limit:
        raise InvalidState(f"{name} must be a whole number from 0 to {limit}, got {_shown(value)}")
    return value


def check_bool(name: str, value) -> bool:
    if not isinstance(value, bool):
        raise InvalidState(f"{name} must be true or false, got {_shown(value)}")
    return value


def _check_board(board) -> int:
    """The board packed, once every cell is known to be a tile (one pass: this runs on every move)."""
    if not isinstance(board, list) or len(board) != SIZE:
        raise InvalidState("board must be a list of 4 rows")
    packed = shift = 0
    for r, row in enumerate(board):
        if not isinstance(row, list) or len(row) != SIZE:
            raise InvalidState(f"board row {r} must be a list of 4 cells")
        for c, value in enumerate(row):
            exponent = EXPONENT_BY_VALUE.get(value) if type(value) is int else None
            if exponent is None:
                raise InvalidState(
                    f"board cell ({r}, {c}) must be 0 or a power of two from 2 to {MAX_TILE},"
                    f" got {_shown(value)}"
                )
            packed |= exponent << shift
            shift += CELL_BITS
    if not packed:
        raise InvalidState("board must hold at least one tile")
    return packed


def _check_packed(text) -> int:
    """A board as a stored game keeps it, in hexadecimal: 16 cells of five bits, at least one tile."""
    try:
        board = int(text, 16)
    except ValueError:
        raise InvalidState(f"a stored board must be hexadecimal, got {_shown(text)}") from None
    if not 0 < board < 1 << (CELL_BITS * SIZE * SIZE):
        raise InvalidState(f"a stored board must hold 16 cells and a tile, got {_shown(text)}")
    return board


def check_earlier(value) -> None:
    """A stored game's earlier positions, each ``[board as hex, score, won, keep_playing, moves]`` of
    the right types and within their bounds (game.check_stored)."""
    if not isinstance(value, list):
        raise InvalidState("earlier positions must be a list")
    for entry in value:
        if not (isinstance(entry, list) and len(entry) == 5 and isinstance(entry[0], str)):
            raise InvalidState("an earlier position must be [board as hex, score, won, keep_playing, moves]")
        _check_packed(entry[0])
        check_count("score", entry[1])
        check_bool("won", entry[2])
        check_bool("keep_playing", entry[3])
        check_count("moves", entry[4])


def check_id(value) -> str | None:
    """A game's id as the server makes them (or None for a game stored before games had one)."""
    if value is not None and not (isinstance(value, str) and GAME_ID.fullmatch(value)):
        raise InvalidState(f"a game id must be 16 URL-safe characters, got {_shown(value)}")
    return value


def check_day(value) -> str | None:
    """A day's game's UTC date as YYYY-MM-DD (or None for any other game)."""
    if value is None:
        return None
    try:
        valid = isinstance(value, str) and DAY.fullmatch(value) and date.fromisoformat(value).isoformat() == value
    except ValueError:
        valid = False
    if not valid:
        raise InvalidState(f"a day must be a date as YYYY-MM-DD, got {_shown(value)}")
    return value


def check_seed(seed) -> int:
    if type(seed) is not int or not 0 <= seed < SEED_LIMIT:
        raise InvalidState(f"seed must be a whole number from 0 to 2**63 - 1, got {_shown(seed)}")
    return seed


def given_seed(seed) -> int:
    """A seed as JSON brings it in: a number, or its decimal digits in a string, as every answer
    writes seeds (more digits than a JavaScript number holds exactly)."""
    if isinstance(seed, str) and seed.isascii() and seed.isdigit() and len(seed) <= len(str(SEED_LIMIT)):
        seed = int(seed)
    return check_seed(seed)


def check_stored_board(board) -> int:
    """A board as the server stored it, packed: in hexadecimal, or a list of rows (stored before boards
    were packed). Of the right form, but not held to the rules again (parse_state did that when the
    state came in, and play keeps them)."""
    return _check_packed(board) if isinstance(board, str) else _check_board(board)


def parse_state(state, *, with_seed: bool = False) -> dict:
    """Validated Game fields (board packed) from a state from outside, or a stored game if ``with_seed``."""
    check_keys(state, (STATE_KEYS | {"seed"}) if with_seed else STATE_KEYS)
    fields = {
        "board": _check_board(state["board"]),
        "score": check_count("score", state["score"]),
        "won": check_bool("won", state["won"]),
        "keep_playing": check_bool("keep_playing", state["keep_playing"]),
        "moves": check_count("moves", state["moves"]),
    }
    if "over" in state:
        check_bool("over", state["over"])
    if fields["keep_playing"] and not fields["won"]:
        raise InvalidState("keep_playing can only be true once the game is won")
    if max_tile(fields["board"]) >= WIN_TILE and not fields["won"]:
        raise InvalidState(f"a board with a {WIN_TILE} tile or more must be won")
    if with_seed:
        fields["seed"] = check_seed(state["seed"])
    return fields
