"""One game of 2048 as the web app and the benchmark play it.

All randomness derives from the game's ``seed``: the start tiles use
random.Random(f"{seed}:start") and the spawn after valid move number n uses
random.Random(f"{seed}:{n}"), n counted from the game's very first move (a restored
game's count goes on from its start, never capped, so no two moves share a draw).

A day's game (``day`` set: the game everyone plays that day, app/daily.py) that starts new draws
instead from its history: its start tiles, and the tile after each move, come from
random.Random(HMAC-SHA256(key = the seed in decimal, message = the directions so far as letters,
"" at the start)). The same directions bring everyone the same tiles, and a different direction
brings tiles that nothing seen on another line foretells (``draws``). A day's game with a start
state (practice: the day's board, or a position of the day put back) is drawn like any game from
a state: by the move's number, from a seed of its own, so it foretells nothing of the day's lines.

So ``seed``, the state the game started from and the directions of its valid moves
replay it exactly: the game keeps them (the directions packed, see history.py), and
with them what helped the player (hints, auto-play, restores), so that a record of
it can be checked. Whoever knows the seed knows every tile to come: it stays with
the server while the game can still move.
"""

import hashlib
import hmac
import random
import secrets
from dataclasses import dataclass, field

from .board import max_tile, unpack
from .errors import CannotUndo, GameFinished, InvalidState, UnknownDirection
from .history import Directions, start_tiles, tile_code
from .rules import WIN_TILE
from .sliding import DIRECTIONS, is_over, move
from .spawn import spawn, start_board
from .state import (
    MAX_MOVES,
    MAX_SCORE,
    OPTIONAL_KEYS,
    STATE_KEYS,
    check_bool,
    check_count,
    check_day,
    check_earlier,
    check_id,
    check_keys,
    check_seed,
    check_stored_board,
    parse_state,
)

# What a stored game holds besides its state and seed; and what it may hold, with the value a
# game stored before the key existed takes.
STORED_KEYS = frozenset({"seed_chosen", "start", "directions", "hints", "autoplay"})
OPTIONAL_STORED_KEYS = {
    "id": None, "restores": 0, "undos": 0, "earlier": [], "seed_shown": False, "fork_of": None, "daily": None,
    "ranked": False,
}
REQUIRED_STORED_KEYS = STATE_KEYS | {"seed"} | STORED_KEYS
ALLOWED_STORED_KEYS = frozenset(OPTIONAL_KEYS | OPTIONAL_STORED_KEYS.keys())
# How many moves a game can take back: enough to mend a slip of the finger and the moves made
# before it was noticed, few enough that undo stays a mend and not a way to search the game.
UNDO_DEPTH = 5


def _seed_or_fresh(seed: int | None) -> int:
    return secrets.randbits(63) if seed is None else check_seed(seed)


def _rng(seed: int, label) -> random.Random:
    return random.Random(f"{seed}:{label}")


class HistoryDraws:
    """A day's game's draws: the generator for the directions played so far, an HMAC of them under
    the seed, kept running so that a move costs one letter's hashing, however long the game."""

    def __init__(self, seed: int, letters: str = ""):
        self.mac = hmac.new(str(seed).encode(), letters.encode(), hashlib.sha256)
        self.count = len(letters)

    def add(self, direction: str) -> None:
        self.mac.update(direction[0].encode())
        self.count += 1

    def rng(self) -> random.Random:
        return random.Random(self.mac.copy().digest())


@dataclass
class MoveOutcome:
    """What one play did."""

    moved: bool
    gained: int
    spawned: tuple[int, int, int] | None  # the new tile's (row, col, value); None when nothing moved


