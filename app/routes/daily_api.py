"""/api/daily: today's game, its commitment and its leaderboard, and the archive of revealed days. Thin
routes: the day is app/daily.py's, the game in the session app/games/session.py's; moves, keep-playing and
records go by the usual routes."""

from flask import Blueprint, request

from .. import daily, database, games, limits, records
from ..engine import CLASSIC
from ..requests import json_object, query_number

bp = database.uses_records(limits.api_routes(Blueprint("daily_api", __name__, url_prefix="/api/daily")))


@bp.get("")
def today():
    """Today's date, commitment and time left, yesterday's seed once revealed, and this session's day's game."""
    return daily.info(games.load_game())


@bp.post("")
@limits.per_address("DAILY_GAME_RATE_LIMIT")
def start():
    """Today's game in a new session: ranked for the browser's first attempt of the day, else practice;
    with ``date``, a revealed day's game from the archive, never ranked."""
    date = json_object(optional={"date"}).get("date")
    game = games.start_daily() if date is None else games.start_archive(daily.revealed_day(date))
    return daily.answer(game), 201


@bp.get("/archive")
def archive():
    """The revealed days, newest first: each one's seed, ranked games over and par."""
    return {"days": daily.archive(query_number("limit", daily.ARCHIVE_SIZE, daily.MAX_ARCHIVE_SIZE, low=1))}


@bp.get("/par")
def par():
    """The solver's score on the day after ``moves`` moves, beside a player's result of as many, and
    its whole game's (each null until ``flask daily par`` has played the day)."""
    day = daily.requested_day(request.args.get("date", daily.today()))
    moves = query_number("moves", 0, CLASSIC.max_moves)  # a day's game is the classic 4x4
    kept = daily.par(day)
    whole = None if kept is None else kept.score
    return {"date": day, "moves": moves, "score": daily.par_after(kept, moves), "par": whole}


@bp.get("/leaderboard")
def leaderboard():
    """The day's ranked games that are over, best first with their ranks and the solver's score after as
    many moves, the spread of their largest tiles, and the solver's par once computed."""
    day = daily.requested_day(request.args.get("date", daily.today()))
    limit = query_number("limit", daily.LEADERBOARD_SIZE, daily.MAX_LEADERBOARD_SIZE, low=1)
    par = daily.par(day)
    return {
        **daily.about(day),
        "records": [
            {**records.summary(record), "rank": rank, "par": daily.par_after(par, record.moves)}
            for rank, record in daily.leaderboard(day, limit)
        ],
        "tiles": daily.spread(day),
        "par": None if par is None else par.score,
    }
