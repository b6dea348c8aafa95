"""A game as the product keeps it: the engine's game (its rules) and what the product knows beside
them (its id, the help it had, its day and ranking, its seed's fate), and its stored form, declared
once (``StoredGame``): a session keeps it, a sealed copy carries it (app/seals.py).

A session's stored game is read as it was written (``from_stored``): this runs on every move, and
what the server stored was checked on its way in and has changed since only by play. A stored game
that comes back in from outside the server's store (a sealed copy, which a page keeps) is checked
first, every field within its bounds (``check_stored``), as a client's state is by
``Game.from_state``. A stored game without ``size`` is a classic 4x4 (all that 0.2.0 stored).
"""

import re
from dataclasses import dataclass
from datetime import date
from typing import Annotated

import msgspec

from ..engine import CannotUndo, Game, InvalidState, variant_of
from ..engine.history import Directions
from ..engine.state import check_position, parse_state
from ..engine.variant import JSON_EXACT

GAME_ID = r"^[A-Za-z0-9_-]{16}$"
DAY = r"^\d{4}-\d{2}-\d{2}$"
Count = Annotated[int, msgspec.Meta(ge=0, le=JSON_EXACT)]
GameId = Annotated[str, msgspec.Meta(pattern=GAME_ID)]
Day = Annotated[str, msgspec.Meta(pattern=DAY)]


class StoredGame(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    """The stored form: what is still at its default is left out (every session holds one), ``over``
    is not kept (it is recomputed), boards are packed in hexadecimal (read back without a check of
    each cell), the directions as Directions.to_text writes them."""

    board: str
    score: Count
    won: bool
    keep_playing: bool
    moves: Count
    seed: Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]
    seed_chosen: bool
    start: dict | None
    directions: str
    hints: Count
    autoplay: bool
    id: GameId | None = None
    restores: Count = 0
    undos: Count = 0
    earlier: list[tuple[str, Count, bool, bool, Count]] = []
    seed_shown: bool = False
    fork_of: GameId | None = None
    day: Day | None = msgspec.field(default=None, name="daily")
    ranked: bool = False
    size: int = 4