@dataclass(kw_only=True)
class Game:
    """A game in progress, changed in place by play() and choose_keep_playing()."""

    board: int
    score: int = 0
    won: bool = False
    keep_playing: bool = False
    moves: int = 0
    seed: int
    seed_chosen: bool = False  # by the client, not the server
    start: dict | None = None  # the state a restored game started from; None for a new game
    directions: Directions = field(default_factory=Directions)
    hints: int = 0
    autoplay: bool = False
    id: str | None = None  # names the game for the server (its seed may derive from it)
    restores: int = 0  # times it was put back from a copy the server had sealed (see app/seals.py)
    undos: int = 0  # moves taken back
    # The positions before the last moves, newest last, as (board, score, won, keep_playing, moves).
    earlier: list = field(default_factory=list)
    seed_shown: bool = False  # a record of the game showed its seed: it can no longer go back
    fork_of: str | None = None  # the id of the game this one was forked from (app/games.py)
    day: str | None = None  # a day's game: its UTC date (YYYY-MM-DD); its tiles are drawn from its history
    ranked: bool = False  # a day's game that counts on the day's leaderboard (app/daily.py)
    _draws: HistoryDraws | None = field(default=None, init=False, repr=False, compare=False)
    _over: tuple[int, bool] | None = field(default=None, init=False, repr=False, compare=False)  # (board, over)

    @classmethod
    def new(cls, seed: int | None = None, *, seed_chosen: bool | None = None, day: str | None = None) -> "Game":
        """A new game on ``seed``, or on a fresh random one. ``seed_chosen`` says whether the player
        chose the seed (a record of the game is then never verified); by default, whether one was given.
        With ``day``, the day's game on that seed, its tiles drawn from its history."""
        chosen = seed is not None if seed_chosen is None else seed_chosen
        seed = _seed_or_fresh(seed)
        start = HistoryDraws(seed).rng() if day is not None else _rng(seed, "start")
        return cls(board=start_board(start), seed=seed, seed_chosen=chosen, day=day)

    @classmethod
    def from_state(cls, state: dict, seed: int | None = None, *, seed_chosen: bool | None = None) -> "Game":
        """Game from a client's state; ``over`` in it is ignored and recomputed.

        Without a seed its tiles to come are as unpredictable as a new game's; ``seed_chosen`` as in ``new``.
        """
        chosen = seed is not None if seed_chosen is None else seed_chosen
        game = cls(**parse_state(state), seed=_seed_or_fresh(seed), seed_chosen=chosen)
        game.start = game.start_state()
        return game

    @classmethod
    def from_stored(cls, stored: dict) -> "Game":
        """Game from a copy the server stored (``to_stored``), read as it was written: this runs on every
        move, and what the server stored was checked on its way in (``from_state`` for a client's state,
        ``check_stored`` for a sealed copy put back) and has changed since only by play.

        A copy an earlier version stored reads as it wrote it: its board as rows, or, before games kept
        their moves, a state, which replays from there. An entry that is no stored game raises
        InvalidState, LookupError, ValueError or TypeError (load_game: the session has no game).
        """
        if not isinstance(stored, dict):
            raise InvalidState("a stored game must be an object")
        if STORED_KEYS.isdisjoint(stored):
            state = {k: v for k, v in stored.items() if k not in OPTIONAL_STORED_KEYS}
            game = cls(**parse_state(state, with_seed=True))
            game.start = game.start_state()
            return game
        get = stored.get
        return cls(
            board=check_stored_board(stored["board"]),
            score=stored["score"],
            won=stored["won"],
            keep_playing=stored["keep_playing"],
            moves=stored["moves"],
            seed=stored["seed"],
            seed_chosen=stored["seed_chosen"],
            start=stored["start"],
            directions=Directions.from_text(stored["directions"]),
            hints=stored["hints"],
            autoplay=stored["autoplay"],
            id=get("id"),
            restores=get("restores", 0),
            undos=get("undos", 0),
            earlier=[
                (int(board, 16), score, won, keep, moves) for board, score, won, keep, moves in get("earlier", ())
            ],
            seed_shown=get("seed_shown", False),
            fork_of=get("fork_of"),
            day=get("daily"),
            ranked=get("ranked", False),
        )

    @classmethod
    def replay(cls, seed: int, start: dict | None, directions, day: str | None = None) -> "Game":
        """The game that ``seed``, the ``start`` state (None: a new game) and ``directions`` make
        (with ``day`` and no ``start``: that day's game, its tiles drawn from its history).

        Raises InvalidState when a direction does not move the board: no game played it.
        """
        *_, (game, _tile) = cls.replaying(seed, start, directions, day)
        return game

    @classmethod
    def replaying(cls, seed: int, start: dict | None, directions, day: str | None = None):
        """As ``replay``, one position at a time: the same game before each move and after the
        last, each with the tile the move before it placed, as (row, col, value) (None at the start)."""
        game = cls.new(seed, day=day) if start is None else cls.from_state(start, seed)
        game.day = day
        yield game, None
        for number, direction in enumerate(directions, 1):
            game.keep_playing = game.won  # a move after the win means the player kept playing
            advanced = game.advance(direction)
            if not advanced:
                raise InvalidState(f"move {number} ({direction}) does not change the board")
            yield game, advanced[1]

    @property
    def over(self) -> bool:
        """Whether no move is left; asked several times a move, so kept until the board changes."""
        if self._over is None or self._over[0] != self.board:
            self._over = (self.board, is_over(self.board))
        return self._over[1]

    @property
    def finished(self) -> bool:
        """Moves are refused: the game is over, or won and the player has not chosen to keep playing."""
        return self.over or (self.won and not self.keep_playing)

    def play(self, direction: str) -> MoveOutcome:
        """Slide, score, and spawn a tile if the board changed; a no-change move does nothing.

        Whether the game is over is asked only when the board did not change: a board that moved was
        not over, so a move that plays never pays for the question."""
        if direction not in DIRECTIONS:
            raise UnknownDirection(f"unknown direction {direction!r}; expected one of {DIRECTIONS}")
        if self.won and not self.keep_playing:
            if self.over:
                raise GameFinished("the game is over")
            raise GameFinished(f"{WIN_TILE} reached: choose keep playing or start a new game")
        advanced = self.advance(direction)
        if advanced is None:
            if self.over:
                raise GameFinished("the game is over")
            return MoveOutcome(moved=False, gained=0, spawned=None)
        gained, spawned = advanced
        return MoveOutcome(moved=True, gained=gained, spawned=spawned)

    def advance(self, direction: str) -> tuple[int, tuple[int, int, int]] | None:
        """The move itself, kept in ``directions``: the points gained and the tile spawned as
        (row, col, value), or None if nothing moved."""
        board, gained = move(self.board, direction)
        if board == self.board:
            return None
        before = (self.board, self.score, self.won, self.keep_playing, self.moves)
        self.earlier = [*self.earlier[1 - UNDO_DEPTH :], before]
        self.moves = min(self.moves + 1, MAX_MOVES)  # a restored game at its bounds plays on
        self.score = min(self.score + gained, MAX_SCORE)
        self.won = self.won or max_tile(board) >= WIN_TILE
        self.directions.append(direction)
        self.board, (row, col), value = spawn(board, self.draws())
        return gained, (row, col, value)

    def draws(self) -> random.Random:
        """The generator of the tile the last move brings: by the move's number (counted from the
        game's very first move), or, in a day's game that started new, from the directions played so far."""
        if self.day is None or self.start is not None:
            return _rng(self.seed, (self.start["moves"] if self.start else 0) + len(self.directions))
        if self._draws is None or self._draws.count != len(self.directions) - 1:
            self._draws = HistoryDraws(self.seed, self.directions.to_letters()[:-1])
        self._draws.add(self.directions.last())
        return self._draws.rng()

    def undo(self) -> None:
        """Take the last move back: the position before it, and its randomness with it (the move
        played again draws the same tile, by the same number). Up to UNDO_DEPTH moves; counted."""
        if self.seed_shown:
            raise CannotUndo("this game's record shows its seed: its tiles are known, so it cannot go back")
        if not self.earlier:
            raise CannotUndo(f"there is no move to take back (a game can take back its last {UNDO_DEPTH})")
        self.board, self.score, self.won, self.keep_playing, self.moves = self.earlier.pop()
        self.directions.pop()
        self.undos += 1

    def choose_keep_playing(self) -> None:
        """The player's choice to carry on past 2048; only a won game that is not over can."""
        if not self.won:
            raise GameFinished(f"keep playing is only possible after reaching {WIN_TILE}")
        if self.over:
            raise GameFinished("the game is over")
        self.keep_playing = True

    def to_state(self) -> dict:
        """The state as the API shows it; a day's game says its day and whether it is ranked."""
        state = {
            "board": unpack(self.board),
            "score": self.score,
            "won": self.won,
            "over": self.over,
            "keep_playing": self.keep_playing,
            "moves": self.moves,
        }
        return state if self.day is None else {**state, "daily": self.day, "ranked": self.ranked}

    def start_state(self) -> dict:
        """The state as a restore gives it: ``over`` is always recomputed."""
        return {key: value for key, value in self.to_state().items() if key in STATE_KEYS}

    @classmethod
    def replay_tiles(cls, seed: int, start: dict | None, directions, day: str | None = None) -> tuple["Game", bytes]:
        """As ``replay``, with every tile the game placed (codes, see history.py): a new game's two
        start tiles first, then one a move."""
        replaying = cls.replaying(seed, start, directions, day)
        game, _ = next(replaying)  # the one game, moved on in place by each step
        tiles = bytearray(start_tiles(game.board) if start is None else b"")
        tiles.extend(tile_code(*tile) for _game, tile in replaying)
        return game, bytes(tiles)

    def replayed(self) -> tuple[bytes, bool]:
        """Replay the game from its seed, start and directions: the tiles it placed, and whether
        it is verified: played on the server from its first move, on a seed the server chose,
        and replaying to exactly this board and score."""
        replayed, tiles = Game.replay_tiles(self.seed, self.start, self.directions, self.day)
        exact = (replayed.board, replayed.score) == (self.board, self.score)
        return tiles, exact and self.start is None and not self.seed_chosen

    @property
    def verified(self) -> bool:
        return self.replayed()[1]

    @property
    def assisted(self) -> bool:
        return self.hints > 0 or self.autoplay

    @property
    def helped(self) -> bool:
        """Help from this server: a hint, auto-play, a move taken back, a restore (what the hall of
        fame's "without help", Record.without_help, leaves out)."""
        return self.assisted or self.undos > 0 or self.restores > 0

    def to_stored(self) -> dict:
        """The game as a session stores it: every session holds one, so what is still at its
        default (no undo, no restore) is left out, and ``over`` is not kept (it is recomputed)."""
        optional = {
            "id": self.id,
            "restores": self.restores,
            "undos": self.undos,
            "earlier": [[f"{board:x}", *rest] for board, *rest in self.earlier],
            "seed_shown": self.seed_shown,
            "fork_of": self.fork_of,
            "daily": self.day,
            "ranked": self.ranked,
        }
        return {
            "board": f"{self.board:x}",  # packed, as the earlier positions: read back without a check of each cell
            "score": self.score,
            "won": self.won,
            "keep_playing": self.keep_playing,
            "moves": self.moves,
            "seed": self.seed,
            "seed_chosen": self.seed_chosen,
            "start": self.start,
            "directions": self.directions.to_text(),
            "hints": self.hints,
            "autoplay": self.autoplay,
            **{key: value for key, value in optional.items() if value != OPTIONAL_STORED_KEYS[key]},
        }


def check_stored(stored):
    """``stored`` once every field is of its type and within its bounds, else InvalidState: a stored
    game that comes back in from outside the server's store (a sealed copy, which a page keeps) is
    checked so before ``Game.from_stored`` reads it, as a client's state is by ``Game.from_state``."""
    if not isinstance(stored, dict):
        raise InvalidState("a stored game must be an object")
    if STORED_KEYS.isdisjoint(stored):
        return stored  # a state stored before games kept their moves: from_stored holds it to the rules
    check_keys(stored, REQUIRED_STORED_KEYS, ALLOWED_STORED_KEYS)
    check_stored_board(stored["board"])
    for name in ("score", "moves", "hints", "restores", "undos"):
        check_count(name, stored.get(name, 0))
    for name in ("won", "keep_playing", "seed_chosen", "autoplay", "seed_shown", "ranked"):
        check_bool(name, stored.get(name, False))
    check_seed(stored["seed"])
    if stored["start"] is not None:
        parse_state(stored["start"])  # held to the rules, as when it came in
    Directions.from_text(stored["directions"])
    check_id(stored.get("id"))
    check_id(stored.get("fork_of"))
    check_day(stored.get("daily"))
    check_earlier(stored.get("earlier", []))
    return stored
