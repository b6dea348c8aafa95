"""Pages of the records: the hall of fame, and the replay (with the solver's review) of one game."""

from flask import Blueprint, render_template, request

from .. import database, records

bp = database.uses_records(Blueprint("record_pages", __name__, url_prefix="/records"))


@bp.get("")
def hall_of_fame():
    """The best verified games; ``?without_help=1`` (formerly ``unassisted=1``, still read) those
    without help from this server."""
    without_help = "1" in (request.args.get("without_help"), request.args.get("unassisted"))
    best = records.best_records(records.HALL_OF_FAME_SIZE, without_help)
    return render_template("hall_of_fame.html", records=best, without_help=without_help)


@bp.get("/<record_id>")
def replay(record_id):
    return render_template("replay.html", record=records.find(record_id))
