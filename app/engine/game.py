"""One game of 2048 by the rules: its board, score and moves, its tiles drawn from its seed.

All randomness derives from the game's ``seed``: the start tiles use
random.Random(f"{seed}:start") and the spawn after valid move number n uses
random.Random(f"{seed}:{n}"), n counted from the game's very first move (a game from a start
state goes on from that state's count, never capped, so no two moves share a draw).

A game drawn ``by_history`` (the day's game everyone plays, app/daily.py) draws instead from its
history: its start tiles, and the tile after each move, come from random.Random(HMAC-SHA256(key =
the seed in decimal, message = the directions so far as letters, "" at the start)). The same
directions bring everyone the same tiles, and a different direction brings tiles that nothing seen
on another line foretells (``draws``). Only a new game draws so; one from a start state draws by
the move's number.

So ``seed``, the variant, the state the game started from and the directions of its valid moves
replay it exactly: the game keeps them (the directions packed, see history.py). Whoever knows the
seed knows every tile to come. What the product keeps beside the rules (the game's id, the help it
had, its day) is app/games/'s.
"""

import hashlib
import hmac
import random
from dataclasses import dataclass, field

from .board import max_tile, unpack
from .directions import DIRECTIONS
from .errors import CannotUndo, GameFinished, InvalidState, UnknownDirection
from .history import Directions, start_tiles, tile_code
from .kernels import kernel_for
from .spawn import spawn, start_board
from .state import STATE_KEYS, check_seed, parse_state
from .variant import CLASSIC, Variant

# How many moves a game can take back: enough to mend a slip of the finger and the moves made
# before it was noticed, few enough that undo stays a mend and not a way to search the game.
UNDO_DEPTH = 5


def _rng(seed: int, label) -> random.Random:
    return random.Random(f"{seed}:{label}")


