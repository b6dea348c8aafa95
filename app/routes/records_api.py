"""/api/records: save the session's game as a record, read records and their reviews, list the
hall of fame. The records themselves are app/records.py's; reviews app/review.py's."""

from flask import Blueprint, url_for

from .. import database, games, limits, metrics, records, review
from ..errors import ApiError
from ..requests import json_object, query_number

bp = database.uses_records(limits.api_routes(Blueprint("records", __name__, url_prefix="/api/records")))


@bp.post("")
@limits.per_address("RECORD_ADDRESS_LIMIT")
@limits.per_session("RECORD_SESSION_LIMIT")
@limits.work_time
def save_record():
    """Save the session's game, finished or not, under a player's name: 201 with a new record, 200
    with the same record brought up to date when the game was saved before (games.save_record);
    ``"listed": false`` shares it by its link only."""
    body = json_object(required={"name"}, optional={"listed"})
    name, listed = records.player_name(body["name"]), body.get("listed", True)
    if not isinstance(listed, bool):
        raise ApiError(400, "invalid_listed", "listed must be true or false")
    record, created = games.save_record(name, listed)
    metrics.count("records")
    return {"id": record.id, "url": url_for("record_pages.replay", record_id=record.id)}, 201 if created else 200


@bp.get("/<record_id>")
@limits.work_time
def get_record(record_id):
    record = records.find(record_id)
    return {**records.summary(record), "replay": records.replay_of(record)}


@bp.get("/<record_id>/review")
@limits.per_address("REVIEW_RATE_LIMIT")
@limits.work_time
def review_range(record_id):
    """The solver's review of one range of positions from ``from`` (analysed now or kept from before)."""
    record = records.replayable(records.find(record_id))
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
    """The biggest mistakes among the positions reviewed so far, costliest first, and where the review
    goes on (``next``: the last moves first, review.next_position)."""
    record = records.replayable(records.find(record_id))
    played = list(review.directions_of(record))
    return {
        "analysed": review.analysed(record.id),
        "positions": record.direction_count,
        "next": review.next_position(record),
        "mistakes": [review.to_dict(item, played[item.position]) for item in review.biggest_mistakes(record.id, 10)],
    }


@bp.get("")
def hall_of_fame():
    """Verified records that are over, best score first: those without help from this server (no hint,
    no auto-play, no undo, never restored) unless ``helped=1`` (those with help) or ``without_help=0``
    (every one) asks otherwise (records.requested_help); of one board size, the classic 4x4 unless
    ``size`` asks for another (records.requested_size)."""
    limit = query_number("limit", records.HALL_OF_FAME_SIZE, records.MAX_HALL_OF_FAME_SIZE, low=1)
    best = records.best_records(limit, records.requested_help(), records.requested_size())
    return {"records": [records.summary(record) for record in best]}
