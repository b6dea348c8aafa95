"""The solver on the page: the Hint button, Auto-play, and the strategy and solver pages."""


import pytest
from playwright.sync_api import expect

from tests.support.game_page import dom_board, load, put_game, seed_game, server_state, wait_idle
from tests.support.servers import wait_until

pytestmark = pytest.mark.e2e

ONLY_UP_OR_LEFT = [[0, 2, 4, 8], [2, 4, 8, 16], [4, 8, 16, 32], [8, 16, 32, 64]]
ARROWS = {"up": "↑", "down": "↓", "left": "←", "right": "→"}


def test_hint_shows_and_announces_a_valid_move(page):
    put_game(page, ONLY_UP_OR_LEFT)
    load(page)
    with page.expect_response(lambda r: r.url.endswith("/api/game/hint")) as answer:
        page.get_by_test_id("hint").click()
    direction = answer.value.json()["direction"]
    assert direction in {"up", "left"}
    arrow = page.get_by_test_id("hint-arrow")
    expect(arrow).to_be_visible()
    expect(arrow).to_have_attribute("data-direction", direction)
    expect(page.locator("#announcer")).to_contain_text(direction)
    assert (
        page.evaluate("() => getComputedStyle(document.querySelector('#hint-arrow'), '::after').content")
        == f'"{ARROWS[direction]}"'
    )

    page.keyboard.press("ArrowUp")
    wait_idle(page)
    expect(arrow).to_be_hidden()  # the hint belonged to the previous board


def test_the_hint_button_is_a_real_focusable_button(page):
    load(page)
    hint = page.get_by_test_id("hint")
    assert hint.evaluate("el => el.tagName") == "BUTTON"
    hint.focus()
    expect(hint).to_be_focused()
    expect(page.get_by_test_id("autoplay")).to_have_text("Auto-play")


def test_autoplay_plays_solver_moves_until_a_key_stops_it(page):
    seed_game(page, 11)
    load(page)
    page.get_by_test_id("autoplay-speed").get_by_role("button", name="Fast").click()
    autoplay = page.get_by_test_id("autoplay")
    autoplay.click()
    expect(autoplay).to_have_text("Stop")
    wait_until(lambda: server_state(page)["moves"] >= 5, timeout=30, interval=0.1, message="auto-play's fifth move")

    page.keyboard.press("ArrowLeft")  # the player takes over
    expect(autoplay).to_have_text("Auto-play")
    wait_idle(page)
    page.wait_for_timeout(700)  # longer than any auto-play pause: nothing more is played
    stopped = server_state(page)
    assert stopped["moves"] >= 5
    assert dom_board(page) == stopped["board"]
    page.wait_for_timeout(500)
    assert server_state(page)["moves"] == stopped["moves"]


def test_autoplay_stops_when_the_win_overlay_appears(page):
    put_game(page, [[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    load(page)
    autoplay = page.get_by_test_id("autoplay")
    autoplay.click()
    expect(page.get_by_test_id("game-message")).to_be_visible(timeout=15_000)
    expect(autoplay).to_have_text("Auto-play")
    state = server_state(page)
    assert state["won"] is True and state["keep_playing"] is False


def test_new_game_stops_autoplay(page):
    seed_game(page, 3)
    load(page)
    autoplay = page.get_by_test_id("autoplay")
    page.get_by_test_id("autoplay-speed").get_by_role("button", name="Slow").click()
    autoplay.click()
    expect(autoplay).to_have_text("Stop")
    wait_until(lambda: server_state(page)["moves"] >= 1, timeout=30, interval=0.1, message="auto-play's first move")
    wait_idle(page)  # the page has the answer too (slow auto-play pauses 600 ms after a move)
    page.get_by_test_id("new-game").click()  # the game has moves: the page asks first
    page.get_by_role("dialog").get_by_role("button", name="New game").click()
    expect(autoplay).to_have_text("Auto-play")
    wait_idle(page)
    page.wait_for_timeout(900)
    assert server_state(page)["moves"] == 0


@pytest.mark.parametrize(
    "path,title,links",
    [
        ("/strategy", "2048 strategy", ["/solver", "/"]),
        ("/solver", "2048 solver", ["/strategy", "/"]),
    ],
)
def test_the_strategy_and_solver_pages_render_and_link_to_each_other(page, path, title, links):
    page.goto(path)
    expect(page.locator("h1")).to_have_text(title)
    hrefs = page.eval_on_selector_all("main a", "els => els.map(a => a.getAttribute('href'))")
    for link in links:
        assert link in hrefs
    assert page.locator(".diagram").count() >= (1 if path == "/strategy" else 0)


def test_the_game_page_links_to_both_pages(page):
    load(page)
    page.get_by_role("link", name="Strategy").click()
    page.wait_for_url("**/strategy")
    page.get_by_role("link", name="How the solver works").click()
    page.wait_for_url("**/solver")


def test_hint_and_autoplay_work_again_after_an_outage(page, console_guard):
    """The solver's module could not load while the server was down: the page said so, and the
    next click loads it, with no reload."""
    console_guard.allow(r"Failed to load resource|Failed to fetch dynamically imported module")
    put_game(page, ONLY_UP_OR_LEFT)
    load(page)
    page.context.route("**/static/js/assist.js*", lambda route: route.abort("connectionrefused"))
    page.get_by_test_id("hint").click()
    notice = page.get_by_test_id("notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("cannot be reached")

    page.context.unroute("**/static/js/assist.js*")
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("hint-arrow")).to_be_visible()
    autoplay = page.get_by_test_id("autoplay")
    autoplay.click()
    expect(autoplay).to_have_text("Stop")
    autoplay.click()
    expect(autoplay).to_have_text("Auto-play")


@pytest.mark.parametrize("button", ["hint", "autoplay"])
def test_the_solver_says_why_it_does_nothing_on_a_finished_game(page, button):
    put_game(page, [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]], score=100, moves=50)
    load(page)
    expect(page.get_by_test_id("try-again")).to_be_visible()
    page.get_by_test_id(button).click(force=True)  # beside the overlay, not under it
    notice = page.get_by_test_id("notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("start a new one")
    expect(page.get_by_test_id("autoplay")).to_have_text("Auto-play")
