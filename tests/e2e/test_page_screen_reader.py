"""The board a screen reader reads: a table in reading order, a message after every move, the
whole board on demand, and a whole game played by keyboard from the accessibility tree alone."""

import json
import re

import pytest
from playwright.sync_api import expect

from app.engine import pack
from app.engine.sliding import move, valid_moves
from tests.support.game_page import load, put_game, seed_game, server_state, wait_idle

pytestmark = pytest.mark.e2e

KEY_FOR = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}


def messages(page):
    return json.loads(page.locator("#page-data").text_content())["messages"]


def board_from_tree(page, empty):
    """The board as the accessibility tree gives it: the table's rows, then their cells."""
    rows = page.get_by_role("table").get_by_role("row").all()[1:]  # the first holds the column headers
    cells = [row.get_by_role("cell").all_text_contents() for row in rows]
    return [[0 if text == empty else int(re.sub(r"\D", "", text)) for text in row] for row in cells]


def said(page):
    return page.locator("#announcer").text_content()


@pytest.mark.parametrize("locale", ["en-GB", "cs-CZ"])
def test_a_whole_game_played_by_keyboard_from_the_accessibility_tree(new_context, console_guard, locale):
    page = console_guard.watch(new_context(locale=locale)).new_page()
    seed_game(page, 282)  # played down-left-right-up first, over in 62 moves (seed 48 took 293, a minute)
    load(page)
    text = messages(page)
    assert page.get_by_role("table").get_by_role("rowheader").count() == 4
    assert page.get_by_role("table").get_by_role("columnheader").count() == 4
    moves = 0
    while True:
        board = board_from_tree(page, text["empty"])
        assert board == server_state(page)["board"]  # the table keeps up with the game
        possible = valid_moves(pack(board))
        if not possible:
            break
        direction = next(d for d in ("down", "left", "right", "up") if d in possible)
        page.keyboard.press(KEY_FOR[direction])
        wait_idle(page)
        moves += 1
        if moves % 25 == 1:  # every move is told: its direction first
            expect(page.locator("#announcer")).to_contain_text(text["directions"][direction].capitalize())
    assert moves > 50
    expect(page.locator("html")).to_have_attribute("lang", locale[:2])
    expect(page.locator("#announcer")).to_contain_text(text["over"])


def test_every_move_is_told_briefly_and_a_key_that_moves_nothing_too(page):
    put_game(page, [[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [4, 0, 0, 0]], score=100, moves=10)
    load(page)
    page.keyboard.press("ArrowLeft")
    wait_idle(page)
    state = server_state(page)
    told = said(page)
    assert told.startswith("Left. Merged: 4. New tile ") and told.endswith(" Score: 104.")
    new = re.search(r"New tile (\d+) in row (\d), column (\d)\.", told)
    value, row, col = map(int, new.groups())
    assert state["board"][row - 1][col - 1] == value
    page.keyboard.press("ArrowLeft")
    board = pack(state["board"])
    if move(board, "left")[0] == board:  # the new tile could not slide left either
        expect(page.locator("#announcer")).to_have_text("Nothing moves that way.")


def test_the_whole_board_is_read_on_demand(page):
    put_game(page, [[2, 0, 0, 4], [0] * 4, [0, 8, 0, 0], [0] * 4], score=12, moves=3)
    load(page)
    page.keyboard.press("Tab")
    button = page.get_by_role("button", name="Read the board")
    button.focus()
    expect(button).to_be_visible()  # shown while it has the focus
    button.press("Enter")
    expect(page.locator("#announcer")).to_have_text(
        "Row 1: 2, empty, empty, 4. Row 2: empty, empty, empty, empty. "
        "Row 3: empty, 8, empty, empty. Row 4: empty, empty, empty, empty."
    )


def test_winning_and_auto_play_stopping_are_both_told(page):
    # Left and right both make 2048; nothing else moves.
    board = [[1024, 1024, 2, 4], [2, 4, 8, 16], [4, 8, 16, 32], [8, 16, 32, 64]]
    put_game(page, board, score=20000, moves=900)
    load(page)
    page.get_by_test_id("autoplay").click()
    # "Keep going" or, when the new tile leaves no move, only "New game": the win is told either way
    expect(page.get_by_test_id("game-message")).to_be_visible(timeout=15_000)
    expect(page.locator("#announcer")).to_contain_text("Score: 22,048. You win! Auto-play stopped.")


def test_stopping_auto_play_with_a_key_is_told_once(page):
    seed_game(page, 49)
    load(page)
    page.evaluate(
        """() => {
            window.__told = [];
            const region = document.getElementById('announcer');
            new MutationObserver(() => region.textContent && window.__told.push(region.textContent))
              .observe(region, { childList: true, characterData: true, subtree: true });
        }"""
    )
    page.get_by_test_id("autoplay").click()
    page.wait_for_function("() => JSON.parse(localStorage.getItem('gameState')).moves >= 2", timeout=20_000)
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("autoplay")).to_have_text("Auto-play")
    wait_idle(page)
    page.wait_for_timeout(300)
    told = " ".join(page.evaluate("() => window.__told"))
    assert told.count("Auto-play stopped.") == 1
