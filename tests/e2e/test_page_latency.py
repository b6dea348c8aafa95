"""On a slow or troubled network: bursts arrive whole and in order, windows stay in step."""

import json
import random

import pytest
from playwright.sync_api import expect

from app.engine import pack
from app.engine.sliding import valid_moves
from tests.support.browser import emulate_round_trip
from tests.support.game_page import (
    ALL_KEYS,
    dom_best,
    dom_board,
    dom_score,
    load,
    move_requests,
    put_game,
    replay,
    seed_game,
    server_state,
    wait_idle,
)

pytestmark = pytest.mark.e2e

KEY_FOR = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}
STORE_DOWN = {"error": {"code": "store_unavailable", "message": "down"}}


def saved_game(page):
    return json.loads(page.evaluate("() => window.localStorage.getItem('gameState')"))


@pytest.mark.parametrize("seed", [41, 42])
def test_a_burst_under_latency_ends_as_a_replay_of_the_same_keys(page, playwright, base_url, seed):
    rng = random.Random(seed)
    keys = [rng.choice(sorted(ALL_KEYS)) for _ in range(25)]
    seed_game(page, seed)
    load(page)
    emulate_round_trip(page.context.new_cdp_session(page), 150)
    sent = move_requests(page)
    for key in keys:
        page.keyboard.press(key, delay=10)
        page.wait_for_timeout(rng.choice([0, 20, 40, 80]))
    wait_idle(page, timeout=30_000)

    expected = replay(playwright, base_url, seed, [ALL_KEYS[k] for k in keys])
    assert len(sent) < len(keys)  # keys pressed during a round trip shared one
    server = server_state(page)
    assert (server["board"], server["score"], server["moves"]) == (
        expected["board"],
        expected["score"],
        expected["moves"],
    )
    assert dom_board(page) == expected["board"] and dom_score(page) == expected["score"]
    saved = saved_game(page)
    assert (saved["board"], saved["score"], saved["moves"]) == (expected["board"], expected["score"], expected["moves"])


def test_keys_sent_ahead_go_after_the_batch_out_and_again_if_the_server_did_not_play_them(
    page, playwright, base_url, console_guard
):
    """The next batch does not wait for the last one's answer; one the server refused (as when it
    reaches the server first) goes again, in its place, and the game is the keys played in order."""
    console_guard.allow(r"status of 409")
    rng = random.Random(8)
    keys = [rng.choice(sorted(KEY_FOR.values())) for _ in range(12)]
    seed_game(page, 8)
    sent, refused = [], []

    def refuse_the_first_sent_ahead(route):
        body = route.request.post_data_json
        sent.append(body)
        if "after" in body and not refused:
            refused.append(body)
            route.fulfill(status=409, json={"error": {"code": "out_of_sync", "message": "not played"},
                                            "state": page.request.get("/api/game").json()})  # fmt: skip
        else:
            route.continue_()

    page.context.route("**/api/game/moves", refuse_the_first_sent_ahead)
    load(page)
    emulate_round_trip(page.context.new_cdp_session(page), 150)
    for key in keys:
        page.keyboard.press(key)
        page.wait_for_timeout(30)
    wait_idle(page, timeout=30_000)

    assert refused and any("after" in body for body in sent[sent.index(refused[0]) + 1 :])
    ids = [body["id"] for body in sent]
    assert all(body["after"] in ids[:i] for i, body in enumerate(sent) if "after" in body)
    expected = replay(playwright, base_url, 8, [ALL_KEYS[k] for k in keys])
    fields = ("board", "score", "moves")
    assert {k: server_state(page)[k] for k in fields} == {k: expected[k] for k in fields}
    assert dom_board(page) == expected["board"]


def test_a_key_that_moves_nothing_sends_nothing(page):
    put_game(page, [[2, 0, 0, 0], [4, 0, 0, 0], [8, 0, 0, 0], [2, 0, 0, 0]], moves=3)
    load(page)
    sent = move_requests(page)
    for key in ["ArrowLeft", "a", "h", "ArrowLeft"]:
        page.keyboard.press(key)
    wait_idle(page)
    assert sent == []
    page.keyboard.press("ArrowRight")  # the control: a key that moves is sent
    wait_idle(page)
    assert len(sent) == 1 and server_state(page)["moves"] == 4


