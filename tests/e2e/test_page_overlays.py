"""Win and game-over overlays, and that no move is sent while one is up."""

import pytest
from playwright.sync_api import expect

from tests.support.game_page import (
    ONE_MERGE_FROM_WIN,
    dom_best,
    dom_board,
    dom_score,
    lines_of,
    load,
    move_requests,
    put_game,
    server_state,
    wait_idle,
)

pytestmark = pytest.mark.e2e

# ArrowLeft makes 2048 and leaves a full board with no equal neighbours, whatever spawns.
WIN_AND_OVER = [
    [1024, 1024, 8, 16],
    [32, 64, 128, 256],
    [8, 16, 32, 64],
    [32, 64, 128, 256],
]

# ArrowLeft merges the 64s, the spawn (2 or 4) fills the last cell and nothing can move.
ONE_MOVE_FROM_OVER = [
    [2, 4, 8, 16],
    [4, 8, 16, 32],
    [2, 4, 8, 16],
    [64, 64, 256, 512],
]


def overlay_buttons(page):
    return {
        name: page.get_by_test_id(name).is_visible()
        for name in ("keep-playing", "overlay-new-game", "try-again")
    }


def test_win_overlay_then_keep_playing(page):
    put_game(page, ONE_MERGE_FROM_WIN, score=20000, moves=900)
    load(page)
    message = page.get_by_test_id("game-message")
    expect(message).to_be_hidden()

    page.keyboard.press("ArrowLeft")
    expect(message).to_be_visible()
    expect(message).to_contain_text("You win!")
    assert overlay_buttons(page) == {"keep-playing": True, "overlay-new-game": True, "try-again": False}
    wait_idle(page)
    assert dom_board(page)[0][0] == 2048
    assert dom_score(page) == 22048 == dom_best(page)
    expect(page.locator("#announcer")).to_contain_text("You win!")

    sent = move_requests(page)
    won_board = dom_board(page)
    page.keyboard.press("ArrowRight")  # not sent while the overlay is up
    page.keyboard.press("ArrowDown")
    wait_idle(page)
    assert sent == []
    assert dom_board(page) == won_board

    page.get_by_test_id("keep-playing").click()
    expect(message).to_be_hidden()
    wait_idle(page)
    assert server_state(page)["keep_playing"] is True
    page.keyboard.press("ArrowRight")
    wait_idle(page)
    assert len(sent) == 1
    board = dom_board(page)
    assert 2048 in board[0][2:]  # the same game went on (a tile spawned in row 0 stops it at column 2)
    assert board == server_state(page)["board"] and server_state(page)["moves"] == 902


def test_winning_move_that_ends_the_game_offers_only_new_game(page):
    put_game(page, WIN_AND_OVER, score=30000, moves=1200)
    load(page)
    page.keyboard.press("ArrowLeft")
    message = page.get_by_test_id("game-message")
    expect(message).to_be_visible()
    expect(message).to_contain_text("You win!")
    assert overlay_buttons(page) == {"keep-playing": False, "overlay-new-game": True, "try-again": False}
    wait_idle(page)
    state = server_state(page)
    assert state["won"] and state["over"]

    page.get_by_test_id("overlay-new-game").click()
    expect(message).to_be_hidden()
    wait_idle(page)
    assert dom_score(page) == 0
    assert dom_best(page) == 32048
    assert sum(v > 0 for row in dom_board(page) for v in row) == 2


def test_game_over_then_try_again(page):
    put_game(page, ONE_MOVE_FROM_OVER, score=3000, moves=300)
    load(page)
    page.keyboard.press("ArrowLeft")
    message = page.get_by_test_id("game-message")
    expect(message).to_be_visible()
    expect(message).to_contain_text("Game over!")
    assert overlay_buttons(page) == {"keep-playing": False, "overlay-new-game": False, "try-again": True}
    wait_idle(page)
    assert server_state(page)["over"] is True
    expect(page.locator("#announcer")).to_contain_text("Game over!")

    sent = move_requests(page)
    for key in ["ArrowUp", "ArrowDown", "ArrowRight"]:
        page.keyboard.press(key)
    wait_idle(page)
    assert sent == []

    page.get_by_test_id("try-again").click()
    expect(message).to_be_hidden()
    wait_idle(page)
    assert dom_score(page) == 0
    assert dom_best(page) == 3128
    state = server_state(page)
    assert not state["over"] and state["moves"] == 0
    assert dom_board(page) == state["board"]


