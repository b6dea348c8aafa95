"""Pages of the records: the hall of fame, and the replay (with the solver's review) of one game."""

from flask import Blueprint, render_template, request

from .. import database, records

bp = database.uses_records(Blueprint("record_pages", __name__, url_prefix="/records"))


@bp.get("")
def hall_of_fame():
    unassisted = request.args.get("unassisted") == "1"
    best = records.best_records(records.HALL_OF_FAME_SIZE, unassisted)
    return render_template("hall_of_fame.html", records=best, unassisted=unassisted)


@bp.get("/<record_id>")
def replay(record_id):
    return render_template("replay.html", record=records.find(record_id))
