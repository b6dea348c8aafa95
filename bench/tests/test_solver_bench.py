"""The solver benchmark runs end to end: its JSON as documented, and its single-move timing."""

import json

from app.engine import CLASSIC, max_tile
from bench import solver as bench


def test_tiny_benchmark_writes_the_documented_json(tmp_path, capsys):
    path = tmp_path / "bench.json"
    bench.main(
        ["--games", "2", "--max-moves", "150", "--budget-ms", "5", "--cut", "0", "--jobs", "2", "--json", str(path)]
    )
    assert "moves per second" in capsys.readouterr().out
    document = json.loads(path.read_text())
    assert document["games_finished"] == 2 and document["cut"] == 0.0
    for key in (
        "date",
        "command",
        "budget_ms",
        "games",
        "seed",
        "cores",
        "reached",
        "score",
        "ms_per_move",
        "moves_per_second",
    ):
        assert key in document
    assert set(document["reached"]) == {"2048", "4096", "8192", "16384", "32768"}
    assert set(document["ms_per_move"]) == {"median", "p99"}
    assert [g["seed"] for g in document["per_game"]] == [1, 2]
    assert document["cpu_ms_per_move"] > 0 and document["nodes_per_second"] > 0
    for game in document["per_game"]:
        assert set(game) == {"seed", "max_tile", "score", "moves", "cpu_seconds", "nodes", "directions"}
        assert 0 < game["moves"] <= 150 and len(game["directions"]) == game["moves"]
        replayed = bench.replay(game["seed"], game["directions"])
        assert (replayed.score, max_tile(replayed.board, CLASSIC)) == (game["score"], game["max_tile"])


def test_speed_benchmark_prints_and_stores_cpython_and_compiled_moves_per_second(capsys, tmp_path):
    rates = bench.main(["--speed", "--json", str(tmp_path / "speed.json")])
    out = capsys.readouterr().out
    assert "cpython moves per second" in out and "compiled moves per second" in out
    assert set(rates) == {"cpython_moves_per_second", "compiled_moves_per_second"}
    stored = json.loads((tmp_path / "speed.json").read_text())
    assert stored["command"].endswith("--speed --json " + str(tmp_path / "speed.json")) and stored | rates == stored