def test_game_over_shows_the_final_score_a_new_best_and_shares_by_the_system_sheet(page):
    page.add_init_script("localStorage.setItem('bestScore', '3000'); localStorage.setItem('2048-record-name', 'Eva')")
    # a phone's share sheet: what it was given
    page.add_init_script("navigator.share = async (data) => { window.__shared = data; };")
    put_game(page, ONE_MOVE_FROM_OVER, score=3000, moves=300)
    load(page)
    page.keyboard.press("ArrowLeft")
    message = page.get_by_test_id("game-message")
    expect(message).to_be_visible()
    expect(page.get_by_test_id("final-score")).to_have_text("Final score: 3,128 New best!")
    share = page.get_by_test_id("overlay-share")
    expect(share).to_be_in_viewport()
    share.click()  # the menu, which says what sharing does: the name kept from last time
    expect(page.get_by_test_id("share-note")).to_contain_text("public hall of fame")
    expect(page.locator("#record-name")).to_have_value("Eva")
    page.get_by_test_id("share-listed").click()
    link = page.get_by_test_id("record-link")
    expect(link).to_be_visible()
    page.wait_for_function("() => window.__shared")
    assert page.evaluate("() => window.__shared.url") == link.inner_text()

    page.evaluate("() => { window.__shared = null; }")
    page.get_by_test_id("share-listed").click()  # again: the same record, the same link
    page.wait_for_function("() => window.__shared")
    expect(page.get_by_test_id("record-link")).to_have_text(link.inner_text())
    assert page.evaluate("() => window.__shared.url") == link.inner_text()


def test_game_over_below_the_best_says_no_new_best_and_copies_the_link(page, context):
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.add_init_script("localStorage.setItem('bestScore', '9000'); localStorage.setItem('2048-record-name', 'Eva')")
    put_game(page, ONE_MOVE_FROM_OVER, score=3000, moves=300)
    load(page)
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("final-score")).to_have_text("Final score: 3,128")
    page.get_by_test_id("overlay-share").click()
    page.get_by_test_id("share-listed").click()
    link = page.get_by_test_id("record-link")
    expect(link).to_be_visible()
    expect(page.locator("#record-menu [role=status]")).to_contain_text("Link copied.")
    assert page.evaluate("() => navigator.clipboard.readText()") == link.inner_text()


PHONE_WIDTHS = [320, 390]


@pytest.mark.parametrize("language, new_best", [("en", "New best!"), ("cs", "Nový rekord!")])
@pytest.mark.parametrize("width", PHONE_WIDTHS)
def test_on_a_phone_the_game_over_box_keeps_new_best_in_one_piece_and_share_asks_for_the_name(
    page, base_url, language, new_best, width
):
    page.set_viewport_size({"width": width, "height": 740})
    page.context.add_cookies([{"name": "lang", "value": language, "url": base_url}])
    put_game(page, ONE_MOVE_FROM_OVER, score=3000, moves=300)
    load(page)
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("final-score")).to_contain_text(new_best)
    assert lines_of(page, "#final-score", new_best) == 1
    page.get_by_test_id("overlay-share").click()
    name = page.locator("#record-name")
    expect(name).to_be_focused()  # the name it will be shared under, in view, to type
    expect(name).to_be_in_viewport()
    page.keyboard.type("Eva")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("record-link")).to_be_visible()


def test_the_win_box_gives_the_score_so_far_and_the_solver_waits_for_keep_going(page):
    put_game(page, ONE_MERGE_FROM_WIN, score=20000, moves=900)
    load(page)
    hint, autoplay = page.get_by_test_id("hint"), page.get_by_test_id("autoplay")
    expect(hint).to_be_enabled()
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("keep-playing")).to_be_visible()
    final = page.get_by_test_id("final-score")
    expect(final).to_contain_text("Score: 22,048")  # the game goes on: no final score yet
    expect(final).not_to_contain_text("Final")
    for button in (hint, autoplay):  # disabled, and said so, while the game cannot move
        expect(button).to_be_disabled()
        expect(button).to_have_attribute("aria-disabled", "true")
    hint.click(force=True)
    expect(page.get_by_test_id("notice")).to_contain_text("Keep going")
    page.get_by_test_id("keep-playing").click()
    expect(hint).to_be_enabled()
    expect(autoplay).to_be_enabled()


def test_hint_and_auto_play_are_disabled_on_a_game_that_is_over_and_again_usable_after_a_new_one(page):
    put_game(page, ONE_MOVE_FROM_OVER, score=3000, moves=300)
    load(page)
    hint, autoplay = page.get_by_test_id("hint"), page.get_by_test_id("autoplay")
    expect(hint).to_be_enabled()
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("final-score")).to_contain_text("Final score: 3,128")
    expect(page.get_by_role("button", name="Hint", disabled=True)).to_be_visible()
    expect(page.get_by_role("button", name="Auto-play", disabled=True)).to_be_visible()
    page.get_by_test_id("try-again").click()
    wait_idle(page)
    expect(hint).to_be_enabled()
    expect(autoplay).to_be_enabled()
