"""Backups of the records: ``flask records export FILE`` and ``flask records import FILE``.

One JSON object a line for each record: everything that rebuilds it exactly (its counts, its date,
the seed, start, directions and tiles that replay it, its final board) and the solver's reviews of
it. Both commands stream in short transactions (an export reads one record at a time, an import
commits a batch), so a database of any size goes through in little memory while the game goes on
saving records, and ``-`` is standard
input or output, for a pipe or ``docker exec``. Each names the database it reads or writes; an
export that finds no records database (this process had to make it) fails rather than write an
empty backup: it is the wrong folder or URL.

A backup is a text file anyone could have edited, so an import takes nothing on trust, and checks
every line whole before anything of it is written: UTF-8 JSON of at most MAX_LINE bytes, nested no
deeper than the parser goes, with no NaN or infinity; every field of the type and within the bounds
the database holds. And what the engine can check: each record is replayed from its seed, start and
directions and must come out exactly as its line says (score, moves, largest tile, board, every tile
placed, whether it is over), and a verified record must replay from a new game, as only those can
be; a record of a day's game (app/daily.py) begun new must replay from that day's seed, this
server's, its tiles drawn from its history (practice replays from its start on a seed of its own). A
line that does not check out is refused whole, its number and the reason on standard error; the
others go in, and the command then exits with 1; it never stops on a line. Records already there (by
id) are skipped, so an import can be run again. SQLAlchemy only: SQLite and PostgreSQL alike, the
schema brought up to date first.
"""

import json
from collections import Counter
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import click
from flask import current_app
from flask.cli import AppGroup
from sqlalchemy import and_, or_, select
from sqlalchemy.exc import IntegrityError

from . import daily, datafiles, records
from .database import UNAVAILABLE, Record, Review, db, migrate_schema
from .engine import CLASSIC, InvalidState, max_tile, unpack, variant_of
from .engine.history import Directions, positions, tiles_from_text
from .engine.state import check_bool, check_count, given_seed
from .errors import ApiError
from .games.played import PlayedGame, check_day, check_id
from .review import directions_of, fault, finite_number

BATCH = 500  # records written before a commit
READ_BATCH = 500  # records' keys read at a time by an export, which then reads each record alone
MAX_LINE = 16 * 2**20  # bytes: far more than the longest game's line with every position reviewed
# The record's own columns, written as they are; then what the line adds to them.
COLUMNS = ("id", "name", "score", "max_tile", "moves", "verified", "hints", "autoplay", "restores", "undos", "over",
           "game_id", "day", "ranked", "listed", "size")  # fmt: skip
FIELDS = (*COLUMNS, "created", "seed", "start", "directions", "tiles", "board", "reviews")
# What a line written before records knew their day, hosts could take records down or records could be
# shared unlisted, leaves out, and the value it means.
EARLIER_FIELDS = {"day": None, "ranked": False, "hidden": False, "listed": True, "size": CLASSIC.size}
REVIEW_FIELDS = ("position", "best", "loss", "scores", "mistake")

cli = AppGroup("records", help="Back up and restore the records (JSON lines).")


def init_app(app):
    """``flask records``: the backup commands."""
    app.cli.add_command(cli)


@cli.command("export")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
def export_command(file):
    """Write every record to FILE, oldest first, one JSON line each ("-": standard output)."""
    click.echo(f"exporting the records of {database_name()}", err=True)
    with database_errors():
        if current_app.extensions.get("records_schema_made") and not db.session.query(Record.id).first():
            forget_made_database()
            raise click.ClickException(
                "there is no records database here: this is not where the server keeps its records (set "
                "FLASK_INSTANCE_PATH, or FLASK_SQLALCHEMY_DATABASE_URI, as the server has them); nothing was written"
            )
        migrate_schema()
        count = 0
        with _open_export(file) as out:  # made even with no record
            for line in export_lines():
                out.write(line + "\n")
                count += 1
    click.echo(f"exported {count} records", err=True)


@cli.command("import")
@click.argument("file", type=click.File("rb"))
def import_command(file):
    """Add the records in FILE (an export; "-": standard input) that are not here yet, each checked
    by replaying it; a line that does not check out is refused, with its number, and the exit code is 1."""
    click.echo(f"importing into the records of {database_name()}", err=True)
    with database_errors():
        migrate_schema()
        counts = import_lines(lines_of(file), lambda number, reason: click.echo(f"line {number}: {reason}", err=True))
    click.echo(f"imported {counts['imported']}, skipped {counts['skipped']}, refused {counts['refused']}", err=True)
    if counts["refused"]:
        raise click.exceptions.Exit(1)


def _open_export(file):
    """The export's file (0600: it holds every seed, app/datafiles.py), or standard output for "-"."""
    return click.open_file(file, "w", encoding="utf-8") if file == "-" else datafiles.open_for_writing(file)


def database_name():
    """The records database's URL, its password hidden."""
    return db.engine.url.render_as_string(hide_password=True)


