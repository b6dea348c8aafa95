"""Page routes: the game itself at ``/``, and the pages about playing it."""

import json
from datetime import datetime
from pathlib import Path

from flask import Blueprint, current_app, redirect, render_template, url_for

from ..charts import reach_chart
from ..games import MAX_BATCH
from ..solver import Weights

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    return render_template("index.html", max_batch=MAX_BATCH)


@bp.get("/favicon.ico")
def favicon():
    """Browsers that ignore <link rel="icon"> ask here; send them the SVG icon."""
    return redirect(url_for("static", filename="icons/favicon.svg"), code=301)


@bp.get("/strategy")
def strategy():
    return render_template("strategy.html")


SOLVER_DIR = Path(__file__).parents[1] / "solver"
# The stored benchmark runs, with the targets for each: share of games that reached
# each tile (drawn as marks on the run's chart) and the 99th percentile of a hint's time.
BENCHMARKS = {
    "benchmark.json": ({"8192": 0.98, "16384": 0.75, "32768": 0.15}, 110.0),
    "benchmark-10ms.json": ({"8192": 0.98, "16384": 0.30}, 11.0),
}
SPEED = "speed.json"
TERMS = ["empty", "merges", "monotonicity", "sum", "inner", "loss"]  # the evaluation's weights solver.html explains


def _stored(name):
    """A committed benchmark file's JSON, or None while there is none."""
    try:
        return json.loads((SOLVER_DIR / name).read_text())
    except (OSError, ValueError):
        return None


@bp.get("/solver")
def solver():
    """Explains the solver and renders the committed benchmarks' results as tables and charts."""
    runs = []
    for name, (targets, p99_target) in BENCHMARKS.items():
        bench = _stored(name)
        if bench:
            chart = reach_chart(bench["reached"], targets, key=f"{bench['budget_ms']:g}ms")
            date = datetime.fromisoformat(bench["date"])
            runs.append({"bench": bench, "date": date, "chart": chart, "targets": targets, "p99_target": p99_target})
    weights = Weights()
    terms = [{"name": name, "weight": getattr(weights, name)} for name in TERMS]
    return render_template(
        "solver.html",
        runs=runs,
        speed=_stored(SPEED),
        terms=terms,
        budget_ms=float(current_app.config["SOLVER_BUDGET_MS"]),
    )


@bp.get("/rules")
def rules():
    return render_template("rules.html")