@dataclass(kw_only=True)
class PlayedGame(Game):
    """A game of the product's: the engine's game and what the product keeps beside its rules."""

    id: str | None = None  # names the game for the server (its seed may derive from it)
    seed_chosen: bool = False  # by the client, not the server: a record of it is never verified
    hints: int = 0
    autoplay: bool = False
    restores: int = 0  # times it was put back from a copy the server had sealed (see app/seals.py)
    undos: int = 0  # moves taken back
    seed_shown: bool = False  # a record of the game showed its seed: it can no longer go back
    fork_of: str | None = None  # the id of the game this one was forked from (app/games/session.py)
    day: str | None = None  # a day's game: its UTC date (YYYY-MM-DD) (app/daily.py)
    ranked: bool = False  # a day's game that counts on the day's leaderboard (app/daily.py)

    @classmethod
    def begin(cls, game_id: str, seed: int, variant, *, seed_chosen: bool, day: str | None = None) -> "PlayedGame":
        """A new game; a day's game draws its tiles by its history."""
        return cls.new(seed, variant=variant, by_history=day is not None, id=game_id, seed_chosen=seed_chosen, day=day)

    @classmethod
    def replayed_record(cls, seed, start, directions, variant, day) -> tuple["PlayedGame", bytes]:
        """A record's game replayed, with its tiles (Game.replay_tiles), of ``variant`` and on ``day``:
        a day's game that started new draws by its history. Its start must be a board of ``variant``."""
        game, tiles = cls.replay_tiles(seed, start, directions, variant, by_history=day is not None and start is None)
        if game.variant != variant:
            raise InvalidState(f"its start is not a board of size {variant.size}")
        game.day = day
        return game, tiles

    def replayed(self) -> tuple[bytes, bool]:
        """The tiles the game placed, and whether it is verified: played on the server from its first
        move, on a seed the server chose, and replaying to exactly this board and score."""
        tiles, exact = self.replays_exactly()
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

    def undo(self) -> None:
        """The engine's undo, refused once a record showed the game's seed, and counted."""
        if self.seed_shown:
            raise CannotUndo("this game's record shows its seed: its tiles are known, so it cannot go back")
        super().undo()
        self.undos += 1

    def to_state(self) -> dict:
        """The state as the API shows it; a day's game says its day and whether it is ranked."""
        state = super().to_state()
        return state if self.day is None else {**state, "daily": self.day, "ranked": self.ranked}

    def to_stored(self) -> dict:
        return msgspec.to_builtins(
            StoredGame(
                board=f"{self.board:x}", score=self.score, won=self.won, keep_playing=self.keep_playing,
                moves=self.moves, seed=self.seed, seed_chosen=self.seed_chosen, start=self.start,
                directions=self.directions.to_text(), hints=self.hints, autoplay=self.autoplay, id=self.id,
                restores=self.restores, undos=self.undos,
                earlier=[(f"{board:x}", *rest) for board, *rest in self.earlier],
                seed_shown=self.seed_shown, fork_of=self.fork_of, day=self.day, ranked=self.ranked,
                size=self.variant.size,
            )
        )  # fmt: skip

    @classmethod
    def from_stored(cls, stored) -> "PlayedGame":
        """The game a session stored (``to_stored``), its fields of their types. An entry that is no
        stored game raises InvalidState."""
        try:
            kept = msgspec.convert(stored, StoredGame)
            variant = variant_of(kept.size)
            board, earlier = int(kept.board, 16), [(int(board, 16), *rest) for board, *rest in kept.earlier]
        except (msgspec.ValidationError, ValueError) as error:
            raise InvalidState(f"not a stored game: {error}") from None
        by_history = kept.day is not None and kept.start is None
        return cls(
            board=board, score=kept.score, won=kept.won, keep_playing=kept.keep_playing,
            moves=kept.moves, seed=kept.seed, variant=variant, start=kept.start,
            directions=Directions.from_text(kept.directions, variant), earlier=earlier, by_history=by_history,
            id=kept.id, seed_chosen=kept.seed_chosen, hints=kept.hints, autoplay=kept.autoplay,
            restores=kept.restores, undos=kept.undos, seed_shown=kept.seed_shown, fork_of=kept.fork_of,
            day=kept.day, ranked=kept.ranked,
        )  # fmt: skip


def check_day(value) -> str | None:
    """A day's game's UTC date as YYYY-MM-DD (or None for any other game), else InvalidState."""
    if value is None:
        return None
    try:
        valid = isinstance(value, str) and re.fullmatch(DAY, value) and date.fromisoformat(value).isoformat() == value
    except ValueError:
        valid = False
    if not valid:
        raise InvalidState(f"a day must be a date as YYYY-MM-DD, got {str(value)[:40]!r}")
    return value


def check_id(value) -> str | None:
    """A game's id as the server makes them (or None), else InvalidState."""
    if value is not None and not (isinstance(value, str) and re.fullmatch(GAME_ID, value)):
        raise InvalidState(f"a game id must be 16 URL-safe characters, got {str(value)[:40]!r}")
    return value


def check_stored(stored) -> "PlayedGame":
    """The game a stored form from outside the server's store holds (a sealed copy), once every field
    is of its type and within its bounds, else InvalidState."""
    game = PlayedGame.from_stored(stored)  # every field of its type, the seed within its bounds
    variant = game.variant
    now = (game.board, game.score, game.won, game.keep_playing, game.moves)
    for board, score, won, _keep_playing, moves in [*game.earlier, now]:
        check_position(board, score, won, moves, variant)
    if game.start is not None and parse_state(game.start)["variant"] != variant:
        raise InvalidState("a stored game's start must be a board of its size")
    check_day(game.day)
    return game
