"""The strategy and solver pages, rendered by the server."""

import json
import re
from pathlib import Path

import pytest

from app.routes import pages


def run_figures(budget_ms, games=3, finished=3):
    """One solver run as app/solver/figures.json holds it (written by the lab's summary)."""
    return {
        "budget_ms": budget_ms,
        "games": games,
        "games_finished": finished,
        "date": "2026-11-30T12:00:00+00:00",
        "jobs": 2,
        "cores": 2,
        "reached": {"2048": 1.0, "4096": 1.0, "8192": 2 / 3, "16384": 1 / 3, "32768": 0.0},
        "score": {"median": 161234, "best": 380000},
        "ms_per_move": {"median": 42.5, "p99": 108.25},
        "cpu_ms_per_move": 31.5,
        "nodes_per_second": 1234567.0,
        "moves_per_second": 21.5,
    }


OTHER_SOLVERS = [
    {"name": "someone/solver", "language": "Rust", "formerly": "C", "url": "https://example.org/someone/solver",
     "published": [{"games": 500, "reached": {"8192": 0.915, "16384": 0.47}, "ms_per_move": 3.25,
                    "machine": "Some CPU 9000", "budget_positions": 65536, "source": "https://example.org/"}],
     "timed_here": [{"budget_positions": 65536, "ms_per_move": 7.75, "games_at_a_time": 2}]},
    {"name": "other/deep", "language": "C++", "url": "https://example.org/other/deep",
     "published": [{"search": "full depth", "games": 100, "reached": {"32768": 0.29}, "source": "https://example.org/"}]},
]  # fmt: skip


@pytest.fixture
def figures(tmp_path, monkeypatch):
    """Writes the page's figures file: ``figures(document)``."""
    path = tmp_path / "figures.json"
    monkeypatch.setattr(pages, "FIGURES", path)
    return lambda document: path.write_text(json.dumps(document))


def test_the_solver_page_shows_each_stored_run_as_table_and_chart(client, figures):
    figures({
        "runs": [run_figures(100), run_figures(10, games=12, finished=5)],
        "speed": {"date": "2026-11-30T12:00:00+00:00", "cpython_moves_per_second": 340786.0,
                  "compiled_moves_per_second": 7505199.0},
        "other_solvers": OTHER_SOLVERS,
    })  # fmt: skip
    html = client.get("/solver").get_data(as_text=True)
    assert "Nov 30, 2026" in html and "2 played at a time on a 2-core machine" in html
    assert "67%" in html and "33%" in html and "161,234" in html and "108.2" in html and "31.5" in html
    assert "1,234,567" in html and "340,786" in html and "7,505,199" in html and "21.5 moves per second" in html
    assert html.count('class="chart-bar"') == 10 and "chart-target" not in html
    assert 'id="chart-title-100ms"' in html and 'id="chart-title-10ms"' in html
    assert "<h3>100 ms a move</h3>" in html and "<h3>10 ms a move</h3>" in html
    assert "5 of 12 planned complete games" in html and html.count("The run was cut short") == 1
    assert "by about 33 percentage points" in html and "by about 20 percentage points" in html  # 3 games, 5 games


def test_the_other_solvers_come_from_the_figures_with_their_sources(client, figures):
    figures({"runs": [run_figures(10)], "speed": None, "other_solvers": OTHER_SOLVERS})
    html = client.get("/solver").get_data(as_text=True)
    table = html[html.index('class="results solvers"'):html.index("</table>", html.index('class="results solvers"'))]
    name = '<span class="solver-name" translate="no">{}</span>'
    assert f'<a href="https://example.org/someone/solver">{name.format("someone/solver")}, Rust (formerly C):' in table
    assert f'<a href="https://example.org/other/deep">{name.format("other/deep")}, C++:' in table
    assert "91.5%" in table and "47%" in table and "29%" in table and "65,536 positions a move" in table
    assert "3.2 ms on its author's Some CPU 9000" in table and "full depth" in table and ">500<" in table
    assert "this solver, Python compiled by numba" in table and "42.5 ms (median)" in table
    assert "someone/solver with a budget of 65,536 positions: 7.8 ms a move on average (games at a time: 2)" in html
    czech = client.get("/solver", headers={"Accept-Language": "cs"}).get_data(as_text=True)
    assert "91,5\xa0%" in czech and "Rust (dříve C)" in czech and "plná hloubka" in czech


