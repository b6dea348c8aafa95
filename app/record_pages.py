"""Pages of the records: the hall of fame, and the replay (with the solver's review) of one game."""

from flask import Blueprint, render_template, request

from . import db as database
from .records import DEFAULT_LIMIT, best_records, find

bp = Blueprint("record_pages", __name__, url_prefix="/records")


@bp.before_request
def ensure_schema():
    database.ensure_schema()


@bp.get("")
def hall_of_fame():
    unassisted = request.args.get("unassisted") == "1"
    return render_template("hall_of_fame.html", records=best_records(DEFAULT_LIMIT, unassisted), unassisted=unassisted)


@bp.get("/<record_id>")
def replay(record_id):
    return render_template("replay.html", record=find(record_id))
