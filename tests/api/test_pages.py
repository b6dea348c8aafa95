"""The strategy and solver pages, rendered by the server."""

import json

from app import pages


def test_the_solver_page_shows_the_stored_benchmark_as_table_and_chart(client, tmp_path, monkeypatch):
    bench = {
        "date": "2026-11-30T12:00:00+00:00",
        "command": "python -m app.solver.bench --games 3 --seed 9",
        "games": 3,
        "budget_ms": 100,
        "reached": {"2048": 1.0, "4096": 2 / 3, "8192": 1 / 3, "16384": 0.0, "32768": 0.0},
        "score": {"median": 61234, "best": 80000},
        "ms_per_move": {"median": 42.5, "p99": 180.25},
        "moves_per_second": 21.5,
    }
    stored = tmp_path / "benchmark.json"
    stored.write_text(json.dumps(bench))
    monkeypatch.setattr(pages, "BENCHMARK", stored)
    html = client.get("/solver").get_data(as_text=True)
    assert bench["command"] in html and "Nov 30, 2026" in html
    assert "67%" in html and "33%" in html and "61,234" in html and "180.2" in html
    assert html.count('class="chart-bar"') == 5 and html.count('class="chart-target"') == 4


def test_the_solver_page_says_so_when_no_benchmark_is_stored(client, tmp_path, monkeypatch):
    monkeypatch.setattr(pages, "BENCHMARK", tmp_path / "missing.json")
    reply = client.get("/solver")
    assert reply.status_code == 200 and "No benchmark results are stored yet." in reply.get_data(as_text=True)


def test_the_strategy_page_draws_its_boards_in_html(client):
    html = client.get("/strategy").get_data(as_text=True)
    assert html.count('class="diagram"') >= 3
    assert "tile-256" in html and "<img" not in html
    for mistake in ["all four directions", "every merge", "small tile", "nearly full"]:
        assert mistake in html