def test_the_solver_page_shows_the_committed_figures(client):
    html = client.get("/solver").get_data(as_text=True)
    assert html.count('class="chart-bar"') == 10 and "<h3>100 ms a move</h3>" in html
    assert "https://github.com/nneonneo/2048-ai" in html and "https://github.com/ziap/2048-ai" in html
    for share in ("94%", "36%", "98%", "85%", "18%", "95.5%"):
        assert re.search(rf'<td data-label="\d+">{re.escape(share)}</td>', html), share
    assert "8.4 ms on its author's Ryzen 5 5600G" in html
    for ms in ("21.5", "12.0", "5.7"):
        assert f": {ms} ms a move on average" in html
    assert "plain Python" not in html and "compiled to machine code by numba" in html


def test_the_solver_page_says_so_when_no_figures_are_stored(client, tmp_path, monkeypatch):
    monkeypatch.setattr(pages, "FIGURES", tmp_path / "none.json")
    reply = client.get("/solver")
    html = reply.get_data(as_text=True)
    assert reply.status_code == 200 and "No benchmark results are stored yet." in html
    assert "results solvers" not in html


# "cíl" (target) in any of its forms; the Czech rules' "cílový okraj" (the edge tiles slide to) is no target.
CZECH_TARGET = re.compile(r"\bcíl(e|i|em|ů|ům|ech)?\b", re.IGNORECASE)
# The Czech rules call the game's goal "Cíl" (their heading and contents entry): the goal, not a target.
GOAL_HEADING = re.compile(r">Cíl<")


@pytest.mark.parametrize("path", ["/", "/daily", "/rules", "/strategy", "/solver", "/records", "/stats"])
@pytest.mark.parametrize("language", ["en", "cs"])
def test_no_page_shows_a_command_line_or_a_target(client, path, language):
    reply = client.get(path, headers={"Accept-Language": language})
    html = reply.get_data(as_text=True)
    assert reply.status_code == 200 and f'<html lang="{language}">' in html
    assert "python -m" not in html and "bench." not in html
    assert not re.search(r"\btargets?\b", html, re.IGNORECASE)
    if path == "/rules":
        html = GOAL_HEADING.sub("><", html)
    assert not CZECH_TARGET.search(html)


def test_the_strategy_page_draws_its_boards_in_html(client):
    html = client.get("/strategy").get_data(as_text=True)
    assert html.count('class="diagram"') >= 3
    assert "tile-256" in html and "<img" not in html
    for mistake in ["all four directions", "every merge", "small tile", "nearly full"]:
        assert mistake in html


@pytest.mark.parametrize(("language", "heading"), [("en", "Your statistics"), ("cs", "Vaše statistiky")])
def test_the_statistics_page_answers_in_both_languages_and_is_in_the_navigation(client, language, heading):
    reply = client.get("/stats", headers={"Accept-Language": language})
    html = reply.get_data(as_text=True)
    assert reply.status_code == 200 and f"<h1>{heading}</h1>" in html
    assert '<a href="/stats" aria-current="page">' in html and '<a href="/records">' in html


@pytest.mark.parametrize(("language", "heading"), [("en", "Today's game"), ("cs", "Dnešní hra")])
def test_todays_game_answers_in_both_languages_and_is_in_the_navigation(client, language, heading):
    html = client.get("/daily", headers={"Accept-Language": language}).get_data(as_text=True)
    assert f'<h1 class="daily-title">{heading}</h1>' in html
    assert f'<a href="/daily" aria-current="page">{heading}</a>' in html
    game_page = client.get("/", headers={"Accept-Language": language}).get_data(as_text=True)
    assert f'<a href="/daily">{heading}</a>' in game_page


def test_the_statistics_page_says_the_limit_the_browser_keeps(app, client):
    """The page says how many games the browser keeps: the number static/js/past-games.js keeps, one figure."""
    kept = re.search(r"export const LIMIT = (\d+);", (Path(app.static_folder) / "js" / "past-games.js").read_text())
    assert kept and int(kept[1]) == pages.STATS_LIMIT
    assert f"{pages.STATS_LIMIT}" in client.get("/stats").get_data(as_text=True)


def test_the_game_offers_every_board_size_and_the_statistics_page_shows_one(client):
    game_page = client.get("/").get_data(as_text=True)
    offered = re.findall(r'<option value="(\d)"( selected)?>', game_page)
    assert offered == [("3", ""), ("4", " selected"), ("5", ""), ("6", ""), ("7", ""), ("8", "")]
    assert json.loads(page_data(client.get("/stats?size=6").get_data(as_text=True)))["size"] == 6
    assert json.loads(page_data(client.get("/stats").get_data(as_text=True)))["size"] == 4  # the classic
    assert client.get("/stats?size=2").status_code == 400


def page_data(html):
    return re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.S)[1]
