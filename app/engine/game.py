"""One game of 2048 as the web app and the benchmark play it.

All randomness derives from the game's ``seed``: the start tiles use
random.Random(f"{seed}:start") and the spawn after valid move number n
(counting from 1) uses random.Random(f"{seed}:{n}"). So ``seed`` and the moves
played are the game's whole random state, and a record is small JSON.
"""

import random
import secrets
from dataclasses import dataclass

from .animation import slide_tiles
from .board import max_tile, unpack
from .errors import GameFinished, UnknownDirection
from .moves import DIRECTIONS, is_over, move
from .rules import WIN_TILE
from .spawn import spawn, start_board
from .state import MAX_MOVES, MAX_SCORE, check_seed, parse_state


def _seed_or_fresh(seed: int | None) -> int:
    return secrets.randbits(63) if seed is None else check_seed(seed)


def _rng(seed: int, label) -> random.Random:
    return random.Random(f"{seed}:{label}")


@dataclass
class MoveOutcome:
    """What one play did, with what the front end needs to animate it."""

    moved: bool
    gained: int
    tiles: list[dict]  # {"row", "col", "value", "from": [[r, c], ...]} after the slide
    spawned: dict | None  # {"row", "col", "value"}, None when nothing moved

    def to_dict(self) -> dict:
        return {
            "moved": self.moved,
            "gained": self.gained,
            "animation": {"tiles": self.tiles, "spawned": self.spawned},
        }


@dataclass(kw_only=True)
class Game:
    """A game in progress, changed in place by play() and keep_going()."""

    board: int
    score: int = 0
    won: bool = False
    keep_playing: bool = False
    moves: int = 0
    seed: int

    @classmethod
    def new(cls, seed: int | None = None) -> "Game":
        seed = _seed_or_fresh(seed)
        return cls(board=start_board(_rng(seed, "start")), seed=seed)

    @classmethod
    def from_state(cls, state: dict, seed: int | None = None) -> "Game":
        """Game from a client's state; ``over`` in it is ignored and recomputed.

        Without a seed its tiles to come are as unpredictable as a new game's.
        """
        return cls(**parse_state(state), seed=_seed_or_fresh(seed))

    @classmethod
    def from_record(cls, record: dict) -> "Game":
        """Game from the server's stored copy (a state plus ``seed``)."""
        return cls(**parse_state(record, with_seed=True))

    @property
    def over(self) -> bool:
        return is_over(self.board)

    @property
    def waiting(self) -> bool:
        """Won, and the player has not yet chosen to keep playing."""
        return self.won and not self.keep_playing

    def play(self, direction: str) -> MoveOutcome:
        """Slide, score, and spawn a tile if the board changed; a no-change move does nothing."""
        if direction not in DIRECTIONS:
            raise UnknownDirection(f"unknown direction {direction!r}; expected one of {DIRECTIONS}")
        if self.over:
            raise GameFinished("the game is over")
        if self.waiting:
            raise GameFinished(f"{WIN_TILE} reached: choose keep playing or start a new game")
        tiles = slide_tiles(self.board, direction)
        board, gained = move(self.board, direction)
        if board == self.board:
            return MoveOutcome(moved=False, gained=0, tiles=tiles, spawned=None)
        self.moves = min(self.moves + 1, MAX_MOVES)  # a restored game at its bounds plays on
        self.score = min(self.score + gained, MAX_SCORE)
        self.won = self.won or max_tile(board) >= WIN_TILE
        self.board, (row, col), value = spawn(board, _rng(self.seed, self.moves))
        spawned = {"row": row, "col": col, "value": value}
        return MoveOutcome(moved=True, gained=gained, tiles=tiles, spawned=spawned)

    def keep_going(self) -> None:
        """Carry on past 2048; only a won game that is not over can."""
        if not self.won:
            raise GameFinished(f"keep playing is only possible after reaching {WIN_TILE}")
        if self.over:
            raise GameFinished("the game is over")
        self.keep_playing = True

    def to_state(self) -> dict:
        return {
            "board": unpack(self.board),
            "score": self.score,
            "won": self.won,
            "over": self.over,
            "keep_playing": self.keep_playing,
            "moves": self.moves,
        }

    def to_record(self) -> dict:
        return {**self.to_state(), "seed": self.seed}