@contextmanager
def database_errors():
    """A database that does not answer ends the command with its reason, not a traceback."""
    try:
        yield
    except UNAVAILABLE as error:
        db.session.rollback()
        raise click.ClickException(f"the records database does not answer: {error.orig or error}") from None


def forget_made_database():
    """The SQLite file this very process made (there was none), which holds no record, goes again:
    left behind, the next export there would find an empty database and write an empty backup."""
    url = db.engine.url
    if url.get_backend_name() == "sqlite" and url.database:
        db.session.remove()
        db.engine.dispose()
        Path(url.database).unlink(missing_ok=True)


def export_lines():
    """Every record as a line of JSON, oldest first. Their keys are read READ_BATCH at a time, then
    each record with its reviews in a short transaction of its own, its line made and the
    transaction over before the line is written: the export holds one record's line (however many
    reviews it has) and never SQLite's lock while it writes, which would keep players' saves
    waiting, nor a PostgreSQL transaction open. A record deleted meanwhile is left out."""
    after = None
    while True:
        query = select(Record.created, Record.id).order_by(Record.created, Record.id).limit(READ_BATCH)
        if after is not None:
            created, record_id = after
            query = query.where(or_(Record.created > created, and_(Record.created == created, Record.id > record_id)))
        keys = db.session.execute(query).all()
        db.session.rollback()
        if not keys:
            return
        for _created, record_id in keys:
            record = db.session.get(Record, record_id)
            if record is not None:
                found = select(Review).where(Review.record_id == record_id).order_by(Review.position)
                line = json.dumps(to_line(record, db.session.scalars(found).all()), separators=(",", ":"))
            db.session.rollback()  # the read is over: its lock goes before the line is written
            db.session.expunge_all()
            if record is not None:
                yield line
        after = keys[-1]


def to_line(record, reviews):
    """A record as its backup line holds it: its seed shown, game over or not (a backup is the host's)."""
    directions = directions_of(record)
    return {
        **{column: getattr(record, column) for column in COLUMNS},
        "created": records.created_text(record),
        **records.full_replay(record),
        "board": unpack(positions(record.start, directions, record.tiles, record.variant)[-1], record.variant),
        "hidden": record.hidden,
        "reviews": [{field: getattr(review, field) for field in REVIEW_FIELDS} for review in reviews],
    }


def lines_of(file):
    """(number, bytes) of each line of the binary ``file``, read MAX_LINE bytes at a time at most: a
    longer line's bytes are None (what is past the limit is read and dropped), so no line can fill the
    memory. Each line is decoded alone (from_line), so one that is not UTF-8 is refused by itself."""
    number = 0
    while chunk := file.readline(MAX_LINE + 1):
        number += 1
        if len(chunk) <= MAX_LINE or chunk.endswith(b"\n"):
            yield number, chunk
            continue
        while (rest := file.readline(MAX_LINE)) and not rest.endswith(b"\n"):
            pass
        yield number, None


def import_lines(lines, refuse):
    """Add the records of ``lines`` ((number, text) pairs) not already here, committing BATCH at a
    time; ``refuse(number, reason)`` hears of each line that is not a record as an export writes it.
    Returns the counts."""
    counts = Counter(imported=0, skipped=0, refused=0)
    batch = []  # (number, record, reviews) added since the last commit
    for number, text in lines:
        if text is not None and not text.strip():  # a blank line, as bytes or text
            continue
        try:
            record, reviews = from_line(text)
            with db.session.no_autoflush:  # nothing is written before its batch's commit
                if _known(record, batch):
                    counts["skipped"] += 1
                    continue
        except Refused as error:
            refuse(number, str(error))
            counts["refused"] += 1
            continue
        db.session.add(record)
        db.session.add_all(reviews)
        batch.append((number, record, reviews))
        if len(batch) == BATCH:
            _commit(batch, refuse, counts)
            batch = []
    _commit(batch, refuse, counts)
    return counts


def _known(record, batch):
    """Whether the record is here already (by id, then True), or its game has another record (Refused)."""
    if db.session.get(Record, record.id) is not None or any(record.id == added.id for _, added, _ in batch):
        return True
    if record.game_id is not None:
        other = db.session.scalars(select(Record.id).where(Record.game_id == record.game_id)).first()
        other = other or next((added.id for _, added, _ in batch if added.game_id == record.game_id), None)
        if other is not None:
            raise Refused(f"its game {record.game_id} already has another record here, {other}")
    return False


def _commit(batch, refuse, counts):
    """The batch's records written; if the database refuses the batch (a record saved meanwhile by
    someone else with the same id or game), each is tried alone and only those it refuses are."""
    try:
        db.session.commit()
        counts["imported"] += len(batch)
        return
    except IntegrityError:
        db.session.rollback()
    for number, record, reviews in batch:
        db.session.add(record)
        db.session.add_all(reviews)
        try:
            db.session.commit()
            counts["imported"] += 1
        except IntegrityError:
            db.session.rollback()
            refuse(number, "another record with its id or its game was saved here meanwhile")
            counts["refused"] += 1


