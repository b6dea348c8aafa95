"""``flask daily par [DATE]``: the solver plays a day's game once its seed is revealed, and its score
is kept as the day's par, shown beside the day's leaderboard; its score after each move is kept too
(four bytes a move: 60 kB for a game of 15,000 moves), so that a player's game is set beside the
solver's after as many moves.

It runs from cron (docs/deployment.md), never inside a request: a game takes the solver minutes.
Each move is thought about for DAILY_PAR_BUDGET_MS (``--budget-ms``), in the solver's slot as a
review's positions are (app/hints.py): a player's hint on the same machine goes first, and the
par waits for it. Played again, a day's par is replaced by the new one. While it plays it says how
far it is (Progress): on a terminal a line kept up to date, in a log a line a minute.
"""

import sys
import time

import click
from flask import current_app
from flask.cli import AppGroup

from . import daily, hints
from .database import DailyPar, db, migrate_schema
from .engine import CLASSIC, Game, max_tile

cli = AppGroup("daily", help="Today's game: the solver's par of a finished day.")
WAIT_FOR_HINTS = 0.05  # seconds to wait when a player's hint has the solver


@cli.command("par")
@click.argument("date", required=False)
@click.option("--budget-ms", type=float, help="The solver's time a move (default: FLASK_DAILY_PAR_BUDGET_MS).")
def par_command(date, budget_ms):
    """Play DATE's game (default: yesterday's) with the solver and keep its score as the day's par."""
    migrate_schema()
    day = date or daily.day_after(daily.today(), -1)
    try:
        day = daily.requested_day(day)
    except daily.ApiError as error:
        raise click.BadParameter(error.message, param_hint="DATE") from None
    if not daily.revealed(day):
        raise click.ClickException(f"the game of {day} can still be played: its par waits until its seed is revealed")
    budget = float(current_app.config["DAILY_PAR_BUDGET_MS"]) if budget_ms is None else budget_ms
    click.echo(f"playing the game of {day} with the solver, {budget:g} ms a move", err=True)
    game, scores = play(day, budget, Progress(sys.stderr.isatty()))
    kept = db.session.get(DailyPar, day) or DailyPar(day=day)
    kept.score, kept.moves, kept.budget_ms = game.score, game.moves, budget
    kept.max_tile = max_tile(game.board, CLASSIC)
    kept.scores = daily.packed_scores(scores)
    kept.computed = daily.now()
    db.session.add(kept)
    db.session.commit()
    click.echo(f"par of {day}: {game.score} points, largest tile {max_tile(game.board, CLASSIC)}, {game.moves} moves"
               f" ({budget:g} ms a move)")  # fmt: skip


def play(day, budget_ms, progress):
    """The day's game played to its end by the solver (on past 2048), ``budget_ms`` a move, and its
    score after each move; ``progress`` hears of each move."""
    game = Game.new(daily.seed(day), by_history=True)  # the day's game, drawn as everyone's
    scores = []
    while not game.over:
        if game.won and not game.keep_playing:
            game.choose_keep_playing()
        if game.play(_suggestion(game.board, budget_ms).direction).moved:
            scores.append(game.score)
        progress.moved(game)
    progress.done()
    return game, scores


class Progress:
    """How far the par's game is, on standard error: moves, score, largest tile, and the time left at
    this pace if the game lasts as long as the solver's games at this budget do (TYPICAL_MOVES). On a
    terminal one line kept up to date every second; elsewhere (cron's mail, a log) a line a minute."""

    TYPICAL_MOVES = 15_000  # a par game's moves at 50 ms a move (docs/deployment.md): it ends where it ends
    TERMINAL_EVERY, LOG_EVERY = 1.0, 60.0  # seconds between two lines

    def __init__(self, terminal):
        self.terminal, self.every = terminal, self.TERMINAL_EVERY if terminal else self.LOG_EVERY
        self.started = self.said = time.monotonic()

    def moved(self, game):
        now = time.monotonic()
        if now - self.said < self.every:
            return
        self.said = now
        pace = (now - self.started) / game.moves
        left = max(0, self.TYPICAL_MOVES - game.moves) * pace
        line = (f"{game.moves:,} moves, {game.score:,} points, largest tile {max_tile(game.board, CLASSIC):,}; "
                f"{1 / pace:.0f} moves a second, about {left / 60:.0f} min left in a game of usual length")  # fmt: skip
        click.echo(f"\r{line}\033[K" if self.terminal else line, nl=not self.terminal, err=True)

    def done(self):
        if self.terminal:
            click.echo(err=True)  # the kept-up line stays, and the next starts below it


def _suggestion(board, budget_ms):
    while True:
        try:
            return hints.review(board, CLASSIC, budget_ms, current_app.instance_path)
        except hints.SolverBusy:
            time.sleep(WAIT_FOR_HINTS)
