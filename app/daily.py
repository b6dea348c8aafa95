"""Today's game: one board a day for everyone, committed to before it is played, revealed after.

A day is a UTC date. Its seed derives from the server's key and the date (app/seals.py), and from
the day's start ``GET /api/daily`` shows its commitment, the SHA-256 of the seed written in
decimal: the seed stays secret while the day's games can move, and is shown DAILY_REVEAL_DELAY
after the day ends, so that anyone can check every game of the day against the commitment. The
day's games draw each tile from their history (app/engine/game.py): the same directions bring
everyone the same tiles, and a line nobody else played brings tiles no other attempt foretells.

A fair attempt (app/games/session.py keeps the rules in play): no hint, auto-play or undo; a browser's first
attempt of the day is ranked (a cookie of the browser's own, which each of its sessions sees, remembers
the day), other attempts are practice, on tiles of their own; and at most DAILY_ADDRESS_LIMIT ranked
attempts per client address a day, counted here in the records'
database (every worker and replica shares it) under a keyed hash of the address. The day's
leaderboard lists the ranked games of the day that are over, equal scores sharing a rank, and how
many reached each largest tile (the spread); ``flask daily par`` (app/par.py) adds what the solver
scores on the day once it is revealed, and its score after each move, set beside a game of as many.

Once revealed, a day is in the archive and can be played again by anyone: its seed is public, so
such a game (start_archive in app/games/session.py) is never ranked nor verified, and it moves on after the
reveal that closes the day's own games.
"""

import hashlib
from datetime import UTC, date, datetime, time, timedelta

from flask import after_this_request, current_app, request
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError

from . import database, limits, seals
from .database import AskedBoard, DailyAttempt, DailyPar, Record, db
from .errors import ApiError
from .games.played import check_day
from .store.cookies import secure_cookies

# The browser's cookie naming the day of its first attempt: the game page's session and the daily
# page's (app/store/cookies.py) both see it, so a browser has one ranked attempt whichever made it.
ATTEMPT_COOKIE = "daily-attempt"
ATTEMPT_COOKIE_AGE = 2 * 24 * 3600  # outlives the day wherever the browser's clock stands
LEADERBOARD_SIZE, MAX_LEADERBOARD_SIZE = 20, 100
ARCHIVE_SIZE, MAX_ARCHIVE_SIZE = 30, 366  # revealed days listed, newest first
SCORE_BYTES = 4  # a par's score after each move, little-endian: a game's score is below 2**32
KEPT_DAYS = 2  # the attempts' counts are kept this many days: enough for the day and the one before


def now() -> datetime:
    return datetime.now(UTC)


def today() -> str:
    return now().date().isoformat()


def day_after(day: str, days: int = 1) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def _midnight_after(day: str) -> datetime:
    return datetime.combine(date.fromisoformat(day) + timedelta(days=1), time(), UTC)


def reveal_time(day: str) -> datetime:
    """When the day's seed is shown: DAILY_REVEAL_DELAY seconds after the day ends."""
    return _midnight_after(day) + timedelta(seconds=float(current_app.config["DAILY_REVEAL_DELAY"]))


def revealed(day: str) -> bool:
    """Whether the day's seed is shown: its games can move no more, and anyone can replay them."""
    return now() >= reveal_time(day)


