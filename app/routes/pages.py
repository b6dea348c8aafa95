"""Page routes: the game itself at ``/``, and the pages about playing it."""

import json
from datetime import datetime
from pathlib import Path

from babel.numbers import format_percent
from flask import Blueprint, current_app, redirect, render_template, url_for
from flask_babel import get_locale

from ..charts import reach_chart
from ..games.session import MAX_BATCH
from ..solver import Weights

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    return render_template("index.html", max_batch=MAX_BATCH)


@bp.get("/daily")
def daily():
    """Today's game: the page plays it, and shows the day's leaderboards, through /api/daily."""
    return render_template("daily.html", max_batch=MAX_BATCH)


@bp.get("/sw.js")
def service_worker():
    """The service worker (static/js/sw.js), served from the root: its scope is then every page.
    Asked again on every visit (no-cache), so a new version of it is found at once."""
    body = current_app.extensions["static_files"].body("js/sw.js")
    response = current_app.response_class(body, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def offline():
    """The app's own page for a page that cannot be fetched when the server cannot be reached and
    this browser kept no copy of it: the service worker keeps it, in the language of the page that
    last asked it to (it compares Content-Language)."""
    response = current_app.make_response(render_template("offline.html"))
    response.headers["Content-Language"] = str(get_locale())
    return response


@bp.get("/favicon.ico")
def favicon():
    """Browsers that ignore <link rel="icon"> ask here; send them the SVG icon."""
    return redirect(url_for("static", filename="icons/favicon.svg"), code=301)


@bp.get("/strategy")
def strategy():
    return render_template("strategy.html")


FIGURES = Path(__file__).parents[1] / "solver" / "figures.json"  # written by the lab from its results
TERMS = ["empty", "merges", "monotonicity", "sum", "inner", "loss"]  # the evaluation's weights solver.html explains


def _figures():
    """The solver's measured figures the product ships, or nothing while there are none."""
    try:
        return json.loads(FIGURES.read_text())
    except (OSError, ValueError):
        return {}


def _other_solvers(solvers):
    """Rows of the comparison table (their published figures, each with its source) and the
    timings of other solvers run on the machine our figures come from."""
    rows, timed = [], []
    for solver in solvers:
        about = {key: solver.get(key) for key in ("name", "url", "language", "formerly")}
        for figures in solver.get("published", []):
            # Published shares as given (95.5%, not 96%), in the reader's language.
            shares = {
                tile: format_percent(share, locale=get_locale(), decimal_quantization=False)
                for tile, share in figures["reached"].items()
            }
            rows.append(about | figures | {"shares": shares})
        timed += [about | timing for timing in solver.get("timed_here", [])]
    return rows, timed


@bp.get("/solver")
def solver():
    """Explains the solver and shows its measured figures (tables and charts) next to other solvers'."""
    figures = _figures()
    runs = [
        {
            "figures": run,
            "date": datetime.fromisoformat(run["date"]),
            "chart": reach_chart(run["reached"], key=f"{run['budget_ms']:g}ms"),
        }
        for run in figures.get("runs", [])
    ]
    others, timed_here = _other_solvers(figures.get("other_solvers", []))
    weights = Weights()
    terms = [{"name": name, "weight": getattr(weights, name)} for name in TERMS]
    return render_template(
        "solver.html",
        runs=runs,
        speed=figures.get("speed"),
        others=others,
        timed_here=timed_here,
        terms=terms,
        budget_ms=float(current_app.config["SOLVER_BUDGET_MS"]),
    )


@bp.get("/rules")
def rules():
    return render_template("rules.html")


STATS_TILES = [128, 256, 512, 1024, 2048]  # how often each was reached; the last counts 2048 and beyond
STATS_LIMIT = 500  # the games the browser keeps: past-games.js's LIMIT (a test keeps them one), said on the page


@bp.get("/stats")
def stats():
    """The player's own statistics: this browser keeps its past games (over), the page's script draws them."""
    return render_template("stats.html", tiles=STATS_TILES, limit=STATS_LIMIT)
