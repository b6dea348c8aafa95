"""/api/records: save the session's game as a record, read records, list the hall of fame.

A record is verified only when the engine, replaying its server-chosen seed and its
directions from a new game, makes exactly its board and score: a state restored
through PUT /api/game (unless from the server's own sealed copy), or a seed the client
chose, never is. A record shows its seed only once its game is over: until then the seed
would tell the player every tile to come, so the replay rebuilds positions from the tiles
the game placed. Record ids are random (96 bits), so only the links people share lead to a record.
"""

import re
import secrets
import unicodedata
from datetime import UTC

from flask import Blueprint, current_app, request, session, url_for
from sqlalchemy import select

from . import db as database
from . import review
from .api import json_object, load_game, query_number
from .db import Record, db
from .engine import max_tile
from .engine.record import tiles_text
from .errors import ApiError
from .security import client_address, within_work_time

bp = Blueprint("records", __name__, url_prefix="/api/records")

MAX_NAME = 24
MAX_MARKS = 3  # combining marks in a row: enough for any script (a keycap emoji has two), not a Zalgo pile
ZERO_WIDTH_JOINER, EMOJI_STYLE = "\u200d", "\ufe0f"
# Letters and symbols that draw nothing: the Hangul fillers and the blank Braille pattern.
DRAWS_NOTHING = frozenset("\u115f\u1160\u3164\uffa0\u2800")
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{16}")
DEFAULT_LIMIT, MAX_LIMIT = 20, 100


@bp.before_request
def ensure_schema():
    database.ensure_schema()


@bp.post("")
def save_record():
    """Save the session's current game, finished or not, under a player's name."""
    name = player_name(json_object(required={"name"})["name"])
    game = load_game()
    if game is None:
        raise ApiError(404, "no_game", "this session has no game to save; play one first")
    tiles, verified = game.replayed()
    record = Record(
        id=secrets.token_urlsafe(12),
        name=name,
        score=game.score,
        max_tile=max_tile(game.board),
        moves=game.moves,
        verified=verified,
        hints=game.hints,
        autoplay=game.autoplay,
        finished=game.over,
        seed=game.seed,
        start=game.start,
        directions=bytes(game.directions.packed),
        direction_count=len(game.directions),
        tiles=tiles,
        restores=game.restores,
    )
    db.session.add(record)
    db.session.commit()
    return {"id": record.id, "url": url_for("record_pages.replay", record_id=record.id)}, 201


@bp.get("/<record_id>")
def get_record(record_id):
    """The record with what replays it: its directions and the tiles they met, and its seed once
    the game is over (a game that can still move keeps it secret)."""
    record = find(record_id)
    replay = {
        "seed": record.seed if record.finished else None,
        "start": record.start,
        "directions": review.directions_of(record).to_letters(),
        "tiles": tiles_text(record.tiles),
    }
    return {**summary(record), "replay": replay}


@bp.get("/<record_id>/review")
def review_range(record_id):
    """The solver's review of one range of positions from ``from`` (analysed now or kept from before)."""
    record = find(record_id)
    first = query_number("from", 0, max(record.direction_count - 1, 0))
    played = list(review.directions_of(record))
    reviews = review.review_range(record, first, played)
    after = first + len(reviews)
    return {
        "from": first,
        "reviews": [review.to_dict(item, played[item.position]) for item in reviews],
        "next": after if after < record.direction_count else None,
    }


@bp.get("/<record_id>/mistakes")
def mistakes(record_id):
    """The biggest mistakes among the positions reviewed so far, costliest first."""
    record = find(record_id)
    played = list(review.directions_of(record))
    return {
        "analysed": review.analysed(record.id),
        "positions": record.direction_count,
        "mistakes": [review.to_dict(item, played[item.position]) for item in review.biggest_mistakes(record.id, 10)],
    }


@bp.get("")
def hall_of_fame():
    """Verified records, best score first (the earlier of equal scores first); ``unassisted=1``
    keeps only games without help from this server: no hint, no auto-play, never restored."""
    limit = query_number("limit", DEFAULT_LIMIT, MAX_LIMIT, low=1)
    unassisted = request.args.get("unassisted", "0")
    if unassisted not in ("0", "1"):
        raise ApiError(400, "invalid_unassisted", "unassisted must be 0 or 1")
    return {"records": [summary(record) for record in best_records(limit, unassisted == "1")]}


def best_records(limit, unassisted=False):
    """``unassisted``: without help from this server, as far as it knows (Record.without_help)."""
    query = select(Record).where(Record.verified.is_(True))
    if unassisted:
        query = query.where(Record.hints == 0, Record.autoplay.is_(False), Record.restores == 0)
    query = query.order_by(Record.score.desc(), Record.created, Record.id).limit(limit)
    return db.session.scalars(query).all()


def find(record_id):
    """The record with this id, or a 404 (also for ids that cannot be one)."""
    record = db.session.get(Record, record_id) if ID_PATTERN.fullmatch(record_id) else None
    if record is None:
        raise ApiError(404, "no_record", "there is no record with this id")
    return record


def summary(record):
    return {
        "id": record.id,
        "name": record.name,
        "score": record.score,
        "max_tile": record.max_tile,
        "moves": record.moves,
        "verified": record.verified,
        "assisted": record.assisted,
        "restored": record.restores > 0,
        "finished": record.finished,
        "created": record.created.replace(tzinfo=record.created.tzinfo or UTC).isoformat(),  # SQLite drops it
    }


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


def session_key():
    """Saves are limited per session as well as per address: a session is one player."""
    return f"session:{session.sid}" if getattr(session, "sid", None) else client_address()


def init_app(app):
    """Register the blueprint and its limits (after security.init_app made the limiter)."""
    app.register_blueprint(bp)
    limiter = app.extensions["rate_limiter"]
    limiter.limit(lambda: current_app.config["API_RATE_LIMIT"])(bp)
    save = app.view_functions["records.save_record"]
    per_session = limiter.limit(
        lambda: current_app.config["RECORD_SESSION_LIMIT"], key_func=session_key, override_defaults=False
    )
    per_address = limiter.limit(lambda: current_app.config["RECORD_ADDRESS_LIMIT"], override_defaults=False)
    save = per_address(per_session(within_work_time(save)))
    app.view_functions["records.save_record"] = save
    app.view_functions["records.get_record"] = within_work_time(app.view_functions["records.get_record"])
    app.view_functions["records.review_range"] = limiter.limit(
        lambda: current_app.config["REVIEW_RATE_LIMIT"], override_defaults=False
    )(within_work_time(app.view_functions["records.review_range"]))