def seconds_until(moment: datetime) -> int:
    return max(0, int(-(-(moment - now()).total_seconds() // 1)))


def seed(day: str) -> int:
    return seals.day_seed(day)


def commitment(day: str) -> str:
    """The SHA-256, in hex, of the day's seed written in decimal ASCII."""
    return hashlib.sha256(str(seed(day)).encode("ascii")).hexdigest()


def requested_day(text) -> str:
    """A day named in a request: YYYY-MM-DD, no later than today (400 otherwise)."""
    try:
        day = check_day(text)
    except ValueError as error:
        raise ApiError(400, "invalid_date", str(error)) from None
    if day is None or day > today():
        raise ApiError(400, "invalid_date", "date must be a day up to today, as YYYY-MM-DD")
    return day


def about(day: str) -> dict:
    """A day as the API shows it: its date and commitment, and its seed once revealed (else null),
    in decimal as a string: the very text the commitment hashes, and more digits than a JavaScript
    number holds exactly."""
    return {"date": day, "seed": str(seed(day)) if revealed(day) else None, "commitment": commitment(day)}


def info(game=None) -> dict:
    """``GET /api/daily``: today, the time left in it, yesterday (its seed once revealed), and this
    session's day's game if it holds one (``game``) and whether a new attempt now would be ranked."""
    day = today()
    yesterday = day_after(day, -1)
    return {
        "date": day,
        "commitment": commitment(day),
        "ends_in": seconds_until(_midnight_after(day)),
        "previous": {**about(yesterday), "reveals_in": seconds_until(reveal_time(yesterday))},
        "game": None if game is None or game.day is None else answer(game),
        "next_ranked": _browser_may_rank(day) and _ranked_left(day, _address()) > 0,
    }


def from_archive(game) -> bool:
    """Whether ``game`` is a revealed day's played again (games.start_archive): on the day's seed, public
    now, so held as a seed the player chose."""
    return game.day is not None and game.seed_chosen


def answer(game) -> dict:
    """A day's game as /api/daily answers it: its state, whether it had help, and whether it is from the archive."""
    return {**game.to_state(), "helped": game.helped, "archive": from_archive(game)}


def _browser_may_rank(day: str) -> bool:
    return request.cookies.get(ATTEMPT_COOKIE) != day


def _remember_attempt(day: str) -> None:
    """The browser's cookie says it made an attempt on ``day``."""

    @after_this_request
    def remember(response):
        response.set_cookie(ATTEMPT_COOKIE, day, max_age=ATTEMPT_COOKIE_AGE, path="/", httponly=True,
                            secure=secure_cookies(current_app), samesite="Lax")  # fmt: skip
        return response


def _address() -> str:
    return seals.keyed_name(limits.client_address())


def _ranked_left(day: str, address: str) -> int:
    database.ensure_schema()
    counted = select(func.count()).where(DailyAttempt.day == day, DailyAttempt.address == address)
    return int(current_app.config["DAILY_ADDRESS_LIMIT"]) - db.session.scalar(counted)


def claim_ranked(day: str, game_id: str) -> bool:
    """Whether a new attempt at ``day``'s game, ``game_id``, is ranked: the browser's first of the
    day, within its address's DAILY_ADDRESS_LIMIT. The browser remembers the day either way."""
    first = _browser_may_rank(day)
    _remember_attempt(day)
    if not first:
        return False
    address = _address()
    db.session.execute(delete(DailyAttempt).where(DailyAttempt.day < day_after(day, -KEPT_DAYS)))
    for _attempt in range(3):
        left = _ranked_left(day, address)
        if left <= 0:
            db.session.commit()
            return False
        number = int(current_app.config["DAILY_ADDRESS_LIMIT"]) - left + 1
        db.session.add(DailyAttempt(day=day, address=address, number=number, game_id=game_id))
        try:
            db.session.commit()
            return True
        except IntegrityError:  # another attempt from the address took that place meanwhile
            db.session.rollback()
    return False


def ranked_attempts(game_ids) -> set[str]:
    """Which of ``game_ids`` are ranked attempts (of today or the day before)."""
    if not game_ids:
        return set()
    database.ensure_schema()
    return set(db.session.scalars(select(DailyAttempt.game_id).where(DailyAttempt.game_id.in_(game_ids))))


def keep_asked(boards) -> None:
    """The boards (least forms, app/assistance.py) the solver was just asked about from this request's
    address, kept KEPT_DAYS for the day's ranked attempts of the address (asked_by_attempt)."""
    day, address = today(), _address()
    database.ensure_schema()
    db.session.execute(delete(AskedBoard).where(AskedBoard.day < day_after(day, -KEPT_DAYS)))
    db.session.add_all(AskedBoard(day=day, address=address, board=board) for board in boards)
    db.session.commit()


def asked_by_attempt(game_id: str, boards) -> int:
    """How many of ``boards`` the address of the ranked attempt ``game_id`` asked the solver about on
    its day, or on the next, while it could still be played."""
    database.ensure_schema()
    attempt = db.session.scalars(select(DailyAttempt).where(DailyAttempt.game_id == game_id)).first()
    if attempt is None or not boards:
        return 0
    asked = select(AskedBoard.board).where(AskedBoard.day.in_((attempt.day, day_after(attempt.day))),
                                           AskedBoard.address == attempt.address)  # fmt: skip
    return len(set(db.session.scalars(asked)) & set(boards))


def listed(query):
    """Records a day's leaderboard may list: ranked, verified, over, without help (its address asked the
    solver about its boards, app/assistance.py), not taken down by the host and not shared unlisted."""
    return query.where(Record.ranked.is_(True), Record.verified.is_(True), Record.over.is_(True),
                       Record.without_help, Record.hidden.is_(False), Record.listed.is_(True))


def leaderboard(day: str, limit: int) -> list[tuple[int, Record]]:
    """The day's ranked games that are over, best score first, each with its rank: equal scores share
    one (the rank after the better ones), and are listed by name, then id, never by when they ended."""
    query = listed(select(Record).where(Record.day == day))
    best = db.session.scalars(query.order_by(Record.score.desc(), Record.name, Record.id).limit(limit)).all()
    ranks = {}
    for place, record in enumerate(best, start=1):
        ranks.setdefault(record.score, place)
    return [(ranks[record.score], record) for record in best]


def spread(day: str) -> dict[str, int]:
    """How many of the day's ranked games that are over reached each largest tile (as text, JSON's keys)."""
    query = listed(select(Record.max_tile, func.count()).where(Record.day == day)).group_by(Record.max_tile)
    return {str(tile): count for tile, count in sorted(db.session.execute(query).all())}


def archive(limit: int) -> list[dict]:
    """The ``limit`` latest revealed days, newest first, each with its seed, how many ranked games of
    it were over and its par (once played)."""
    last = day_after(today(), -1)
    if not revealed(last):
        last = day_after(last, -1)
    days = [day_after(last, -back) for back in range(limit)]
    counted = listed(select(Record.day, func.count()).where(Record.day.in_(days))).group_by(Record.day)
    ranked = dict(db.session.execute(counted).all())
    pars = {kept.day: kept.score for kept in db.session.scalars(select(DailyPar).where(DailyPar.day.in_(days)))}
    return [{**about(day), "ranked": ranked.get(day, 0), "par": pars.get(day)} for day in days]


def revealed_day(text) -> str:
    """A day named to be played again from the archive: 409 ``not_revealed`` while its seed is secret."""
    day = requested_day(text)
    if not revealed(day):
        message = f"the game of {day} is played as the day's own until its seed is revealed"
        raise ApiError(409, "not_revealed", message, reveals_in=seconds_until(reveal_time(day)))
    return day


def par(day: str) -> DailyPar | None:
    """What the solver scored on the day's game (None until ``flask daily par`` has played it)."""
    return db.session.get(DailyPar, day)


def packed_scores(scores) -> bytes:
    """The par game's score after each of its moves, as DailyPar keeps them (SCORE_BYTES each)."""
    return b"".join(score.to_bytes(SCORE_BYTES, "little") for score in scores)


def par_after(kept: DailyPar | None, moves: int) -> int | None:
    """The solver's score after ``moves`` moves of its game on the day (its whole game's score past its
    end); None without a par, or for a par kept before its scores were."""
    if kept is None or kept.scores is None:
        return None
    count = len(kept.scores) // SCORE_BYTES
    if moves >= count:
        return kept.score
    return 0 if moves <= 0 else int.from_bytes(kept.scores[(moves - 1) * SCORE_BYTES : moves * SCORE_BYTES], "little")
