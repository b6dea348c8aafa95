"""Network trouble and reduced motion: the board always ends equal to the server's."""

import pytest
from playwright.sync_api import expect

from app.engine import pack
from app.engine.sliding import valid_moves
from tests.support.game_page import (
    dom_board,
    dom_score,
    load,
    replay,
    seed_game,
    server_state,
    wait_idle,
)

pytestmark = pytest.mark.e2e

KEYS = ["ArrowLeft", "w", "d", "j", "ArrowLeft", "k", "ArrowRight", "s"]
DIRECTIONS = ["left", "up", "right", "down", "left", "up", "right", "down"]


def test_failed_requests_are_retried_and_input_kept(page, playwright, base_url, console_guard):
    console_guard.allow(r"Failed to load resource")  # the browser's own line for each failure
    seed_game(page, 31)

    # What happens to successive move requests: lost on the way, answered 503 or 429, or
    # applied by the server with the answer lost (the page must not apply it twice).
    plan = ["abort", "503", "applied-then-lost", "abort", "429"]
    outcomes = []

    def flaky(route):
        step = plan.pop(0) if plan else "pass"
        outcomes.append(step)
        if step == "abort":
            route.abort("internetdisconnected")
        elif step == "503":
            route.fulfill(status=503, json={"error": {"code": "store_unavailable", "message": "down"}})
        elif step == "429":
            route.fulfill(
                status=429,
                headers={"Retry-After": "0"},
                json={"error": {"code": "rate_limited", "message": "slow down"}},
            )
        elif step == "applied-then-lost":
            route.fetch()  # the server plays the move...
            route.abort("connectionreset")  # ...and the answer never arrives
        else:
            route.continue_()

    page.context.route("**/api/game/moves", flaky)
    load(page)
    page.keyboard.press(KEYS[0])  # its request meets every trouble of the plan in turn
    notice = page.get_by_test_id("notice")
    expect(notice).to_be_visible()
    wait_idle(page, timeout=30_000)
    expect(notice).to_be_hidden()
    for key in KEYS[1:]:
        page.keyboard.press(key)
    wait_idle(page)

    assert outcomes[:5] == ["abort", "503", "applied-then-lost", "abort", "429"]
    expected = replay(playwright, base_url, 31, DIRECTIONS)
    assert dom_board(page) == expected["board"]
    assert dom_score(page) == expected["score"]
    assert server_state(page)["moves"] == expected["moves"]  # every move applied exactly once


def test_reduced_motion_ends_on_the_right_board(page, playwright, base_url):
    page.emulate_media(reduced_motion="reduce")
    seed_game(page, 32)
    load(page)
    for key in KEYS:
        page.keyboard.press(key)
    wait_idle(page)
    expected = replay(playwright, base_url, 32, DIRECTIONS)
    assert dom_board(page) == expected["board"]
    assert dom_score(page) == expected["score"]
    tile = page.locator("[data-testid=board] [data-value]").first
    assert tile.evaluate("el => getComputedStyle(el).transitionDuration") == "0s"
    assert tile.evaluate("el => getComputedStyle(el.firstElementChild).animationName") == "none"
    assert page.locator(".score-addition").count() == 0


def test_an_outage_shows_no_board_the_game_never_had_and_play_resumes_exactly(page, console_guard):
    """Keys pressed after a request failed are refused: the board shows the server's game plus the
    one batch on its way, and once the server answers, the page's board is the server's."""
    console_guard.allow(r"Failed to load resource")
    seed_game(page, 33)
    load(page)
    page.keyboard.press("ArrowLeft")
    wait_idle(page)
    before = server_state(page)

    page.context.route("**/api/**", lambda route: route.abort("connectionrefused"))
    page.keyboard.press("ArrowRight")  # its slide shows; its request fails
    notice = page.get_by_test_id("notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Play resumes when it is back")
    held = dom_board(page)
    for key in ["ArrowDown", "ArrowLeft", "ArrowUp", "ArrowRight"] * 2 + ["ArrowDown"]:
        page.keyboard.press(key)
        assert dom_board(page) == held  # refused: nothing slides blind
    page.wait_for_timeout(300)
    assert dom_board(page) == held

    page.context.unroute("**/api/**")
    wait_idle(page, timeout=30_000)
    expect(notice).to_be_hidden()
    after = server_state(page)
    assert after["moves"] == before["moves"] + 1  # the one move on its way, played once
    assert dom_board(page) == after["board"] and dom_score(page) == after["score"]
    assert all(held[r][c] == after["board"][r][c] for r in range(4) for c in range(4) if held[r][c])
    direction = valid_moves(pack(after["board"]))[0]
    page.keyboard.press(f"Arrow{direction.capitalize()}")
    wait_idle(page)
    assert server_state(page)["moves"] == before["moves"] + 2  # play resumed
