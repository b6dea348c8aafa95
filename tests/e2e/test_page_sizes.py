"""Boards of every size on the page: New game's size choice, by keys on a laptop and by swipes on a
phone, in English and Czech; the board, its tiles, the screen reader's table and the spoken moves of
the state's size; the size kept over a reload, the best score kept per size, the win at the size's
goal; records, replays and statistics of a size."""

import json
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_page_touch import VECTORS, swipe
from tests.e2e.test_records import open_replay, share
from tests.support.game_page import axe_violations, dom_best, dom_board, load, server_state, wait_idle

pytestmark = pytest.mark.e2e

LAPTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
KEY_FOR = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}
size_name = "{0} \N{MULTIPLICATION SIGN} {0}".format  # a size as its links and options name it
ROUND = ["left", "up", "right", "down", "up", "left", "down", "right"]


@pytest.fixture(autouse=True)
def _reduced_motion(request):
    """axe judges colours as they are, not halfway through a tile's fade-in."""
    if "page" in request.fixturenames:
        request.getfixturevalue("page").emulate_media(reduced_motion="reduce")


class Reference:
    """The same game of ``size`` played through the API in a session of its own."""

    def __init__(self, playwright, base_url, seed, size):
        self.context = playwright.request.new_context(base_url=base_url)
        response = self.context.post("/api/game", data={"seed": seed, "size": size})
        assert response.status == 201, response.text()
        self.state = response.json()

    def move(self, direction):
        response = self.context.post("/api/game/moves", data={"direction": direction})
        assert response.ok, response.text()
        self.state = response.json()
        return self.state

    def close(self):
        self.context.dispose()


def start_on_page(page, size, tap=False):
    """A new game of `size` from the page's own controls: the size chosen, then New game (tapped)."""
    page.get_by_test_id("board-size").select_option(str(size))
    new_game = page.get_by_test_id("new-game")
    new_game.tap() if tap else new_game.click()
    page.wait_for_function(f"() => document.querySelectorAll('#grid .grid-cell').length === {size * size}")
    wait_idle(page)


def seed_game(page, seed, size):
    response = page.request.post("/api/game", data={"seed": seed, "size": size})
    assert response.status == 201, response.text()


def put_game(page, board, score=0, moves=0, won=False):
    state = {"board": board, "score": score, "won": won, "over": False, "keep_playing": won, "moves": moves}
    response = page.request.put("/api/game", data=state)
    assert response.ok, response.text()


def table_board(page):
    """The board as the screen reader's table says it, one row of cells a row header."""
    rows = page.get_by_role("table").get_by_role("row").all()[1:]  # the first holds the column headers
    return [[int(re.sub(r"\D", "", text) or 0) for text in row.get_by_role("cell").all_text_contents()] for row in rows]


def overflowing_tiles(page):
    """Tiles whose number does not fit inside them."""
    return page.eval_on_selector_all(
        "#tiles .tile-inner", "els => els.filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent)"
    )


def assert_shows(page, state):
    """The page shows `state`: its tiles, its empty cells and the screen reader's table, of its size."""
    size = state["size"]
    assert dom_board(page) == state["board"]
    assert page.locator("#grid .grid-cell").count() == size * size
    table = page.get_by_role("table")
    assert table.get_by_role("rowheader").count() == size
    assert table.get_by_role("columnheader").count() == size
    assert table_board(page) == state["board"]
    assert overflowing_tiles(page) == []