class Refused(Exception):
    """A line that is not a record as an export writes it, or not one its replay gives."""


def _no_constant(name):
    raise Refused(f"holds {name}, which is no number a record or review can hold")


def _finite(text):
    value = float(text)
    if not finite_number(value):
        raise Refused(f"holds {text}, a number too large for a record or review")
    return value


def from_line(text):
    """The record (and its reviews) that a backup line holds (UTF-8 bytes, or text), once its replay
    proves it, else Refused. Whatever the line holds, this raises nothing else: the command lists the
    line and goes on."""
    if text is None:
        raise Refused(f"longer than {MAX_LINE} bytes: no export writes such a line")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            where = f"byte {error.start + 1} is {text[error.start]:#04x}"
            raise Refused(f"not UTF-8 ({where}): no export writes such a line") from None
    try:
        line = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except RecursionError:
        raise Refused("nested too deeply to be a record") from None
    except ValueError as error:
        raise Refused(f"not JSON ({error})") from None
    if not isinstance(line, dict):
        raise Refused("not a JSON object")
    line = EARLIER_FIELDS | line
    missing = [field for field in FIELDS if field not in line]
    if missing:
        raise Refused(f"missing {', '.join(missing)}")
    try:
        return _replayed(line)
    except (InvalidState, ApiError) as error:
        raise Refused(str(error)) from None
    except (TypeError, ValueError, KeyError, AttributeError, OverflowError, RecursionError) as error:
        raise Refused(f"not a record as an export writes it ({type(error).__name__}: {error})") from None


def _replayed(line):
    if not (isinstance(line["id"], str) and records.ID_PATTERN.fullmatch(line["id"])):
        raise Refused("id must be 16 URL-safe characters")
    if records.player_name(line["name"]) != line["name"]:
        raise Refused("name is not as the server keeps names (in NFKC form, trimmed)")
    variant = variant_of(line["size"])
    directions = Directions.from_letters(line["directions"], variant)
    day = check_day(line["day"])
    seed = given_seed(line["seed"])  # a string of digits, or a number as backups once wrote it
    if day is not None and line["start"] is None and seed != daily.seed(day):
        raise Refused(f"its seed is not this server's seed of {day} (a backup of a server with another key?)")
    game, tiles = PlayedGame.replayed_record(seed, line["start"], directions, variant, day)
    replayed = {"score": game.score, "moves": game.moves, "max_tile": max_tile(game.board, variant),
                "board": unpack(game.board, variant), "over": game.over, "start": game.start}  # fmt: skip
    for field, value in replayed.items():
        if line[field] != value or type(line[field]) is not type(value):
            raise Refused(f"{field} is {json.dumps(line[field])}, its replay gives {json.dumps(value)}")
    if tiles_from_text(line["tiles"], variant) != tiles:
        raise Refused("tiles are not those its replay placed")
    if check_bool("verified", line["verified"]) and game.start is not None:
        raise Refused("verified, yet it does not replay from a new game")
    game.hints, game.autoplay = check_count("hints", line["hints"]), check_bool("autoplay", line["autoplay"])
    game.restores, game.undos = check_count("restores", line["restores"]), check_count("undos", line["undos"])
    game.ranked = check_bool("ranked", line["ranked"])
    if game.ranked and (day is None or game.start is not None):
        raise Refused("ranked, yet not a day's game begun new")
    record = Record(id=line["id"], game_id=check_id(line["game_id"]), created=_moment(line["created"]))
    records.fill(record, game, line["name"], tiles, line["verified"])
    record.hidden = check_bool("hidden", line["hidden"])  # taken down by the host, and kept so
    record.listed = check_bool("listed", line["listed"])  # shared by its link only
    return record, _reviews(line["reviews"], record.id, len(directions))


def _moment(value):
    """A date in ISO 8601 with its UTC offset, in UTC."""
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        moment = None
    if moment is None or moment.tzinfo is None:
        raise Refused("created must be a date and time in ISO 8601 with its UTC offset")
    return moment.astimezone(UTC)


def _reviews(reviews, record_id, positions_played):
    """The solver's reviews as a line gives them, each of a position the record played, else Refused.
    The solver's numbers are taken as they are (checking them would mean analysing the game again),
    once they are numbers a review holds (review.fault)."""
    if not isinstance(reviews, list):
        raise Refused("reviews must be a list")
    kept, seen = [], set()
    for review in reviews:
        if not (isinstance(review, dict) and review.keys() == set(REVIEW_FIELDS)):
            raise Refused(f"a review must hold {', '.join(REVIEW_FIELDS)}")
        position = review["position"]
        if type(position) is not int or not 0 <= position < positions_played or position in seen:
            raise Refused(f"a review's position must be one the game played, once: {json.dumps(position)[:40]}")
        wrong = fault(review["best"], review["loss"], review["scores"], review["mistake"])
        if wrong:
            raise Refused(f"the review of position {position} {wrong}")
        seen.add(position)
        kept.append(Review(record_id=record_id, **review))
    return kept
