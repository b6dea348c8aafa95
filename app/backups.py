"""Backups of the records: ``flask records export FILE`` and ``flask records import FILE``.

One JSON object a line for each record: everything that rebuilds it exactly (its counts, its date,
the seed, start, directions and tiles that replay it, its final board) and the solver's reviews of
it. Both commands stream, a batch of records at a time in short transactions, so a database of any
size goes through in little memory while the game goes on saving records, and ``-`` is standard
input or output, for a pipe or ``docker exec``.

A backup is a text file anyone could have edited, so an import takes nothing on trust that the
engine can check: each record is replayed from its seed, start and directions and must come out
exactly as its line says (score, moves, largest tile, board, every tile placed, whether it is
over), and a verified record must replay from a new game, as only those can be; a record of a
day's game (app/daily.py) must replay from that day's seed, this server's, its tiles drawn from its
history. A line that does not check out is refused whole, its number and the reason on standard
error; the others go in, and the command then exits with 1. Records already there (by id) are
skipped, so an import can be run again. SQLAlchemy only: SQLite and PostgreSQL alike, the schema
brought up to date first.
"""

import json
from collections import Counter
from datetime import UTC, datetime

import click
from flask.cli import AppGroup
from sqlalchemy import and_, or_, select

from . import daily, records
from .database import Record, Review, db, migrate_schema
from .engine import DIRECTIONS, Game, InvalidState, max_tile, unpack
from .engine.history import Directions, positions, tiles_from_text
from .engine.state import check_bool, check_count, check_day, check_id, check_seed
from .errors import ApiError
from .review import CORNER, FULL, MERGES, TRAPPED, directions_of

BATCH = 500  # records read, or written before a commit, at a time
# The record's own columns, written as they are; then what the line adds to them.
COLUMNS = ("id", "name", "score", "max_tile", "moves", "verified", "hints", "autoplay", "restores", "undos", "over",
           "game_id", "day", "ranked")  # fmt: skip
FIELDS = (*COLUMNS, "created", "seed", "start", "directions", "tiles", "board", "reviews")
# What a line written before records knew their day leaves out, and the value it means.
EARLIER_FIELDS = {"day": None, "ranked": False}
REVIEW_FIELDS = ("position", "best", "loss", "scores", "mistake")
MISTAKES = (CORNER, TRAPPED, MERGES, FULL)

cli = AppGroup("records", help="Back up and restore the records (JSON lines).")


def init_app(app):
    """``flask records``: the backup commands."""
    app.cli.add_command(cli)


@cli.command("export")
@click.argument("file", type=click.File("w", encoding="utf-8", lazy=False))  # made even with no record
def export_command(file):
    """Write every record to FILE, oldest first, one JSON line each ("-": standard output)."""
    migrate_schema()
    count = 0
    for line in export_lines():
        file.write(line + "\n")
        count += 1
    click.echo(f"exported {count} records", err=True)


@cli.command("import")
@click.argument("file", type=click.File("r", encoding="utf-8"))
def import_command(file):
    """Add the records in FILE (an export; "-": standard input) that are not here yet, each checked
    by replaying it; a line that does not check out is refused, with its number, and the exit code is 1."""
    migrate_schema()
    counts = import_lines(file, lambda number, reason: click.echo(f"line {number}: {reason}", err=True))
    click.echo(f"imported {counts['imported']}, skipped {counts['skipped']}, refused {counts['refused']}", err=True)
    if counts["refused"]:
        raise click.exceptions.Exit(1)


def export_lines():
    """Every record as a line of JSON, oldest first, read BATCH at a time, each batch in a short
    transaction of its own (the next one starts after the last record read): a long export never
    holds SQLite's lock, which would keep players' saves waiting, nor a PostgreSQL transaction open."""
    after = None
    while True:
        query = select(Record).order_by(Record.created, Record.id).limit(BATCH)
        if after is not None:
            created, record_id = after
            query = query.where(or_(Record.created > created, and_(Record.created == created, Record.id > record_id)))
        batch = db.session.scalars(query).all()
        if not batch:
            return
        reviews = {}
        found = select(Review).where(Review.record_id.in_([record.id for record in batch])).order_by(Review.position)
        for review in db.session.scalars(found):
            reviews.setdefault(review.record_id, []).append(review)
        lines = [json.dumps(to_line(record, reviews.get(record.id, [])), separators=(",", ":")) for record in batch]
        after = batch[-1].created, batch[-1].id
        db.session.rollback()  # the read is over: its lock goes until the next batch
        yield from lines


