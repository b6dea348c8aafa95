"""Keyboard and focus: a button never keeps the keys, a game is never lost to a stray key."""

import pytest
from playwright.sync_api import expect

from tests.support.game_page import (
    ONE_MERGE_FROM_WIN,
    MoveTraffic,
    axe_violations,
    load,
    put_game,
    seed_game,
    server_state,
    wait_idle,
)

pytestmark = pytest.mark.e2e

OPEN = [[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def test_after_new_game_the_keys_play_on_the_board(page):
    seed_game(page, 4)
    load(page)
    page.get_by_test_id("new-game").click()  # a fresh game: nothing to lose, no question
    wait_idle(page)
    expect(page.get_by_test_id("board")).to_be_focused()
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"):  # one of them moves, whatever the board
        page.keyboard.press(key)
    wait_idle(page)
    moves = server_state(page)["moves"]
    assert moves >= 1
    for key in ("Space", "Enter"):  # stray keys now reach the board, not the button
        page.keyboard.press(key)
    wait_idle(page)
    assert server_state(page)["moves"] == moves


def test_a_game_with_moves_is_only_discarded_when_the_player_says_so(page):
    put_game(page, OPEN, score=500, moves=3)
    load(page)
    page.get_by_test_id("new-game").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    assert axe_violations(page) == []
    page.keyboard.press("ArrowLeft")  # keys while asking are not moves
    page.keyboard.press("Escape")  # the keyboard answers: keep the game
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("board")).to_be_focused()
    assert server_state(page)["moves"] == 3

    page.get_by_test_id("new-game").click()
    page.get_by_role("dialog").get_by_role("button", name="Keep playing").click()
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("board")).to_be_focused()
    assert server_state(page)["moves"] == 3

    page.get_by_test_id("new-game").focus()
    page.keyboard.press("Enter")
    expect(dialog).to_be_visible()
    page.keyboard.press("Enter")  # the safe answer has the focus
    expect(dialog).to_be_hidden()
    assert server_state(page)["moves"] == 3

    page.get_by_test_id("new-game").click()
    page.get_by_role("dialog").get_by_role("button", name="New game").click()
    expect(page.get_by_test_id("score")).to_have_text("0")
    wait_idle(page)
    expect(page.get_by_test_id("board")).to_be_focused()
    assert server_state(page)["moves"] == 0


def test_a_move_still_on_its_way_counts_as_a_game_with_moves(page):
    MoveTraffic(page, latency_ms=1500)  # the move's answer is slow to come back
    put_game(page, OPEN, moves=0)
    load(page)
    page.keyboard.press("ArrowLeft")  # the 2s merge on screen at once
    page.get_by_test_id("new-game").click()
    expect(page.get_by_role("dialog")).to_be_visible()
    page.keyboard.press("Escape")
    wait_idle(page)
    assert server_state(page)["moves"] == 1


def test_the_arrow_keys_play_after_choosing_a_speed_with_the_mouse(page):
    seed_game(page, 11)
    load(page)
    fast = page.get_by_role("group", name="Speed").get_by_role("button", name="Fast")
    fast.click()
    expect(fast).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowDown")
    wait_idle(page)
    assert server_state(page)["moves"] >= 1
    expect(fast).to_have_attribute("aria-pressed", "true")


RING = "el => getComputedStyle(el).outlineStyle !== 'none' && getComputedStyle(el).outlineWidth !== '0px'"


def win_overlay_focus(page):
    """Which element has the focus, and whether a focus ring is drawn around it."""
    return page.evaluate(
        f"() => ({{id: document.activeElement.dataset.testid, ring: ({RING})(document.activeElement)}})"
    )


def test_touch_players_see_no_focus_ring_on_the_overlay(new_context, console_guard):
    page = console_guard.watch(new_context(**PHONE)).new_page()
    put_game(page, ONE_MERGE_FROM_WIN, score=900, moves=90)
    load(page)
    box = page.get_by_test_id("board").bounding_box()
    cdp = page.context.new_cdp_session(page)
    x, y = box["x"] + box["width"] * 0.8, box["y"] + box["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 6):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x - 30 * step, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    expect(page.get_by_test_id("keep-playing")).to_be_visible()
    wait_idle(page)
    assert win_overlay_focus(page) == {"id": "keep-playing", "ring": False}
    page.get_by_test_id("keep-playing").tap()
    expect(page.get_by_test_id("game-message")).to_be_hidden()
    assert win_overlay_focus(page) == {"id": "board", "ring": False}


def test_keyboard_players_keep_the_focus_ring_on_the_overlay(page):
    put_game(page, ONE_MERGE_FROM_WIN, score=900, moves=90)
    load(page)
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("keep-playing")).to_be_visible()
    wait_idle(page)
    assert win_overlay_focus(page) == {"id": "keep-playing", "ring": True}
