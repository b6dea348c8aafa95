"""The records' database: SQLAlchemy models, migrations applied at start, outages answered 503.

SQLite in the instance folder by default, so a single container needs nothing else;
PostgreSQL (``FLASK_SQLALCHEMY_DATABASE_URI``) when replicas share the records. The schema
is Alembic's (Flask-Migrate, app/migrations), brought up to date when the app starts, or,
if the database was down then, on the first request that needs it. Alembic is loaded only
to migrate (or for ``flask db``): a worker whose database is up to date is 12 MB smaller.
"""

import logging
import threading
from contextlib import suppress
from datetime import UTC, datetime
from pathlib import Path

import click
from flask import current_app, g
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    and_,
    event,
    inspect,
    text,
)
from sqlalchemy.exc import InterfaceError, OperationalError, ProgrammingError
from sqlalchemy.ext.hybrid import hybrid_property
from sqlalchemy.orm import Mapped, mapped_column

from . import datafiles, metrics
from .engine import CLASSIC, Variant, variant_of
from .errors import respond

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).parent / "migrations"
SCHEMA_REVISION = "0010"  # the newest migration in app/migrations/versions (a test keeps them equal)
# What a database that is down, unreachable or not yet migrated raises.
UNAVAILABLE = (OperationalError, InterfaceError, ProgrammingError)

db = SQLAlchemy()
_schema_lock = threading.Lock()


def utc_now():
    return datetime.now(UTC)


class Record(db.Model):
    """A saved game: what the API shows of it, the seed, start and directions that replay it, and
    the tiles it placed, which rebuild its positions while its seed must stay secret."""

    __tablename__ = "records"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    score: Mapped[int] = mapped_column(BigInteger)
    max_tile: Mapped[int] = mapped_column(Integer)
    moves: Mapped[int] = mapped_column(BigInteger)
    verified: Mapped[bool] = mapped_column(Boolean)
    hints: Mapped[int] = mapped_column(BigInteger)
    autoplay: Mapped[bool] = mapped_column(Boolean)
    over: Mapped[bool] = mapped_column(Boolean)  # no move is left
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    seed: Mapped[int] = mapped_column(BigInteger)
    start: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    directions: Mapped[bytes] = mapped_column(LargeBinary)  # packed two bits a move (engine/history.py)
    direction_count: Mapped[int] = mapped_column(Integer)
    tiles: Mapped[bytes] = mapped_column(LargeBinary)  # one code a tile (engine/history.py)
    restores: Mapped[int] = mapped_column(BigInteger, default=0)
    undos: Mapped[int] = mapped_column(BigInteger, default=0)
    game_id: Mapped[str | None] = mapped_column(String(16), nullable=True)  # None: saved before games had ids
    day: Mapped[str | None] = mapped_column(String(10), nullable=True)  # a day's game (app/daily.py): its UTC date
    ranked: Mapped[bool] = mapped_column(Boolean, default=False)  # on its day's leaderboard (app/daily.py)
    # Taken down by the host (flask records hide, app/moderation.py): out of every list, its page and API 410.
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    size: Mapped[int] = mapped_column(Integer, default=CLASSIC.size)  # the board's side (engine/variant.py)
    # Shared by its link only (POST /api/records with "listed": false): in no list, hall of fame or day's.
    listed: Mapped[bool] = mapped_column(Boolean, default=True)

    __table_args__ = (
        Index("records_hall_of_fame", "size", "verified", "score"),
        Index("records_by_game", "game_id", unique=True),
        Index("records_by_day", "day", "ranked", "score"),
    )

    @property
    def assisted(self) -> bool:
        return self.hints > 0 or self.autoplay

    @property
    def variant(self) -> Variant:
        return variant_of(self.size)

    @hybrid_property
    def without_help(self) -> bool:
        """As far as this server knows: no hint or auto-play, no move taken back, never put back from the browser."""
        return self.hints == 0 and not self.autoplay and self.undos == 0 and self.restores == 0

    @without_help.inplace.expression
    @classmethod
    def _without_help_in_sql(cls):
        return and_(cls.hints == 0, cls.autoplay.is_(False), cls.undos == 0, cls.restores == 0)


class HelpElsewhere(db.Model):
    """Help given to a game from another session (app/games/session.py): a hint on one of its forks, or on the
    board it stands on, is a hint on the game's position, so it counts on the game, and on its record
    (app/records.py)."""

    __tablename__ = "help_elsewhere"

    game_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    hints: Mapped[int] = mapped_column(BigInteger, default=0)
    autoplay: Mapped[bool] = mapped_column(Boolean, default=False)


