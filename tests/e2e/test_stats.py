"""The player's own statistics (/stats): this browser's past games, put there by the game page."""

import pytest
from playwright.sync_api import expect

from tests.support.game_page import axe_violations, load, put_game, server_state, wait_idle

pytestmark = pytest.mark.e2e

# ArrowLeft merges the 64s into a 128, the new tile fills the last cell and nothing can move.
ONE_MOVE_FROM_OVER = [[2, 4, 8, 16], [4, 8, 16, 32], [2, 4, 8, 16], [64, 64, 256, 512]]
HISTORY_KEY = "2048-finished-games"


@pytest.fixture(autouse=True)
def _reduced_motion(page):
    page.emulate_media(reduced_motion="reduce")


def stored_games(page):
    return page.evaluate(f"() => JSON.parse(localStorage.getItem('{HISTORY_KEY}') || '[]')")


def finish_on_the_page(page, score):
    """Play the last move of a game one move from over, on the game page; its final score."""
    put_game(page, ONE_MOVE_FROM_OVER, score=score, moves=300)
    load(page)
    page.keyboard.press("ArrowLeft")
    wait_idle(page)
    state = server_state(page)
    assert state["over"]
    page.wait_for_function(
        f"() => JSON.parse(localStorage.getItem('{HISTORY_KEY}') || '[]').at(-1)?.score === {state['score']}"
    )
    return state["score"]


def open_stats(page):
    page.goto("/stats")
    page.wait_for_function("() => document.querySelector('#stats')?.dataset.ready === 'true'")


def number(text):
    return int("".join(ch for ch in text if ch.isdigit()))


def test_the_statistics_sum_up_the_games_finished_in_this_browser(page):
    scores = [finish_on_the_page(page, score) for score in (1000, 5000, 3000)]
    load(page)  # the last game over, loaded again: still one game
    assert len(stored_games(page)) == 3
    assert [game["helped"] for game in stored_games(page)] == [False, False, False]

    open_stats(page)
    expect(page.get_by_test_id("stats-empty")).to_be_hidden()
    assert number(page.get_by_test_id("stats-played").inner_text()) == 3
    assert number(page.get_by_test_id("stats-best").inner_text()) == max(scores)
    assert number(page.get_by_test_id("stats-average").inner_text()) == round(sum(scores) / 3)
    assert number(page.get_by_test_id("stats-best-tile").inner_text()) == 512
    assert page.get_by_test_id("stats-helped").inner_text() == "0 of 3"
    reach = page.get_by_test_id("reach-table").locator("tbody tr")
    assert reach.first.locator("td").all_text_contents() == ["128", "3", "100%"]
    assert reach.last.locator("td").all_text_contents() == ["2,048+", "0", "0%"]
    assert page.get_by_test_id("games-table").locator("tbody tr").count() == 3
    for chart in ("reach-chart", "progress-chart"):
        svg = page.get_by_test_id(chart).locator("svg")
        assert svg.get_attribute("role") == "img" and svg.get_attribute("aria-labelledby")
    assert page.get_by_test_id("progress-chart").locator("circle").count() == 3
    assert page.get_by_role("navigation", name="Pages").get_by_role("link", name="Your statistics").get_attribute(
        "aria-current"
    ) == "page"


def test_a_hint_counts_as_help(page):
    put_game(page, ONE_MOVE_FROM_OVER, score=100, moves=10)
    load(page)
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("hint-arrow")).to_be_visible(timeout=15_000)
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => JSON.parse(localStorage.getItem('{HISTORY_KEY}') || '[]').length === 1")
    assert stored_games(page)[0]["helped"] is True


def test_the_history_keeps_the_last_500_games(page):
    load(page)
    old = [{"key": str(n), "score": n, "maxTile": 64, "moves": 10, "date": 0, "helped": False} for n in range(500)]
    page.evaluate(f"games => localStorage.setItem('{HISTORY_KEY}', JSON.stringify(games))", old)
    score = finish_on_the_page(page, 777_000)
    games = page.evaluate(f"() => JSON.parse(localStorage.getItem('{HISTORY_KEY}'))")
    assert len(games) == 500 and games[0]["score"] == 1 and games[-1]["score"] == score


def test_without_games_the_page_says_how_to_get_some(page):
    open_stats(page)
    expect(page.get_by_test_id("stats-empty")).to_be_visible()
    expect(page.get_by_test_id("stats-figures")).to_be_hidden()
    assert axe_violations(page) == []


@pytest.mark.parametrize("language", ["en", "cs"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_statistics_page_is_accessible_in_both_themes_and_languages(page, language, scheme):
    finish_on_the_page(page, 2000)
    page.context.add_cookies([{"name": "lang", "value": language, "url": page.url}])
    page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
    for width in (320, 1280):
        page.set_viewport_size({"width": width, "height": 800})
        open_stats(page)
        for details in page.locator("details.chart-table").all():
            details.locator("summary").click()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert axe_violations(page) == []
    if language == "cs":
        expect(page.locator("h1")).to_have_text("Vaše statistiky")
