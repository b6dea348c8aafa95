"""Page routes: the game itself at ``/``, and the pages about playing it."""

import json
from datetime import datetime
from pathlib import Path

from flask import Blueprint, current_app, redirect, render_template, url_for

from .api import MAX_BATCH
from .charts import reach_chart
from .solver import Weights

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


# The strength targets, drawn as marks on the results chart.
SOLVER_TARGETS = {"2048": 1.0, "4096": 0.95, "8192": 0.75, "16384": 0.25}
BENCHMARK = Path(__file__).parent / "solver" / "benchmark.json"
TERMS = ["empty", "merges", "monotonicity", "sum", "inner", "loss"]  # the evaluation's weights solver.html explains


@bp.get("/solver")
def solver():
    """Explains the solver and renders the committed benchmark's results as a table and chart."""
    try:
        bench = json.loads(BENCHMARK.read_text())
    except (OSError, ValueError):
        bench = None
    weights = Weights()
    terms = [{"name": name, "weight": getattr(weights, name)} for name in TERMS]
    return render_template(
        "solver.html",
        bench=bench,
        bench_date=datetime.fromisoformat(bench["date"]) if bench else None,
        chart=reach_chart(bench["reached"], SOLVER_TARGETS) if bench else None,
        targets=SOLVER_TARGETS,
        terms=terms,
        budget_ms=float(current_app.config["SOLVER_BUDGET_MS"]),
    )


@bp.get("/rules")
def rules():
    return render_template("rules.html")
