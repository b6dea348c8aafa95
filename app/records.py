"""/api/records: save the session's game as a record, read records, list the hall of fame.

A record is verified only when the engine, replaying its server-chosen seed and its
directions from a new game, makes exactly its board and score: a state restored
through PUT /api/game, or a seed the client chose, never is. Record ids are random
(96 bits), so only the links people share lead to a record.
"""

import re
import secrets
import unicodedata
from datetime import UTC

from flask import Blueprint, current_app, request, session, url_for
from flask_limiter.util import get_remote_address
from sqlalchemy import select

from . import db as database
from . import review
from .api import json_object, load_game
from .db import Record, db
from .engine import max_tile
from .engine.board import exponents
from .errors import ApiError

bp = Blueprint("records", __name__, url_prefix="/api/records")

MAX_NAME = 24
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{16}")
DEFAULT_LIMIT, MAX_LIMIT = 20, 100
BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


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
    record = Record(
        id=secrets.token_urlsafe(12),
        name=name,
        score=game.score,
        max_tile=max_tile(game.board),
        moves=game.moves,
        verified=game.verified,
        hints=game.hints,
        autoplay=game.autoplay,
        finished=game.over,
        seed=game.seed,
        start=game.start,
        directions=bytes(game.directions.packed),
        direction_count=len(game.directions),
    )
    db.session.add(record)
    db.session.commit()
    return {"id": record.id, "url": url_for("record_pages.replay", record_id=record.id)}, 201


@bp.get("/<record_id>")
def get_record(record_id):
    record = find(record_id)
    letters = review.directions_of(record).to_letters()
    return {**summary(record), "replay": {"seed": record.seed, "start": record.start, "directions": letters}}


@bp.get("/<record_id>/positions")
def positions(record_id):
    """Every position of the game, for the replay page: ``boards[i]`` is the board after i moves,
    16 characters in row order, each the base-36 exponent of its tile (0: empty)."""
    record = find(record_id)
    replayed = review.positions(record, list(review.directions_of(record)))
    boards = ["".join(BASE36[exponent] for exponent in exponents(board)) for board, _score in replayed]
    return {"boards": boards, "scores": [score for _board, score in replayed]}


@bp.get("/<record_id>/review")
def review_range(record_id):
    """The solver's review of one range of positions from ``from`` (analysed now or kept from before)."""
    record = find(record_id)
    first = request.args.get("from", "0")
    if not first.isdigit() or int(first) >= max(record.direction_count, 1):
        raise ApiError(400, "invalid_from", f"from must be a position from 0 to {max(record.direction_count - 1, 0)}")
    played = list(review.directions_of(record))
    reviews = review.review_range(record, int(first), played)
    after = int(first) + len(reviews)
    return {
        "from": int(first),
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
    keeps only games played without hints or auto-play."""
    limit = request.args.get("limit", str(DEFAULT_LIMIT))
    if not limit.isdigit() or not 1 <= int(limit) <= MAX_LIMIT:
        raise ApiError(400, "invalid_limit", f"limit must be a whole number from 1 to {MAX_LIMIT}")
    unassisted = request.args.get("unassisted", "0")
    if unassisted not in ("0", "1"):
        raise ApiError(400, "invalid_unassisted", "unassisted must be 0 or 1")
    return {"records": [summary(record) for record in best_records(int(limit), unassisted == "1")]}


def best_records(limit, unassisted=False):
    query = select(Record).where(Record.verified.is_(True))
    if unassisted:
        query = query.where(Record.hints == 0, Record.autoplay.is_(False))
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
        "finished": record.finished,
        "created": record.created.replace(tzinfo=record.created.tzinfo or UTC).isoformat(),  # SQLite drops it
    }


def player_name(value):
    """1 to MAX_NAME characters after trimming, none of them a control or format character."""
    name = value.strip() if isinstance(value, str) else ""
    if not 1 <= len(name) <= MAX_NAME or any(unicodedata.category(char).startswith("C") for char in name):
        raise ApiError(400, "invalid_name", f"name must be 1 to {MAX_NAME} printable characters")
    return name


def session_key():
    """Saves are limited per session as well as per address: a session is one player."""
    return f"session:{session.sid}" if getattr(session, "sid", None) else get_remote_address()


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
    save = per_address(per_session(save))
    app.view_functions["records.save_record"] = save
    app.view_functions["records.review_range"] = limiter.limit(
        lambda: current_app.config["REVIEW_RATE_LIMIT"], override_defaults=False
    )(app.view_functions["records.review_range"])
