"""Records: a game saved under a player's name, found by its random id, ranked in the hall of fame.

A record is verified only when the engine, replaying its server-chosen seed and its
directions from a new game, makes exactly its board and score: a state restored
through PUT /api/game (unless from the server's own sealed copy), or a seed the client
chose, never is. A record shows its seed only once its game is over: until then the seed
would tell the player every tile to come, so the replay rebuilds positions from the tiles
the game placed. Record ids are random (96 bits), so only the links people share lead to a record.
The API's routes (routes/records_api.py) and the pages (routes/record_pages.py) share this module.

Help is counted on the game, and a record shows all of it: what the game's own session gave it,
and what was given on its position elsewhere, to its forks or to another session standing on its
board (app/assistance.py), kept by game id until the game is saved. The hall of fame ranks the games
without help; those with help are listed apart, each with the help it had.

A record of today's game (app/daily.py) knows its day and whether it was ranked. Until the day is
revealed it shows nothing that replays it, not even its moves (the same moves bring the same
tiles, so a replay would show everyone the day's tiles along its line), and no review; the hall
of fame leaves the day's games to the day's leaderboard, since every attempt of a day shares its tiles.
"""

import re
import secrets
import unicodedata
from datetime import UTC

from flask import request
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from . import assistance, daily, database, review
from .database import Record, db
from .engine import CLASSIC, SIZES, max_tile
from .engine.history import tiles_text
from .errors import ApiError
from .requests import query_flag, query_number
from .review import directions_of

MAX_NAME = 24
MAX_MARKS = 3  # combining marks in a row: enough for any script (a keycap emoji has two), not a Zalgo pile
ZERO_WIDTH_JOINER, EMOJI_STYLE = "\u200d", "\ufe0f"
# Letters and symbols that draw nothing: the Hangul fillers and the blank Braille pattern.
DRAWS_NOTHING = frozenset("\u115f\u1160\u3164\uffa0\u2800")
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{16}")
HALL_OF_FAME_SIZE, MAX_HALL_OF_FAME_SIZE = 20, 100


def save(game, name, listed=True):
    """The game saved under ``name`` (as player_name reads it), and whether its record is new: one
    record per game, so saving a game again brings its record up to date (and drops the reviews of
    positions the game no longer has, after an undo). ``listed``: False for a record shared by its
    link only, in no list (the latest save says). Returns (record, created).

    Saves of one game that race each other (on several workers) all land on its one record."""
    tiles, verified = game.replayed()
    helped = assistance.with_help_elsewhere(game)
    record = _record_of(game.id)
    if record is None:
        record = Record(id=secrets.token_urlsafe(12), game_id=game.id)
        fill(record, helped, name, tiles, verified)
        record.listed = listed
        db.session.add(record)
        try:
            db.session.commit()
            return record, True
        except IntegrityError:  # the same game's record, saved meanwhile by another request
            db.session.rollback()
            record = _record_of(game.id)
    review.forget_after(record, _common_length(directions_of(record).to_letters(), game.directions.to_letters()))
    fill(record, helped, name, tiles, verified)
    record.listed = listed
    db.session.commit()
    return record, False


def _record_of(game_id):
    return None if game_id is None else db.session.scalars(select(Record).where(Record.game_id == game_id)).first()


def seed_shown(game_id):
    """Whether a record of the game shows its seed (its game is over): every tile of the game is then known."""
    database.ensure_schema()
    shown = select(Record.id).where(Record.game_id == game_id, Record.over.is_(True)).limit(1)
    return db.session.scalar(shown) is not None


def fill(record, game, name, tiles, verified):
    """``record`` made to hold ``game`` under ``name``: what the API shows of it and what replays it
    (``tiles`` and ``verified`` as Game.replayed gives them). Saving and restoring a backup share it."""
    record.name, record.score, record.moves = name, game.score, game.moves
    record.size, record.max_tile = game.variant.size, max_tile(game.board, game.variant)
    record.verified, record.hints, record.autoplay = verified, game.hints, game.autoplay
    record.restores, record.undos, record.over = game.restores, game.undos, game.over
    record.seed, record.start, record.tiles = game.seed, game.start, tiles
    record.directions, record.direction_count = bytes(game.directions.packed), len(game.directions)
    record.day, record.ranked = game.day, game.ranked


def _common_length(first, second):
    """How many directions (letters) two games share from their start."""
    differ = (index for index, (a, b) in enumerate(zip(first, second, strict=False)) if a != b)
    return next(differ, min(len(first), len(second)))


def find(record_id):
    """The record with this id, or a 404 (also for ids that cannot be one, and for a deleted record);
    a 410 for one the host took down (hidden)."""
    record = db.session.get(Record, record_id) if ID_PATTERN.fullmatch(record_id) else None
    if record is None:
        raise ApiError(404, "no_record", "there is no record with this id")
    if record.hidden:
        raise ApiError(410, "record_hidden", "this record was taken down by the host of this server")
    return record