@pytest.mark.parametrize("locale", ["en-GB", "cs-CZ"])
@pytest.mark.parametrize("size", [3, 6])
def test_a_game_of_the_size_chosen_is_played_by_keys(new_context, console_guard, playwright, base_url, size, locale):
    page = console_guard.watch(new_context(locale=locale, **LAPTOP)).new_page()
    page.emulate_media(reduced_motion="reduce")
    load(page)
    chooser = page.get_by_role(
        "combobox", name="Board size of a new game" if locale == "en-GB" else "Velikost hracího pole nové hry"
    )
    expect(chooser).to_have_value("4")  # the classic, until the player chooses
    start_on_page(page, size)
    state = server_state(page)
    assert (state["size"], state["goal"]) == (size, 512 if size == 3 else 2048)
    assert_shows(page, state)
    expect(page.locator("#goal")).to_have_text(str(state["goal"]))

    seed_game(page, 7, size)
    load(page)
    reference = Reference(playwright, base_url, 7, size)
    try:
        for direction in ROUND:
            before = reference.state
            page.keyboard.press(KEY_FOR[direction])
            wait_idle(page)
            after = reference.move(direction)
            assert_shows(page, after)
            if after["moves"] > before["moves"]:
                words = page.evaluate("() => JSON.parse(document.getElementById('page-data').textContent).messages")
                expect(page.locator("#announcer")).to_contain_text(words["directions"][direction].capitalize())
        assert reference.state["moves"] >= 4
        assert axe_violations(page) == []

        page.reload()  # the game and the size chosen are kept
        wait_idle(page)
        assert_shows(page, reference.state)
        expect(chooser).to_have_value(str(size))
        stored = page.evaluate("() => JSON.parse(localStorage.getItem('gameState'))")
        assert (stored["size"], stored["board"]) == (size, reference.state["board"])
    finally:
        reference.close()


@pytest.mark.parametrize("locale", ["en-GB", "cs-CZ"])
@pytest.mark.parametrize("size", [3, 6])
def test_a_game_of_any_size_is_played_by_swipes_on_a_phone(
    new_context, console_guard, playwright, base_url, size, locale
):
    context = console_guard.watch(new_context(locale=locale, **PHONE))
    page = context.new_page()
    page.emulate_media(reduced_motion="reduce")
    load(page)
    start_on_page(page, size, tap=True)
    seed_game(page, 11, size)
    load(page)
    box = page.get_by_test_id("board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390  # the whole board fits
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    cdp = context.new_cdp_session(page)
    reference = Reference(playwright, base_url, 11, size)
    try:
        for direction in ROUND:
            swipe(cdp, centre, VECTORS[direction])
            wait_idle(page)
            assert_shows(page, reference.move(direction))
        assert reference.state["moves"] >= 4
        assert axe_violations(page) == []
    finally:
        reference.close()


def test_the_best_score_is_kept_per_size_and_the_classic_one_where_it_was(page):
    page.add_init_script("localStorage.getItem('bestScore') || localStorage.setItem('bestScore', '5000')")
    put_game(page, [[2, 2, 0], [0, 0, 0], [0, 0, 0]], score=8, moves=3)
    load(page)
    assert dom_best(page) == 8  # the 3x3's best is its own, not the classic's 5000
    page.keyboard.press("ArrowLeft")
    wait_idle(page)
    assert dom_best(page) == 12
    assert page.evaluate("() => [localStorage.getItem('bestScore'), localStorage.getItem('bestScore3')]") == [
        "5000",
        "12",
    ]

    page.get_by_test_id("board-size").select_option("4")
    page.get_by_test_id("new-game").click()
    page.locator("#confirm-new-game").get_by_role("button", name="New game").click()  # the 3x3 has moves
    page.wait_for_function("() => document.querySelectorAll('#grid .grid-cell').length === 16")
    wait_idle(page)
    assert server_state(page)["size"] == 4
    assert dom_best(page) == 5000


def test_a_three_by_three_game_is_won_with_its_512(page):
    put_game(page, [[256, 256, 0], [0, 0, 0], [0, 0, 2]], score=3000, moves=200)
    load(page)
    expect(page.locator("#goal")).to_have_text("512")
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("game-message")).to_be_visible()
    expect(page.locator("#message-text")).to_have_text("You win!")
    assert server_state(page)["won"]


