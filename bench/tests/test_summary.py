"""bench.summary writes the /solver page's figures, and the committed ones are current."""

import json
import shutil

from bench import RESULTS, summary

PRODUCT_JSON_LIMIT = 20_000  # bytes of JSON in app/solver/ in all: figures, never per-game results


def test_the_command_writes_the_figures_of_the_stored_results(tmp_path, capsys):
    out = tmp_path / "figures.json"
    figures = summary.main(["--out", str(out)])
    assert json.loads(out.read_text()) == figures and "2 runs" in capsys.readouterr().out
    assert [run["budget_ms"] for run in figures["runs"]] == [100, 10]
    for run, name in zip(figures["runs"], summary.RUNS, strict=True):
        stored = json.loads((RESULTS / name).read_text())
        assert run["reached"] == stored["reached"] and run["ms_per_move"] == stored["ms_per_move"]
        assert run["games_finished"] == stored["games_finished"] and run["cores"] == 2
        assert not {"per_game", "command", "directions"} & set(run)
    assert figures["speed"]["compiled_moves_per_second"] > figures["speed"]["cpython_moves_per_second"] > 0
    others = {solver["name"]: solver for solver in figures["other_solvers"]}
    assert set(others) == {"nneonneo/2048-ai", "ziap/2048-ai"}
    for solver in others.values():
        assert solver["url"].startswith("https://github.com/")
        assert all(published["source"].startswith(solver["url"]) for published in solver["published"])
    assert others["ziap/2048-ai"]["timed_here_source"].startswith("measured here")
    assert "python -m" not in json.dumps(figures["runs"]) + json.dumps(figures["speed"])


def test_the_committed_figures_are_what_the_command_writes_now():
    """After storing a result in bench/results, run `python -m bench.summary` and commit app/solver/figures.json."""
    assert summary.FIGURES.read_text() == summary.render(summary.summarize(RESULTS))


def test_the_product_holds_no_per_game_results():
    files = sorted(summary.FIGURES.parent.glob("*.json"))
    assert files == [summary.FIGURES]
    assert sum(path.stat().st_size for path in files) < PRODUCT_JSON_LIMIT
    assert "per_game" not in summary.FIGURES.read_text()


def test_a_run_cut_short_keeps_its_planned_games_and_a_missing_file_is_left_out(tmp_path):
    run = json.loads((RESULTS / "benchmark-10ms.json").read_text()) | {"games": 60, "games_finished": 7}
    (tmp_path / "benchmark-10ms.json").write_text(json.dumps(run))
    shutil.copy(RESULTS / "other_solvers.json", tmp_path)
    figures = summary.summarize(tmp_path)
    assert [(r["games"], r["games_finished"]) for r in figures["runs"]] == [(60, 7)]
    assert figures["speed"] is None and len(figures["other_solvers"]) == 2