def test_a_lost_answer_is_retried_without_playing_the_move_twice(page, console_guard):
    console_guard.allow(r"Failed to load resource")
    put_game(page, [[2, 0, 0, 2], [0] * 4, [0] * 4, [0] * 4], score=8, moves=5)
    lost = []

    def answer_lost_once(route):
        if not lost:
            lost.append(route.fetch())  # the server plays the move...
            route.abort("connectionreset")  # ...and its answer never arrives
        else:
            route.continue_()

    page.context.route("**/api/game/moves", answer_lost_once)
    load(page)
    page.keyboard.press("ArrowLeft")
    wait_idle(page, timeout=20_000)
    server = server_state(page)
    assert len(lost) == 1 and lost[0].status == 200
    assert (server["moves"], server["score"]) == (6, 12)  # the retry was refused: played once
    assert dom_board(page) == server["board"] and saved_game(page)["moves"] == 6


def test_while_the_store_is_down_the_page_shows_the_saved_game_and_plays_on_once_it_is_back(page, console_guard):
    console_guard.allow(r"Failed to load resource")
    board = [[2, 2, 0, 0], [0, 4, 0, 0], [0, 0, 8, 0], [0, 0, 0, 0]]
    before = put_game(page, board, score=300, moves=30)
    load(page)
    assert dom_best(page) == 300

    down = [True]
    page.context.route(
        "**/api/**",
        lambda route: (
            route.fulfill(status=503, headers={"Retry-After": "0"}, json=STORE_DOWN) if down[0] else route.continue_()
        ),
    )
    page.reload()
    expect(page.get_by_test_id("notice")).to_be_visible()
    assert dom_board(page) == before["board"] and dom_best(page) == 300  # the saved game, at once
    page.keyboard.press("ArrowLeft")  # refused: the game may never have the board it would show
    page.wait_for_timeout(300)
    assert dom_board(page) == before["board"] and dom_score(page) == 300
    assert server_state(page)["moves"] == 30

    down[0] = False
    wait_idle(page, timeout=30_000)
    expect(page.get_by_test_id("notice")).to_be_hidden()
    page.keyboard.press("ArrowLeft")  # 2+2: played now
    wait_idle(page)
    after = server_state(page)
    assert after["moves"] == 31 and after["score"] == 304
    assert dom_board(page) == after["board"] and saved_game(page)["moves"] == 31


def test_a_second_window_follows_the_first_without_polling(new_context, console_guard):
    context = console_guard.watch(new_context())
    first, second = context.new_page(), context.new_page()
    seed_game(first, 45)
    load(first)
    load(second)
    first.bring_to_front()
    asked = []
    second.on("request", lambda r: asked.append(r.url) if "/api/" in r.url else None)
    for key in ["ArrowLeft", "ArrowUp", "ArrowRight"]:
        first.keyboard.press(key)
        wait_idle(first)
    expected = server_state(first)["board"]
    second.wait_for_function(
        """expected => [...document.querySelectorAll('#tiles [data-value]')].length ===
            expected.flat().filter(Boolean).length
          && expected.every((row, r) => row.every((v, c) => !v ||
            document.querySelector(`#tiles [data-row="${r}"][data-col="${c}"][data-value="${v}"]`)))""",
        arg=expected,
    )
    assert dom_board(second) == expected
    told = len(asked)
    assert 1 <= told <= 3  # asked the server when the first window saved a move...
    second.wait_for_timeout(1500)
    assert len(asked) == told  # ...and not otherwise