class HistoryDraws:
    """The draws of a game drawn by its history: the generator for the directions played so far, an
    HMAC of them under the seed, kept running so that a move costs one letter's hashing."""

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
    """A game in progress, changed in place by play(), undo() and choose_keep_playing()."""

    board: int
    score: int = 0
    won: bool = False
    keep_playing: bool = False
    moves: int = 0
    seed: int
    variant: Variant = CLASSIC
    start: dict | None = None  # the state a game from a state started from; None for a new game
    directions: Directions = field(default_factory=Directions)
    # The positions before the last moves, newest last, as (board, score, won, keep_playing, moves).
    earlier: list = field(default_factory=list)
    by_history: bool = False  # its tiles drawn from its history (a new day's game)
    _draws: HistoryDraws | None = field(default=None, init=False, repr=False, compare=False)
    _over: tuple[int, bool] | None = field(default=None, init=False, repr=False, compare=False)  # (board, over)

    @classmethod
    def new(cls, seed: int, *, variant: Variant = CLASSIC, by_history: bool = False, **fields) -> "Game":
        """A new game on ``seed`` (``by_history``: its tiles drawn from its history)."""
        check_seed(seed)
        start = HistoryDraws(seed).rng() if by_history else _rng(seed, "start")
        return cls(board=start_board(start, variant), seed=seed, variant=variant, by_history=by_history, **fields)

    @classmethod
    def from_state(cls, state: dict, seed: int, **fields) -> "Game":
        """A game from a state from outside, checked (parse_state; its variant is its board's size);
        ``over`` in it is ignored and recomputed."""
        game = cls(**parse_state(state), seed=check_seed(seed), **fields)
        game.start = game.start_state()
        return game

    @classmethod
    def replay(cls, seed: int, start: dict | None, directions, variant: Variant = CLASSIC, by_history=False) -> "Game":
        """The game that ``seed``, the ``start`` state (None: a new game of ``variant``, drawn
        ``by_history`` if so) and ``directions`` make.

        Raises InvalidState when a direction does not move the board: no game played it.
        """
        *_, (game, _tile) = cls.replaying(seed, start, directions, variant, by_history)
        return game

    @classmethod
    def replaying(cls, seed: int, start: dict | None, directions, variant: Variant = CLASSIC, by_history=False):
        """As ``replay``, one position at a time: the same game before each move and after the
        last, each with the tile the move before it placed, as (row, col, value) (None at the start)."""
        game = cls.new(seed, variant=variant, by_history=by_history) if start is None else cls.from_state(start, seed)
        yield game, None
        for number, direction in enumerate(directions, 1):
            game.keep_playing = game.won  # a move after the win means the player kept playing
            advanced = game.advance(direction)
            if not advanced:
                raise InvalidState(f"move {number} ({direction}) does not change the board")
            yield game, advanced[1]

    @classmethod
    def replay_tiles(
        cls, seed: int, start: dict | None, directions, variant: Variant = CLASSIC, by_history=False
    ) -> tuple["Game", bytes]:
        """As ``replay``, with every tile the game placed (codes, see history.py): a new game's two
        start tiles first, then one a move."""
        replaying = cls.replaying(seed, start, directions, variant, by_history)
        game, _ = next(replaying)  # the one game, moved on in place by each step
        tiles = bytearray(start_tiles(game.board, game.variant) if start is None else b"")
        tiles.extend(tile_code(*tile, game.variant) for _game, tile in replaying)
        return game, bytes(tiles)

    def replays_exactly(self) -> tuple[bytes, bool]:
        """Replay the game from its seed, start and directions: the tiles it placed, and whether that
        gives exactly this board and score."""
        replayed, tiles = Game.replay_tiles(self.seed, self.start, self.directions, self.variant, self.by_history)
        return tiles, (replayed.board, replayed.score) == (self.board, self.score)

    @property
    def over(self) -> bool:
        """Whether no move is left; asked several times a move, so kept until the board changes."""
        if self._over is None or self._over[0] != self.board:
            self._over = (self.board, kernel_for(self.variant).is_over(self.board))
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
            raise GameFinished(f"{self.variant.goal} reached: choose keep playing or start a new game")
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
        variant = self.variant
        board, gained = kernel_for(variant).move(self.board, direction)
        if board == self.board:
            return None
        before = (self.board, self.score, self.won, self.keep_playing, self.moves)
        self.earlier = [*self.earlier[1 - UNDO_DEPTH :], before]
        self.moves = min(self.moves + 1, variant.max_moves)  # a game from a state at its bounds plays on
        self.score = min(self.score + gained, variant.max_score)
        self.won = self.won or max_tile(board, variant) >= variant.goal
        self.directions.append(direction)
        self.board, (row, col), value = spawn(board, self.draws(), variant)
        return gained, (row, col, value)

    def draws(self) -> random.Random:
        """The generator of the tile the last move brings: by the move's number (counted from the
        game's very first move), or, in a game drawn by its history, from the directions played so far."""
        if not self.by_history or self.start is not None:
            return _rng(self.seed, (self.start["moves"] if self.start else 0) + len(self.directions))
        if self._draws is None or self._draws.count != len(self.directions) - 1:
            self._draws = HistoryDraws(self.seed, self.directions.to_letters()[:-1])
        self._draws.add(self.directions.last())
        return self._draws.rng()

    def undo(self) -> None:
        """Take the last move back: the position before it, and its randomness with it (the move
        played again draws the same tile, by the same number). Up to UNDO_DEPTH moves."""
        if not self.earlier:
            raise CannotUndo(f"there is no move to take back (a game can take back its last {UNDO_DEPTH})")
        self.board, self.score, self.won, self.keep_playing, self.moves = self.earlier.pop()
        self.directions.pop()

    def choose_keep_playing(self) -> None:
        """The player's choice to carry on past the goal; only a won game that is not over can."""
        if not self.won:
            raise GameFinished(f"keep playing is only possible after reaching {self.variant.goal}")
        if self.over:
            raise GameFinished("the game is over")
        self.keep_playing = True

    def to_state(self) -> dict:
        """The state as the API shows it, with its variant's size and goal."""
        return {
            "board": unpack(self.board, self.variant),
            "score": self.score,
            "won": self.won,
            "over": self.over,
            "keep_playing": self.keep_playing,
            "moves": self.moves,
            "size": self.variant.size,
            "goal": self.variant.goal,
        }

    def start_state(self) -> dict:
        """The state as a game from a state takes it: ``over`` is always recomputed."""
        return {key: value for key, value in self.to_state().items() if key in STATE_KEYS}
