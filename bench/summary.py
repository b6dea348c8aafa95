"""The /solver page's figures from the lab's stored results: ``python -m bench.summary``.

    python -m bench.summary [--results bench/results] [--out app/solver/figures.json]

Reads the solver runs the page shows (``RUNS``), the single-move speeds and the other
solvers' figures with their sources from bench/results/, and writes the product's one
summary of them, app/solver/figures.json: a few KB, with no per-game data and no command
lines. Run it after storing a new result there; a lab test (bench/tests/test_summary.py)
fails while the committed figures differ from what this would write.
"""

import argparse
import json
from pathlib import Path

from bench import RESULTS

FIGURES = Path(__file__).resolve().parents[1] / "app" / "solver" / "figures.json"
RUNS = ("benchmark.json", "benchmark-10ms.json")  # bench.solver runs the page shows, in this order
SPEED = "speed.json"  # bench.solver --speed
OTHERS = "other_solvers.json"
# Runs stored before bench.solver recorded its cores were all measured on the 2-core development machine.
STORED_CORES = 2


def run_figures(run: dict) -> dict:
    """What /solver shows of one bench.solver run, as measured (the page rounds)."""
    return {
        "budget_ms": run["budget_ms"],
        "games": run["games"],
        "games_finished": run.get("games_finished", run["games"]),
        "date": run["date"],
        "jobs": run["jobs"],
        "cores": run.get("cores", STORED_CORES),
        "reached": run["reached"],
        "score": {"median": run["score"]["median"], "best": run["score"]["best"]},
        "ms_per_move": {"median": run["ms_per_move"]["median"], "p99": run["ms_per_move"]["p99"]},
        "cpu_ms_per_move": run["cpu_ms_per_move"],
        "nodes_per_second": run["nodes_per_second"],
        "moves_per_second": run["moves_per_second"],
    }


def speed_figures(speed: dict) -> dict:
    """Single moves a second on one core: the engine in CPython, and the search's compiled slides."""
    return {
        "date": speed["date"],
        "cpython_moves_per_second": speed["cpython_moves_per_second"],
        "compiled_moves_per_second": speed["compiled_moves_per_second"],
    }


def read(results: Path, name: str) -> dict | None:
    path = results / name
    return json.loads(path.read_text()) if path.exists() else None


def summarize(results: Path = RESULTS) -> dict:
    """The page's figures from the results in ``results``; a missing file is left out."""
    runs = [read(results, name) for name in RUNS]
    speed = read(results, SPEED)
    others = read(results, OTHERS)
    return {
        "about": "The /solver page's figures, written by `python -m bench.summary` from bench/results/; do not edit.",
        "runs": [run_figures(run) for run in runs if run],
        "speed": speed_figures(speed) if speed else None,
        "other_solvers": others["solvers"] if others else [],
    }


def render(figures: dict) -> str:
    return json.dumps(figures, indent=1, ensure_ascii=False) + "\n"


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=RESULTS, help="where the stored results are")
    parser.add_argument("--out", type=Path, default=FIGURES, help="the figures file to write")
    args = parser.parse_args(argv)
    figures = summarize(args.results)
    text = render(figures)
    args.out.write_text(text)
    print(f"{args.out}: {len(figures['runs'])} runs, {len(figures['other_solvers'])} other solvers, "
          f"{len(text.encode()):,} bytes")
    return figures


if __name__ == "__main__":
    main()
