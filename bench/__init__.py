"""The lab: benchmarks (``python -m bench.<name>``), their stored results and their tests (bench/tests).

Results worth keeping live in bench/results/ (``RESULTS``); ``python -m bench.summary`` turns
the ones the /solver page shows into the product's small app/solver/figures.json.
"""

from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
