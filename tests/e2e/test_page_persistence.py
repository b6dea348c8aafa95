"""The game is never lost: reloads, lost sessions, best score, private mode."""

import json

import pytest
from playwright.sync_api import expect

from tests.support.game_page import (
    dom_best,
    dom_board,
    dom_score,
    load,
    put_game,
    replay,
    seed_game,
    server_state,
    wait_idle,
)
from tests.support.stored_sessions import forget

pytestmark = pytest.mark.e2e

KEYS = ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "ArrowLeft"]
DIRECTIONS = ["left", "up", "right", "down", "left"]


def play(page, keys=KEYS):
    for key in keys:
        page.keyboard.press(key)
    wait_idle(page)


def local(page, key):
    return page.evaluate("key => window.localStorage.getItem(key)", key)


def test_reload_resumes_the_same_game(page):
    seed_game(page, 21)
    load(page)
    play(page)
    board, score = dom_board(page), dom_score(page)
    assert server_state(page)["moves"] > 0

    writes = []
    page.on("request", lambda r: writes.append(r.method) if r.url.endswith("/api/game") and r.method != "GET" else None)
    page.reload()
    wait_idle(page)
    assert dom_board(page) == board
    assert dom_score(page) == score
    assert writes == []  # the server had the game: nothing restored, nothing new


def test_lost_session_is_restored_from_local_storage(page):
    seed_game(page, 22)
    load(page)
    play(page)
    board, score = dom_board(page), dom_score(page)
    saved = json.loads(local(page, "gameState"))
    assert saved["board"] == board and saved["score"] == score

    page.context.clear_cookies()  # a new session: the server has no game for it
    with (
        page.expect_response(lambda r: r.url.endswith("/api/game") and r.request.method == "GET") as got,
        page.expect_request(lambda r: r.url.endswith("/api/game") and r.method == "PUT") as put,
    ):
        page.reload()
    assert got.value.json()["created"] is True
    assert put.value.post_data_json["board"] == board
    wait_idle(page)
    assert dom_board(page) == board
    assert dom_score(page) == score
    state = server_state(page)
    assert state["board"] == board and state["score"] == score
    assert state["created"] is False  # the session now holds the restored game

    play(page, ["ArrowUp", "ArrowLeft"])  # and it plays on
    assert dom_board(page) == server_state(page)["board"]


def save_and_read_record(page):
    return page.evaluate("""async () => {
        const saved = await (await fetch('/api/records', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                                          body: JSON.stringify({name: 'Ann'})})).json();
        return (await fetch(`/api/records/${saved.id}`)).json();
    }""")


def paused_with_sealed_copy(page):
    """Play a little and wait for the page to keep the sealed copy: the board and move count then."""
    load(page)
    play(page)
    moves = server_state(page)["moves"]
    kept = "moves => JSON.parse(localStorage.getItem('gameSealed') || 'null')?.moves === moves"
    page.wait_for_function(kept, arg=moves)
    return dom_board(page), moves


def test_a_lost_session_comes_back_verified_from_the_sealed_copy(page, live_app):
    """Once play pauses, the page keeps the server's sealed copy of its game; put back with it, a
    game the server forgot is still one it can vouch for (a record of it is verified)."""
    board, moves = paused_with_sealed_copy(page)
    forget(live_app, next(c["value"] for c in page.context.cookies() if c["name"] == "session"))
    with page.expect_request(lambda r: r.url.endswith("/api/game") and r.method == "PUT") as put:
        page.reload()
    assert put.value.post_data_json["token"] == json.loads(local(page, "gameSealed"))["token"]
    wait_idle(page)
    assert dom_board(page) == board == server_state(page)["board"]
    record = save_and_read_record(page)
    assert record["verified"] and record["restored"] and record["moves"] == moves


def test_a_lost_cookie_whose_session_lives_on_plays_on_as_a_fork(page):
    """The browser lost its cookie while the server still holds the game in its session: the page's
    copy comes back as a fork (the same board, tiles of its own, not verified), and play goes on."""
    board, _moves = paused_with_sealed_copy(page)
    page.context.clear_cookies()
    page.reload()
    wait_idle(page)
    assert dom_board(page) == board == server_state(page)["board"]
    play(page, ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"])
    assert dom_board(page) == server_state(page)["board"] != board
    record = save_and_read_record(page)
    assert not record["verified"] and record["replay"]["start"]["board"] == board


def test_best_score_is_live_kept_by_new_game_and_reload(page):
    board = [[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]
    put_game(page, board, score=500, moves=40)
    load(page)
    assert dom_score(page) == 500 and dom_best(page) == 500
    assert local(page, "bestScore") == "500"

    page.keyboard.press("ArrowLeft")  # 2+2: the score passes the best, which follows live
    wait_idle(page)
    assert dom_score(page) == 504 and dom_best(page) == 504
    assert json.loads(local(page, "bestScore")) == 504

    page.get_by_test_id("new-game").click()
    page.get_by_role("dialog").get_by_role("button", name="New game").click()
    expect(page.get_by_test_id("score")).to_have_text("0")
    wait_idle(page)
    assert dom_best(page) == 504
    assert sum(v > 0 for row in dom_board(page) for v in row) == 2

    page.reload()
    wait_idle(page)
    assert dom_score(page) == 0 and dom_best(page) == 504


BLOCK_STORAGE = """
Object.defineProperty(window, 'localStorage', {
  configurable: true,
  get() { throw new DOMException('The operation is insecure.', 'SecurityError'); },
});
"""


def test_private_mode_without_local_storage_still_plays(page, playwright, base_url):
    page.add_init_script(BLOCK_STORAGE)
    seed_game(page, 23)
    load(page)
    play(page)
    expected = replay(playwright, base_url, 23, DIRECTIONS)
    assert server_state(page)["moves"] == expected["moves"] > 0
    assert dom_board(page) == expected["board"]
    assert dom_score(page) == expected["score"] == dom_best(page)
    page.reload()
    wait_idle(page)
    assert dom_board(page) == expected["board"]
