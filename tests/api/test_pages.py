"""The strategy and solver pages, rendered by the server."""

import json

from app.routes import pages


def stored_run(budget_ms, games=3, finished=3):
    return {
        "date": "2026-11-30T12:00:00+00:00",
        "command": f"python -m bench.solver --games {games} --seed 9 --budget-ms {budget_ms}",
        "games": games,
        "games_finished": finished,
        "jobs": 2,
        "budget_ms": budget_ms,
        "reached": {"2048": 1.0, "4096": 1.0, "8192": 2 / 3, "16384": 1 / 3, "32768": 0.0},
        "score": {"median": 161234, "best": 380000},
        "ms_per_move": {"median": 42.5, "p99": 108.25},
        "cpu_ms_per_move": 31.5,
        "moves_per_second": 21.5,
        "nodes_per_second": 1234567.0,
    }


def test_the_solver_page_shows_each_stored_benchmark_as_table_and_chart(client, tmp_path, monkeypatch):
    (tmp_path / "benchmark.json").write_text(json.dumps(stored_run(100)))
    (tmp_path / "benchmark-10ms.json").write_text(json.dumps(stored_run(10, games=12, finished=5)))
    speed = {"command": "python -m bench.solver --speed", "cpython_moves_per_second": 340786.0,
             "compiled_moves_per_second": 7505199.0}
    (tmp_path / "speed.json").write_text(json.dumps(speed))
    monkeypatch.setattr(pages, "SOLVER_DIR", tmp_path)
    html = client.get("/solver").get_data(as_text=True)
    assert stored_run(100)["command"] in html and stored_run(10, 12)["command"] in html and "Nov 30, 2026" in html
    assert "67%" in html and "33%" in html and "161,234" in html and "108.2" in html and "31.5" in html
    assert "1,234,567" in html and "340,786" in html and "7,505,199" in html
    assert html.count('class="chart-bar"') == 10 and html.count('class="chart-target"') == 3 + 2
    assert 'id="chart-title-100ms"' in html and 'id="chart-title-10ms"' in html
    assert "5 of 12 planned complete games" in html and html.count("The run was cut short") == 1
    assert "94%" in html and "36%" in html and "85%" in html and "18%" in html  # the C++ solvers


def test_the_solver_page_says_so_when_no_benchmark_is_stored(client, tmp_path, monkeypatch):
    monkeypatch.setattr(pages, "SOLVER_DIR", tmp_path)
    reply = client.get("/solver")
    assert reply.status_code == 200 and "No benchmark results are stored yet." in reply.get_data(as_text=True)


def test_the_strategy_page_draws_its_boards_in_html(client):
    html = client.get("/strategy").get_data(as_text=True)
    assert html.count('class="diagram"') >= 3
    assert "tile-256" in html and "<img" not in html
    for mistake in ["all four directions", "every merge", "small tile", "nearly full"]:
        assert mistake in html