class DailyAttempt(db.Model):
    """A ranked attempt at a day's game, numbered per address (a keyed hash of it, never the address):
    the number is unique, so two attempts racing for the last ranked place cannot both win it."""

    __tablename__ = "daily_attempts"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    address: Mapped[str] = mapped_column(String(32), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(String(16))


class AskedBoard(db.Model):
    """A board the solver was asked about (a hint, auto-play's, a review's) from an address on a day,
    turned into its least form (app/assistance.py): the day's ranked attempts share their line's
    boards, so an attempt that passes one its own address asked about is counted as helped when saved."""

    __tablename__ = "asked_boards"
    __table_args__ = (Index("asked_boards_by_address", "day", "address", "board"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    day: Mapped[str] = mapped_column(String(10))
    address: Mapped[str] = mapped_column(String(32))
    board: Mapped[str] = mapped_column(String(20))  # hex, as the session store keeps a board


class DailyPar(db.Model):
    """What the solver scored on a day's game once its seed was revealed (``flask daily par``)."""

    __tablename__ = "daily_par"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    score: Mapped[int] = mapped_column(BigInteger)
    max_tile: Mapped[int] = mapped_column(Integer)
    moves: Mapped[int] = mapped_column(BigInteger)
    budget_ms: Mapped[float] = mapped_column(Float)
    # The solver's score after each move, four bytes each (app/par.py); None for a par kept before it.
    scores: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    computed: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class Review(db.Model):
    """The solver's view of one position of a record: kept, so no position is analysed twice."""

    __tablename__ = "reviews"

    record_id: Mapped[str] = mapped_column(ForeignKey("records.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)  # moves played before it
    best: Mapped[str] = mapped_column(String(5))
    loss: Mapped[float] = mapped_column(Float)
    scores: Mapped[dict] = mapped_column(JSON)
    mistake: Mapped[str | None] = mapped_column(String(16), nullable=True)  # the strategy advice it breaks


def init_app(app, migrate_now=True):
    """Bring the schema up to date if the database answers (else on the first request that needs
    it); not ``migrate_now`` when the instance folder, where SQLite keeps it, is not usable yet."""
    db.init_app(app)
    with app.app_context():
        _keep_sqlite_private(db.engine)
    app.cli.add_command(MigrationCommands(app))
    for unavailable in UNAVAILABLE:
        app.register_error_handler(unavailable, database_unavailable)
    if not migrate_now:
        return
    with app.app_context():
        try:
            migrate_schema()
        except UNAVAILABLE as error:
            log.warning("the records database is unavailable at start (%s); its schema is brought up to date later",
                        error.orig or error)  # fmt: skip


def _keep_sqlite_private(engine):
    """A SQLite file is made 0600 before SQLite opens it (app/datafiles.py); a folder that cannot hold
    it is left for SQLite to report (503)."""
    path = engine.url.database if engine.url.get_backend_name() == "sqlite" else None
    if not path or path == ":memory:":
        return

    @event.listens_for(engine, "do_connect")
    def make_private(*_connecting):
        with suppress(OSError):
            datafiles.make_file(path)


def uses_records(blueprint):
    """The blueprint's requests read or write records: before the first, the migrations that could not run at start."""
    blueprint.before_request(ensure_schema)
    return blueprint


def database_unavailable(error):
    """The records are out of reach; the game, kept in the session store, plays on."""
    log.warning("records database unavailable: %s", error)
    metrics.count("database_errors")
    db.session.rollback()
    response = respond(503, "records_unavailable", "the records are unavailable; try again shortly")
    response.headers["Retry-After"] = "10"
    return response


def migrate_schema():
    """Apply Alembic's migrations once per process (env.py serialises replicas on PostgreSQL). A
    database with no schema at all is marked ``records_schema_made``: there were no records before
    this process (an export then knows it is looking in the wrong place)."""
    app = current_app._get_current_object()
    with _schema_lock:
        if app.extensions.get("records_schema_ready"):
            return
        stored = _stored_revision()
        if stored != SCHEMA_REVISION:
            app.extensions["records_schema_made"] = stored is None
            _load_migrate(app).upgrade(directory=str(MIGRATIONS))
        app.extensions["records_schema_ready"] = True


def _stored_revision():
    """The migration the database is at, as Alembic records it (None before the first)."""
    with db.engine.connect() as connection:
        if not inspect(connection).has_table("alembic_version"):
            return None
        return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def _load_migrate(app):
    """Flask-Migrate (and with it Alembic), registered on ``app`` the first time it is needed."""
    import flask_migrate

    if "migrate" not in app.extensions:
        flask_migrate.Migrate(app, db, directory=str(MIGRATIONS))
    return flask_migrate


class MigrationCommands(click.Command):
    """``flask db``: Flask-Migrate's command group, loaded only when it is run."""

    def __init__(self, app):
        super().__init__("db", help="Perform database migrations (Flask-Migrate).")
        self.app = app

    def make_context(self, info_name, args, parent=None, **extra):
        _load_migrate(self.app)
        from flask_migrate.cli import db as commands

        return commands.make_context(info_name, args, parent=parent, **extra)


def check_ready():
    """The database answers and its schema is the one this code needs, brought up to date now if it
    could not be at start (else NotReady, saying which)."""
    try:
        migrate_schema()
        stored = _stored_revision()
    except UNAVAILABLE as error:
        db.session.rollback()
        raise NotReady(f"the records database does not answer: {error.orig or error}") from error
    if stored != SCHEMA_REVISION:
        raise NotReady(f"the records' schema is at revision {stored}, this code needs {SCHEMA_REVISION}")


class NotReady(Exception):
    """Something the app needs to do its work does not answer yet: /readyz says what."""


def ensure_schema():
    """The migrations that could not run at start, tried once a request until they have run."""
    if not current_app.extensions.get("records_schema_ready") and not g.get("records_schema_tried"):
        g.records_schema_tried = True
        migrate_schema()
