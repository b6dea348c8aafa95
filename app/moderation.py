"""The host's hand on the records: ``flask records list`` finds them, ``flask records
hide|unhide|rename|delete ID`` acts on one.

Names in the hall of fame are the players' own words, so a host needs to take down an abusive
name or a record a player asks to have removed, without editing the database. Hiding keeps the
record (its replay page and API answer 410, it leaves every list at once: records.py) and can be
undone; a backup keeps it hidden. Renaming checks the new name as a player's is checked.
Deleting removes the record and its reviews for good (its links then answer 404); the game's
player may still save the game again, as a new record. Each change is logged (a warning, so a
host's log keeps it whatever its level) with the record's id and what was done.
"""

import json
import logging

import click
from sqlalchemy import delete, func, select

from .database import Record, Review, db, migrate_schema
from .errors import ApiError
from .games.played import check_day
from .records import ID_PATTERN, created_text, player_name

log = logging.getLogger(__name__)


def init_app(app):
    """The commands join ``flask records`` (app/backups.py's group)."""
    group = app.cli.commands["records"]
    for command in (list_command, hide_command, unhide_command, rename_command, delete_command):
        group.add_command(command)


def _record(record_id):
    """The record with this id, hidden or not; a clear error (exit code 1) for any other id."""
    migrate_schema()
    record = db.session.get(Record, record_id) if ID_PATTERN.fullmatch(record_id) else None
    if record is None:
        raise click.ClickException(f"there is no record {record_id!r} here")
    return record


def _day(_context, _param, value):
    try:
        return check_day(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


@click.command("list")
@click.option("--day", callback=_day, help="Only the records of this day's game (YYYY-MM-DD).")
@click.option("--name", help="Only the names holding this text (any case).")
@click.option("--hidden", is_flag=True, help="The records taken down instead (to unhide one).")
@click.option("--limit", type=click.IntRange(min=1), default=50, show_default=True, help="At most this many.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object a line instead.")
def list_command(day, name, hidden, limit, as_json):
    """The records, newest first: id, name, score, day (of today's game, or -) and date saved, one a
    line, tab-separated; the id is what hide, unhide, rename and delete take."""
    migrate_schema()
    query = select(Record).where(Record.hidden.is_(hidden))
    if day is not None:
        query = query.where(Record.day == day)
    if name:
        query = query.where(func.lower(Record.name).contains(name.lower(), autoescape=True))
    for record in db.session.scalars(query.order_by(Record.created.desc(), Record.id).limit(limit)):
        row = {"id": record.id, "name": record.name, "score": record.score, "day": record.day,
               "date": created_text(record)}  # fmt: skip
        line = "\t".join("-" if value is None else str(value) for value in row.values())
        click.echo(json.dumps(row, ensure_ascii=False) if as_json else line)


def _set_hidden(record_id, hidden):
    record = _record(record_id)
    record.hidden = hidden
    db.session.commit()
    log.warning("record %s (%r, score %d) %s by the host", record.id, record.name, record.score,
                "hidden" if hidden else "shown again")  # fmt: skip


@click.command("hide")
@click.argument("record_id")
def hide_command(record_id):
    """Take record RECORD_ID down: out of the hall of fame, its page and API 410 (unhide undoes it)."""
    _set_hidden(record_id, True)


@click.command("unhide")
@click.argument("record_id")
def unhide_command(record_id):
    """Show a hidden record again."""
    _set_hidden(record_id, False)


@click.command("rename")
@click.argument("record_id")
@click.argument("name")
def rename_command(record_id, name):
    """Give record RECORD_ID another player's name (NAME, checked as players' names are)."""
    record = _record(record_id)
    try:
        new = player_name(name)
    except ApiError as error:
        raise click.ClickException(error.message) from None
    old, record.name = record.name, new
    db.session.commit()
    log.warning("record %s renamed by the host from %r to %r", record.id, old, new)


@click.command("delete")
@click.argument("record_id")
def delete_command(record_id):
    """Delete record RECORD_ID and its reviews for good (its links then answer 404)."""
    record = _record(record_id)
    name, score = record.name, record.score
    db.session.execute(delete(Review).where(Review.record_id == record.id))
    db.session.delete(record)
    db.session.commit()
    log.warning("record %s (%r, score %d) deleted by the host", record_id, name, score)