def test_a_move_made_elsewhere_is_shown_and_the_next_key_plays_on_it(page, console_guard):
    console_guard.allow(r"status of 409")  # the refusal of the key aimed at the old board
    seed_game(page, 46)
    load(page)
    elsewhere = page.context.request  # the same session, not through this page
    elsewhere.post("/api/game/moves", data={"direction": "down"})
    elsewhere.post("/api/game/moves", data={"direction": "left"})
    page.keyboard.press("ArrowUp")  # aimed at a board that is gone: refused, the server's shown
    wait_idle(page)
    assert dom_board(page) == server_state(page)["board"]
    shown = server_state(page)
    direction = next(d for d in ("right", "up", "left", "down") if d in valid_moves(pack(shown["board"])))
    page.keyboard.press(KEY_FOR[direction])  # pressed after: played
    wait_idle(page)
    after = server_state(page)
    assert dom_board(page) == after["board"] and dom_score(page) == after["score"]
    assert after["moves"] == shown["moves"] + 1


def troubled_hints(page, trouble, retry_after):
    """Answer the page's next hints as ``trouble`` lists: "503" (the store is down) or "forget"
    (the server forgets the session, so the hint is a 404); later hints pass. Returns the steps
    not yet taken (the list, emptied as hints come)."""

    def answer(route):
        step = trouble.pop(0) if trouble else "pass"
        if step == "503":
            route.fulfill(status=503, headers={"Retry-After": str(retry_after)}, json=STORE_DOWN)
            return
        if step == "forget":
            page.context.clear_cookies()
        route.continue_()

    page.context.route("**/api/game/hint", answer)
    return trouble


def test_auto_play_rides_out_server_trouble_and_restores_a_forgotten_game(page, console_guard):
    console_guard.allow(r"Failed to load resource")
    seed_game(page, 47)
    load(page)
    for key in ["ArrowDown", "ArrowLeft", "ArrowDown", "ArrowLeft"]:
        page.keyboard.press(key)
        wait_idle(page)
    played = server_state(page)
    assert played["moves"] >= 3
    trouble = troubled_hints(page, ["503", "503", "forget"], retry_after=0)
    page.get_by_test_id("autoplay").click()
    expect(page.get_by_test_id("notice")).to_be_visible()
    target = played["moves"] + 3
    page.wait_for_function(f"() => JSON.parse(localStorage.getItem('gameState')).moves >= {target}", timeout=30_000)
    page.get_by_test_id("autoplay").click()
    wait_idle(page)
    expect(page.get_by_test_id("notice")).to_be_hidden()
    after = server_state(page)
    assert not trouble and after["moves"] >= target  # the game went on from where it was...
    assert after["score"] >= played["score"] and dom_board(page) == after["board"]  # ...not restarted


def test_a_hint_waits_out_server_trouble_then_shows_its_arrow(page, console_guard):
    console_guard.allow(r"Failed to load resource")
    put_game(page, [[2, 0, 0, 0], [4, 0, 0, 0], [8, 0, 0, 0], [16, 0, 0, 0]], score=40, moves=9)
    load(page)
    troubled_hints(page, ["503", "forget"], retry_after=1)
    hint = page.get_by_test_id("hint")
    hint.click()
    expect(page.get_by_test_id("notice")).to_be_visible()
    expect(hint).to_have_attribute("aria-busy", "true")
    expect(page.get_by_test_id("hint-arrow")).to_have_attribute("data-direction", "right", timeout=15_000)
    expect(page.get_by_test_id("notice")).to_be_hidden()
    expect(hint).not_to_have_attribute("aria-busy", "true")
    assert server_state(page)["moves"] == 9 and server_state(page)["score"] == 40  # restored, not new


def test_a_window_that_comes_back_asks_the_server_once(page, console_guard):
    seed_game(page, 47)
    load(page)
    asked = []
    page.on("request", lambda r: asked.append(r.method) if r.url.endswith("/api/game") else None)
    # What a browser fires when its window comes back into view and focus (headless fires neither).
    page.evaluate("""() => {
        document.dispatchEvent(new Event('visibilitychange'));
        window.dispatchEvent(new Event('focus'));
    }""")
    page.wait_for_timeout(1000)
    assert asked == ["GET"]
