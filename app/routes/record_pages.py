"""Pages of the records: the hall of fame, and the replay (with the solver's review) of one game."""

from flask import Blueprint, render_template

from .. import database, records
from ..requests import query_size

bp = database.uses_records(Blueprint("record_pages", __name__, url_prefix="/records"))


@bp.get("")
def hall_of_fame():
    """The best verified games without help from this server; ``?helped=1`` those with help, each with
    the help it had, and ``?without_help=0`` every one (records.requested_help); of the classic board,
    or of ``?size=N``'s."""
    helped = records.requested_help()
    size = query_size()
    best = records.best_records(records.HALL_OF_FAME_SIZE, helped, size)
    return render_template("hall_of_fame.html", records=best, helped=helped, size=size)


@bp.get("/<record_id>")
def replay(record_id):
    return render_template("replay.html", record=records.find(record_id))