def test_an_eight_by_eight_board_fits_a_320_px_phone_with_its_numbers_inside_their_tiles(new_context):
    page = new_context(viewport={"width": 320, "height": 640}, has_touch=True, is_mobile=True).new_page()
    page.emulate_media(reduced_motion="reduce")
    board = [[2 ** ((r * 8 + c) % 17 + 1) for c in range(8)] for r in range(8)]
    board[7][7] = 0
    put_game(page, board, moves=5000, score=10**6, won=True)
    load(page)
    assert_shows(page, server_state(page))
    box = page.get_by_test_id("board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 320
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 320


@pytest.mark.parametrize("size", [3, 6])
def test_a_game_of_any_size_is_shared_replayed_and_reviewed_and_the_hall_of_fame_lists_one_size(page, size):
    load(page)
    start_on_page(page, size)
    for key in ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"] * 3:
        page.keyboard.press(key)
    wait_idle(page)
    state = server_state(page)
    open_replay(page, share(page))
    assert page.locator("#board .grid-cell").count() == size * size
    page.keyboard.press("End")
    expect(page.get_by_test_id("position")).to_contain_text(f"After move {state['moves']} of {state['moves']}")
    page.wait_for_timeout(400)  # the last slide's merged tiles are gone
    assert dom_board(page) == state["board"]
    assert table_board(page) == state["board"]
    page.keyboard.press("Home")  # the solver's review of the first move, on the board of its size
    expect(page.get_by_test_id("review-move")).to_contain_text("Move 1: played")
    page.get_by_test_id("find-mistakes").click()
    expect(page.get_by_test_id("review-progress")).to_have_text(re.compile("Every move is reviewed"), timeout=30_000)

    page.goto("/records")
    sizes = page.get_by_test_id("size-filter")
    expect(sizes.locator("[aria-current=page]")).to_have_text(size_name(4))  # the classic by default
    sizes.get_by_role("link", name=size_name(size)).click()
    expect(sizes.locator("[aria-current=page]")).to_have_text(size_name(size))
    assert page.url.endswith(f"/records?size={size}")
    assert axe_violations(page) == []


def test_the_statistics_are_those_of_the_size_shown(page):
    games = [
        {"key": "a", "score": 900, "maxTile": 64, "moves": 90, "date": 1.7e12, "helped": False},  # kept before sizes
        {"key": "b", "size": 3, "score": 700, "maxTile": 128, "moves": 80, "date": 1.7e12, "helped": False},
        {"key": "c", "size": 3, "score": 300, "maxTile": 32, "moves": 40, "date": 1.7e12, "helped": True},
    ]
    page.add_init_script(f"localStorage.setItem('2048-finished-games', {json.dumps(json.dumps(games))})")
    page.goto("/stats")
    expect(page.get_by_test_id("stats-played")).to_have_text("1")
    expect(page.get_by_test_id("stats-best")).to_have_text("900")
    page.get_by_test_id("size-filter").get_by_role("link", name=size_name(3)).click()
    expect(page.get_by_test_id("stats-played")).to_have_text("2")
    expect(page.get_by_test_id("stats-best")).to_have_text("700")
    page.get_by_test_id("size-filter").get_by_role("link", name=size_name(8)).click()
    expect(page.get_by_test_id("stats-empty")).to_be_visible()
    assert axe_violations(page) == []


def test_undo_hint_and_auto_play_on_a_five_by_five_board(page):
    board = [[2, 2, 0, 0, 4], [0] * 5, [0, 8, 0, 0, 0], [0] * 5, [0, 0, 0, 0, 2]]
    put_game(page, board, score=40, moves=6)
    load(page)
    page.keyboard.press("ArrowLeft")
    wait_idle(page)
    assert server_state(page)["moves"] == 7
    page.keyboard.press("u")
    page.wait_for_function("() => JSON.parse(localStorage.getItem('gameState')).moves === 6")
    wait_idle(page)
    assert dom_board(page) == board == server_state(page)["board"]

    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("hint-arrow")).to_be_visible(timeout=15_000)
    page.get_by_test_id("autoplay").click()
    page.wait_for_function("() => JSON.parse(localStorage.getItem('gameState')).moves >= 9", timeout=30_000)
    page.get_by_test_id("autoplay").click()
    wait_idle(page)
    assert_shows(page, server_state(page))
