"""Undo on the game page: its button and keys (U, Ctrl+Z), after the moves on their way, in both languages."""

import pytest
from playwright.sync_api import expect

from app.engine import pack
from app.engine.sliding import valid_moves
from tests.support.game_page import MoveTraffic, dom_board, dom_score, load, seed_game, server_state, wait_idle

pytestmark = pytest.mark.e2e


def press_a_move(page):
    """Press a key that moves the board shown; the state before it."""
    before = server_state(page)
    page.keyboard.press(f"Arrow{valid_moves(pack(before['board']))[0].capitalize()}")
    wait_idle(page)
    assert server_state(page)["moves"] == before["moves"] + 1
    return before


def assert_shows(page, state):
    """Once the page has the game at ``state``'s count (undo's module may still be loading), it is ``state``."""
    page.wait_for_function("m => JSON.parse(localStorage.getItem('gameState')).moves === m", arg=state["moves"])
    wait_idle(page)
    now = server_state(page)
    assert (now["board"], now["moves"], now["score"]) == (state["board"], state["moves"], state["score"])
    assert dom_board(page) == state["board"] and dom_score(page) == state["score"]


@pytest.mark.parametrize("language, label", [("en", "Undo"), ("cs", "Zpět")])
def test_u_ctrl_z_and_the_button_take_moves_back(page, language, label):
    seed_game(page, 61)
    page.goto(f"/language/{language}?next=/")
    wait_idle(page)
    button = page.get_by_role("button", name=label, exact=True)
    expect(button).to_have_attribute("aria-disabled", "true")  # no move yet

    first = press_a_move(page)
    second = press_a_move(page)
    third = press_a_move(page)
    expect(button).to_have_attribute("aria-disabled", "false")
    page.keyboard.press("u")
    wait_idle(page)
    assert_shows(page, third)
    page.keyboard.press("Control+z")
    wait_idle(page)
    assert_shows(page, second)
    button.click()
    wait_idle(page)
    assert_shows(page, first)
    expect(button).to_have_attribute("aria-disabled", "true")  # back at the start


def test_nothing_to_undo_is_said(page):
    seed_game(page, 62)
    load(page)
    page.get_by_test_id("undo").click(force=True)  # aria-disabled: Playwright would wait for it to be enabled
    notice = page.get_by_test_id("notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("undo goes back up to 5 moves")


def test_the_sixth_undo_is_refused_and_said(page, console_guard):
    console_guard.allow(r"status of 409")  # the server's refusal of the sixth
    seed_game(page, 63)
    load(page)
    states = [press_a_move(page) for _ in range(6)]
    for state in reversed(states[1:]):  # one at a time: a key pressed while an undo is on its way is refused
        page.keyboard.press("u")
        assert_shows(page, state)
    page.keyboard.press("u")
    expect(page.get_by_test_id("notice")).to_contain_text("undo goes back up to 5 moves")
    expect(page.get_by_test_id("undo")).to_have_attribute("aria-disabled", "true")
    assert_shows(page, states[1])


def test_undo_waits_for_the_moves_on_their_way(page):
    traffic = MoveTraffic(page, latency_ms=400)
    seed_game(page, 64)
    load(page)
    for key in ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"]:
        traffic.press(key)
    page.keyboard.press("u")  # the moves on their way are played first, then the last one taken back
    wait_idle(page, timeout=30_000)
    page.wait_for_timeout(300)
    wait_idle(page)
    state = server_state(page)
    played = sum(len(batch) for batch in traffic.batches)
    assert played >= 2 and state["moves"] >= 1
    assert dom_board(page) == state["board"] and dom_score(page) == state["score"]