def to_line(record, reviews):
    """A record as its backup line holds it: its seed shown, game over or not (a backup is the host's)."""
    directions = directions_of(record)
    return {
        **{column: getattr(record, column) for column in COLUMNS},
        "created": records.created_text(record),
        **records.full_replay(record),
        "board": unpack(positions(record.start, directions, record.tiles)[-1]),
        "reviews": [{field: getattr(review, field) for field in REVIEW_FIELDS} for review in reviews],
    }


def import_lines(lines, refuse):
    """Add the records of ``lines`` not already here, committing BATCH at a time; ``refuse(number,
    reason)`` hears of each line that is not a record as an export writes it. Returns the counts."""
    counts = Counter(imported=0, skipped=0, refused=0)
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            record, reviews = from_line(text)
            if db.session.get(Record, record.id) is not None:
                counts["skipped"] += 1
                continue
            if record.game_id is not None:
                other = db.session.scalars(select(Record.id).where(Record.game_id == record.game_id)).first()
                if other is not None:
                    raise Refused(f"its game {record.game_id} already has another record here, {other}")
        except Refused as error:
            refuse(number, str(error))
            counts["refused"] += 1
            continue
        db.session.add(record)
        db.session.add_all(reviews)
        counts["imported"] += 1
        if counts["imported"] % BATCH == 0:
            db.session.commit()
    db.session.commit()
    return counts


class Refused(Exception):
    """A line that is not a record as an export writes it, or not one its replay gives."""


def from_line(text):
    """The record (and its reviews) that a backup line holds, once its replay proves it, else Refused."""
    try:
        line = json.loads(text)
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


def _replayed(line):
    if not (isinstance(line["id"], str) and records.ID_PATTERN.fullmatch(line["id"])):
        raise Refused("id must be 16 URL-safe characters")
    if records.player_name(line["name"]) != line["name"]:
        raise Refused("name is not as the server keeps names (in NFKC form, trimmed)")
    directions = Directions.from_letters(line["directions"])
    day = check_day(line["day"])
    if day is not None and check_seed(line["seed"]) != daily.seed(day):
        raise Refused(f"its seed is not this server's seed of {day} (a backup of a server with another key?)")
    game, tiles = Game.replay_tiles(check_seed(line["seed"]), line["start"], directions, day)
    replayed = {"score": game.score, "moves": game.moves, "max_tile": max_tile(game.board),
                "board": unpack(game.board), "over": game.over, "start": game.start}  # fmt: skip
    for field, value in replayed.items():
        if line[field] != value or type(line[field]) is not type(value):
            raise Refused(f"{field} is {json.dumps(line[field])}, its replay gives {json.dumps(value)}")
    if tiles_from_text(line["tiles"]) != tiles:
        raise Refused("tiles are not those its replay placed")
    if check_bool("verified", line["verified"]) and game.start is not None:
        raise Refused("verified, yet it does not replay from a new game")
    game.hints, game.autoplay = check_count("hints", line["hints"]), check_bool("autoplay", line["autoplay"])
    game.restores, game.undos = check_count("restores", line["restores"]), check_count("undos", line["undos"])
    game.ranked = check_bool("ranked", line["ranked"])
    if game.ranked and day is None:
        raise Refused("ranked, yet not a day's game")
    record = Record(id=line["id"], game_id=check_id(line["game_id"]), created=_moment(line["created"]))
    records.fill(record, game, line["name"], tiles, line["verified"])
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
    The solver's numbers are taken as they are: checking them would mean analysing the game again."""
    if not isinstance(reviews, list):
        raise Refused("reviews must be a list")
    kept, seen = [], set()
    for review in reviews:
        if not (isinstance(review, dict) and review.keys() == set(REVIEW_FIELDS)):
            raise Refused(f"a review must hold {', '.join(REVIEW_FIELDS)}")
        position, scores, loss = review["position"], review["scores"], review["loss"]
        if type(position) is not int or not 0 <= position < positions_played or position in seen:
            raise Refused(f"a review's position must be one the game played, once: {json.dumps(position)}")
        numbers = isinstance(scores, dict) and all(type(v) in (int, float) for v in scores.values())
        if not (numbers and set(scores) <= set(DIRECTIONS) and review["best"] in scores):
            raise Refused(f"the review of position {position} has no scores by direction including its best")
        if type(loss) not in (int, float) or loss < 0 or review["mistake"] not in (None, *MISTAKES):
            raise Refused(f"the review of position {position} has no loss of 0 or more, or an unknown mistake")
        seen.add(position)
        kept.append(Review(record_id=record_id, **review))
    return kept