def best_records(limit, helped=False, size=CLASSIC.size):
    """Verified games of ``size`` that are over, best score first (the earlier of equal scores first):
    a game still being played is not ranked. ``helped``: False for the games without help from this
    server, as far as it knows (Record.without_help), True for those with help, None for both. A record
    the host took down (hidden), nor one shared unlisted, is never ranked."""
    query = select(Record).where(
        Record.verified.is_(True),
        Record.over.is_(True),
        Record.hidden.is_(False),
        Record.listed.is_(True),
        Record.day.is_(None),
        Record.size == size,
    )
    if helped is not None:
        query = query.where(~Record.without_help if helped else Record.without_help)
    query = query.order_by(Record.score.desc(), Record.created, Record.id).limit(limit)
    return db.session.scalars(query).all()


def requested_help():
    """Which games a hall of fame lists, as its query asks (best_records' ``helped``): those without help
    by default (or with ``without_help=1``, formerly ``unassisted=1``), those with help with
    ``helped=1``, and every verified game with ``without_help=0``."""
    helped = query_flag("helped")
    asked = "without_help" in request.args or "unassisted" in request.args
    without_help = query_flag("without_help", former="unassisted") if asked else not helped
    if helped and without_help:
        raise ApiError(400, "invalid_helped", "helped=1 and without_help=1 ask for two different lists")
    return True if helped else (False if without_help else None)


def requested_size():
    """The board size a hall of fame lists, as its query asks (``size``, 3 to 8): the classic 4x4 by default."""
    return query_number("size", CLASSIC.size, SIZES[-1], low=SIZES[0])


def summary(record):
    """A record as the API lists it. ``finished`` and ``assisted`` are the former names of ``over``
    and of the solver's help (hints, auto-play), kept for the clients that read them."""
    return {
        "id": record.id,
        "name": record.name,
        "score": record.score,
        "max_tile": record.max_tile,
        "moves": record.moves,
        "verified": record.verified,
        "helped": not record.without_help,
        "help": help_of(record),
        "assisted": record.assisted,
        "restored": record.restores > 0,
        "used_undo": record.undos > 0,
        "over": record.over,
        "finished": record.over,
        "created": created_text(record),
        "daily": record.day,
        "ranked": record.ranked,
        "size": record.size,
        "listed": record.listed,
    }


def help_of(record):
    """The help a record's game had from this server: hints, auto-play, moves taken back, restores."""
    return {"hints": record.hints, "autoplay": record.autoplay, "undos": record.undos, "restores": record.restores}


def created_text(record):
    """When the record was first saved, in ISO 8601 with its UTC offset (SQLite drops the offset)."""
    return record.created.replace(tzinfo=record.created.tzinfo or UTC).isoformat()


def replay_of(record):
    """What replays the record: its directions and the tiles they met, and its seed once the game is
    over (a game that can still move keeps it secret); for a day's game not yet revealed, nothing."""
    if kept_back(record):
        return {"seed": None, "start": None, "directions": None, "tiles": None}
    return {**full_replay(record), "seed": str(record.seed) if record.over else None}


def full_replay(record):
    """Everything that replays the record, its seed included (a backup's: it is the host's), in decimal
    as a string, as every answer writes seeds: more digits than a JavaScript number holds exactly."""
    return {
        "seed": str(record.seed),
        "start": record.start,
        "directions": directions_of(record).to_letters(),
        "tiles": tiles_text(record.tiles, record.variant),
    }


def kept_back(record):
    """Whether the record is of a day's game whose seed is not revealed yet: its moves stay secret."""
    return record.day is not None and not daily.revealed(record.day)


def replayable(record):
    """The record, or 409 ``daily_secret`` while it is a day's game not yet revealed (its positions
    would show the day's tiles)."""
    if kept_back(record):
        message = f"this is a game of {record.day}: its moves are shown once the day's seed is revealed"
        raise ApiError(409, "daily_secret", message, reveals_in=daily.seconds_until(daily.reveal_time(record.day)))
    return record


def player_name(value):
    """The name in Unicode's compatibility form (NFKC: "admin" in fullwidth letters is plain "admin"),
    trimmed: 1 to MAX_NAME characters that a reader sees (_legible)."""
    name = unicodedata.normalize("NFKC", value).strip() if isinstance(value, str) else ""
    if not 1 <= len(name) <= MAX_NAME or not _legible(name):
        raise ApiError(400, "invalid_name", f"name must be 1 to {MAX_NAME} printable characters, some of them visible")
    return name


def _legible(name):
    """No control, format or line-breaking character, no pile of combining marks, joiners only
    inside emoji sequences (a family, a flag), and at least one character that draws something."""
    visible, marks = False, 0
    for index, char in enumerate(name):
        category = unicodedata.category(char)
        marks = marks + 1 if category.startswith("M") else 0
        if marks > MAX_MARKS:
            return False
        if char == ZERO_WIDTH_JOINER:
            after = name[index + 1 : index + 2]
            if not (_emoji_ends_at(name, index - 1) and after and unicodedata.category(after) == "So"):
                return False
        elif category.startswith("C") or category in ("Zl", "Zp"):
            return False
        visible = visible or not (category.startswith(("M", "Z")) or char in DRAWS_NOTHING)
    return visible


def _emoji_ends_at(name, index):
    """Whether an emoji (with its variation selector or skin tone, if any) ends at ``index``."""
    while index >= 0 and (name[index] == EMOJI_STYLE or unicodedata.category(name[index]) == "Sk"):
        index -= 1
    return index >= 0 and unicodedata.category(name[index]) == "So"
