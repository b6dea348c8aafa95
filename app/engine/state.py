"""Strict validation of game states that come in from outside: a client's,
a sealed copy put back, a backup's line.

Anything malformed raises InvalidState with a message a person can act on, and
nothing else: callers may pass arbitrary decoded JSON.
"""

from .board import EXPONENT_BY_VALUE, exponents, max_tile
from .errors import InvalidState
from .variant import JSON_EXACT, SIZES, VARIANTS

STATE_KEYS = frozenset({"board", "score", "won", "keep_playing", "moves"})
# Accepted for round trips: ``over`` is always recomputed, ``size`` and ``goal`` follow from the board.
OPTIONAL_KEYS = frozenset({"over", "size", "goal"})
SEED_LIMIT = 2**63


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


def check_count(name: str, value, limit: int = JSON_EXACT) -> int:
    """A counter within ``limit`` (score and moves: what a game of its variant can reach; the server's
    own counts: what JSON carries exactly), else InvalidState. Exactly an int, asked by its type (True is
    an int to isinstance; JSON and the store give plain ints): one call less a check."""
    if type(value) is not int or not 0 <= value <= limit:
        raise InvalidState(f"{name} must be a whole number from 0 to {limit}, got {_shown(value)}")
    return value


def check_bool(name: str, value) -> bool:
    if not isinstance(value, bool):
        raise InvalidState(f"{name} must be true or false, got {_shown(value)}")
    return value


def check_board(board):
    """(the board packed, its variant), once it is a square of 3 to 8 rows and every cell is a tile of
    its variant (one pass: this runs on every move)."""
    variant = VARIANTS.get(len(board)) if isinstance(board, list) else None
    if variant is None:
        raise InvalidState(f"board must be a list of {SIZES[0]} to {SIZES[-1]} rows")
    size, top, bits = variant.size, variant.max_exponent, variant.cell_bits
    packed = shift = 0
    for r, row in enumerate(board):
        if not isinstance(row, list) or len(row) != size:
            raise InvalidState(f"board row {r} must be a list of {size} cells, as there are {size} rows")
        for c, value in enumerate(row):
            exponent = EXPONENT_BY_VALUE.get(value) if type(value) is int else None
            if exponent is None or exponent > top:
                raise InvalidState(
                    f"board cell ({r}, {c}) must be 0 or a power of two from 2 to {variant.max_tile},"
                    f" got {_shown(value)}"
                )
            packed |= exponent << shift
            shift += bits
    if not packed:
        raise InvalidState("board must hold at least one tile")
    return packed, variant


def check_position(board: int, score: int, won: bool, moves: int, variant) -> None:
    """A packed position of types already checked (a stored game's, app/games/played.py's
    check_stored) within its variant's bounds: its cells, each a tile of the ladder or empty, at
    least one tile, a goal tile only once won, and its counts."""
    if not 0 < board < 1 << (variant.cell_bits * variant.cells):
        raise InvalidState(f"a stored board must hold {variant.cells} cells and a tile, got {board:x}"[:120])
    if max(exponents(board, variant)) > variant.max_exponent:
        raise InvalidState(f"a stored board holds a tile past {variant.max_tile}, got {board:x}"[:120])
    if not won and max_tile(board, variant) >= variant.goal:
        raise InvalidState(f"a board with a {variant.goal} tile or more must be won")
    check_count("score", score, variant.max_score)
    check_count("moves", moves, variant.max_moves)


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


def parse_state(state) -> dict:
    """Validated Game fields (board packed, its variant) from a state from outside."""
    check_keys(state, STATE_KEYS)
    board, variant = check_board(state["board"])
    fields = {
        "board": board,
        "variant": variant,
        "score": check_count("score", state["score"], variant.max_score),
        "won": check_bool("won", state["won"]),
        "keep_playing": check_bool("keep_playing", state["keep_playing"]),
        "moves": check_count("moves", state["moves"], variant.max_moves),
    }
    if "over" in state:
        check_bool("over", state["over"])
    for key in ("size", "goal"):
        if key in state and state[key] != getattr(variant, key):
            raise InvalidState(f"{key} must be {getattr(variant, key)} for a board of {variant.size} rows")
    if fields["keep_playing"] and not fields["won"]:
        raise InvalidState("keep_playing can only be true once the game is won")
    if max_tile(board, variant) >= variant.goal and not fields["won"]:
        raise InvalidState(f"a board with a {variant.goal} tile or more must be won")
    return fields
