"""Records in the browser: sharing a game, watching its replay, the solver's review, the hall of fame."""

import re
import time

import pytest
from playwright.sync_api import expect

from app.engine import pack
from app.engine.sliding import move
from tests.support.game_page import axe_violations, dom_board, finish_game, load, put_game, server_state, wait_idle

pytestmark = pytest.mark.e2e

RATINGS = {"Best move", "Good", "Inaccuracy", "Mistake", "Blunder"}
BOARD_IN_VIEW = """() => {
    const box = document.querySelector('[data-testid=board]').getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
}"""

# Only up and left move; after either, the board still has moves.
OPEN_BOARD = [[0, 2, 4, 8], [2, 4, 8, 16], [4, 8, 16, 32], [8, 16, 32, 64]]


@pytest.fixture(autouse=True)
def _reduced_motion(request):
    """axe judges colours as they are, not halfway through a tile's fade-in."""
    if "page" in request.fixturenames:
        request.getfixturevalue("page").emulate_media(reduced_motion="reduce")


def play_keys(page, keys):
    for key in keys:
        page.keyboard.press(key)
    wait_idle(page)


def share(page, name="Ann"):
    """Save the page's game from its record menu; the replay link it shows."""
    menu = page.locator("#record-menu")
    if not menu.evaluate("el => el.open"):
        menu.locator("summary").click()
    page.locator("#record-name").fill(name)
    page.locator("[data-action=share]").click()
    link = page.get_by_test_id("record-link")
    expect(link).to_be_visible()
    return link.get_attribute("href")


def open_replay(page, url):
    page.goto(url)
    page.wait_for_function("() => document.querySelector('#replay')?.dataset.ready === 'true'")


def test_sharing_a_game_gives_a_link_whose_replay_ends_on_the_same_board(page):
    load(page)
    play_keys(page, ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"] * 3)
    state = server_state(page)
    url = share(page, "<b>Ann</b>")
    assert axe_violations(page) == []

    open_replay(page, url)
    expect(page.locator("h1")).to_have_text("Replay: <b>Ann</b>")  # shown as typed, never as markup
    scrubber = page.get_by_test_id("scrubber")
    assert int(scrubber.get_attribute("max")) == state["moves"]
    assert page.get_by_test_id("share-link").input_value().endswith(url)
    page.keyboard.press("End")
    expect(page.get_by_test_id("position")).to_contain_text(f"After move {state['moves']} of {state['moves']}")
    page.wait_for_timeout(400)  # the last slide's merged tiles are gone
    assert dom_board(page) == state["board"]
    assert axe_violations(page) == []


def test_watching_steps_plays_pauses_and_scrubs(page):
    put_game(page, OPEN_BOARD)
    load(page)
    play_keys(page, ["ArrowUp", "ArrowLeft", "ArrowUp", "ArrowLeft", "ArrowUp", "ArrowLeft"])
    moves = server_state(page)["moves"]
    open_replay(page, share(page))
    position = page.get_by_test_id("position")
    expect(position).to_contain_text("Start of the game")
    assert dom_board(page) == OPEN_BOARD

    page.get_by_test_id("step-forward").click()
    expect(position).to_contain_text(f"After move 1 of {moves}")
    page.keyboard.press("ArrowRight")
    expect(position).to_contain_text(f"After move 2 of {moves}")
    page.keyboard.press("ArrowLeft")
    expect(position).to_contain_text(f"After move 1 of {moves}")
    page.get_by_test_id("scrubber").fill("0")
    expect(position).to_contain_text("Start of the game")

    page.get_by_test_id("replay-speed").select_option("fast")
    play = page.get_by_test_id("play")
    play.click()
    expect(position).to_contain_text(f"After move {moves} of {moves}")
    expect(play).to_have_attribute("aria-pressed", "false")  # it stops at the end by itself
    assert page.get_by_test_id("scrubber").input_value() == str(moves)

    scrubber = page.get_by_test_id("scrubber")
    scrubber.fill("1")
    scrubber.focus()
    page.keyboard.press(" ")  # Space plays or pauses with the scrubber focused too
    expect(play).to_have_attribute("aria-pressed", "true")
    expect(position).to_contain_text(f"After move {moves} of {moves}")
    expect(play).to_have_attribute("aria-pressed", "false")


def test_link_copied_is_said_beside_its_button(page):
    load(page)
    play_keys(page, ["ArrowLeft", "ArrowUp"])
    open_replay(page, share(page))
    page.get_by_test_id("copy-link").click()
    status = page.get_by_test_id("copy-status")
    expect(status).to_have_text("Link copied.")
    button, said = page.get_by_test_id("copy-link").bounding_box(), status.bounding_box()
    assert 0 <= said["y"] - (button["y"] + button["height"]) < 40  # right below it, not in the review
    expect(page.get_by_test_id("review-progress")).to_have_text("")


def test_the_replay_controls_fit_a_finger_and_keep_text_readable(page):
    page.set_viewport_size({"width": 390, "height": 844})
    load(page)
    play_keys(page, ["ArrowLeft", "ArrowUp"])
    open_replay(page, share(page))
    for testid in ("replay-speed", "scrubber", "play", "step-back", "step-forward", "copy-link"):
        control = page.get_by_test_id(testid)
        assert control.bounding_box()["height"] >= 44, testid
    for testid in ("replay-speed", "share-link"):
        size = page.get_by_test_id(testid).evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
        assert size >= 16, testid


def test_swiping_the_replay_board_steps(browser, base_url):
    context = browser.new_context(has_touch=True, base_url=base_url)
    page = context.new_page()
    try:
        load(page)
        play_keys(page, ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"])
        open_replay(page, share(page))
        board = page.get_by_test_id("board")
        box = board.bounding_box()
        y = box["y"] + box["height"] / 2
        page.evaluate(
            """([x0, x1, y]) => {
                const el = document.querySelector('[data-testid=board]');
                const touch = (x) => new Touch({identifier: 1, target: el, clientX: x, clientY: y});
                const send = (type, init) => el.dispatchEvent(
                    new TouchEvent(type, {...init, bubbles: true, cancelable: true}));
                send('touchstart', {touches: [touch(x0)]});
                send('touchmove', {touches: [touch(x1)]});
                send('touchend', {changedTouches: [touch(x1)]});
            }""",
            [box["x"] + box["width"] * 0.8, box["x"] + box["width"] * 0.2, y],
        )
        expect(page.get_by_test_id("position")).to_contain_text("After move 1 of")
    finally:
        context.close()


def test_reviewing_a_game_rates_its_moves_in_words_and_shows_the_chosen_one_on_the_board(page):
    page.set_viewport_size({"width": 1280, "height": 640})
    load(page)
    play_keys(page, ["ArrowDown", "ArrowRight", "ArrowUp", "ArrowLeft"] * 4)
    menu = page.locator("#record-menu")
    menu.locator("summary").click()
    page.locator("#record-name").fill("Reviewer")
    page.locator("[data-action=review]").click()
    page.wait_for_url("**/records/*#review")
    expect(page.get_by_test_id("review-progress")).to_have_text("Every move is reviewed.", timeout=30_000)
    mistakes = page.get_by_test_id("mistake")
    assert mistakes.count() >= 1
    first = mistakes.first
    assert "instead of" in first.inner_text()
    rating = first.get_by_test_id("rating").inner_text()
    assert rating.split(" · ")[0] in RATINGS
    assert rating == "Best move" or rating.endswith(("closer to losing", "loses the game"))
    assert all(
        word in RATINGS
        for word in page.get_by_test_id("rating").evaluate_all(
            "badges => badges.map(b => b.textContent.split(' · ')[0])"
        )
    )
    assert first.evaluate("el => el.tagName") == "BUTTON"  # a row to choose, not a bold underlined link
    move = int(first.get_attribute("data-move"))
    assert first.inner_text().startswith(f"Move {move}: played")
    first.click()
    # The board the move was played from, and under it the list's move, with the same number.
    expect(page.get_by_test_id("position")).to_contain_text(f"After move {move - 1} of" if move > 1 else "Start")
    expect(page.get_by_test_id("review-move")).to_contain_text(f"Move {move}: played")
    expect(page.get_by_test_id("review-move")).to_contain_text("the solver would have played")
    expect(page.get_by_test_id("solver-arrow")).to_be_visible()
    page.wait_for_function(BOARD_IN_VIEW)  # chosen at the foot of the page, the board comes into view
    assert axe_violations(page) == []
    page.emulate_media(color_scheme="dark", reduced_motion="reduce")  # the badges keep their contrast
    assert axe_violations(page) == []
    advice = page.get_by_test_id("mistake-advice")
    for href in advice.evaluate_all("links => links.map(a => a.getAttribute('href'))"):
        assert href.startswith("/strategy#mistake-")
    if advice.count():  # the strategy page has the advice a mistake links to
        href = advice.first.get_attribute("href")
        page.goto(href)
        assert page.locator(f"#{href.split('#')[1]}").count() == 1


def test_the_solvers_arrow_stands_on_the_board_its_move_was_played_from_and_none_on_the_last(page):
    put_game(page, OPEN_BOARD)
    load(page)
    play_keys(page, ["ArrowUp", "ArrowLeft", "ArrowUp", "ArrowLeft"])
    moves = server_state(page)["moves"]
    url = share(page)
    reviews = page.request.get(f"/api/records/{url.rsplit('/', 1)[1]}/review?from=0").json()["reviews"]
    boards = []
    open_replay(page, url)
    position, line, arrow = (page.get_by_test_id(name) for name in ("position", "review-move", "solver-arrow"))
    for shown in range(moves):
        played, best = reviews[shown]["played"], reviews[shown]["best"]
        expect(position).to_contain_text("Start of the game" if shown == 0 else f"After move {shown} of {moves}")
        expect(line).to_contain_text(f"Move {shown + 1}: played {played}")  # the move played from this board
        expect(arrow).to_be_visible()
        expect(arrow).to_have_attribute("data-direction", best)
        page.wait_for_timeout(250)  # the slide onto this board has ended
        boards.append(dom_board(page))
        page.keyboard.press("ArrowRight")
    expect(position).to_contain_text(f"After move {moves} of {moves}")
    expect(line).to_have_text("The game was saved here, before its end.")
    expect(arrow).to_be_hidden()  # the last board has no move
    assert boards[0] == OPEN_BOARD
    for shown, board in enumerate(boards):  # each arrow's move moves the board it stood on
        assert move(pack(board), reviews[shown]["best"])[0] != pack(board)


# Every move open, every value far below zero; left fills the last cell and nothing can merge then.
LEFT_LOSES = [[4, 64, 128, 2], [2, 32, 256, 8], [16, 0, 8, 32], [128, 16, 8, 128]]


def test_a_move_that_loses_the_game_on_a_board_of_big_tiles_is_a_blunder_that_loses_the_game(page):
    put_game(page, LEFT_LOSES, score=9000, moves=700)
    load(page)
    play_keys(page, ["ArrowLeft"])
    assert server_state(page)["over"]
    open_replay(page, share(page))
    line = page.get_by_test_id("review-move")
    expect(line).to_contain_text("Move 1: played left; the solver would have played")
    expect(line.get_by_test_id("rating")).to_have_text("Blunder · loses the game")
    page.keyboard.press("End")
    expect(line).to_have_text("No move was left: the game ended here.")


def test_no_early_move_of_a_fresh_game_is_rated_a_mistake(page):
    """The first moves of a game cannot lose it, whatever the sign of the solver's values then."""
    load(page)
    play_keys(page, ["ArrowDown", "ArrowRight", "ArrowUp", "ArrowLeft"] * 3)
    open_replay(page, share(page))
    page.get_by_test_id("find-mistakes").click()
    expect(page.get_by_test_id("review-progress")).to_have_text(re.compile("Every move is reviewed"), timeout=30_000)
    words = page.get_by_test_id("rating").evaluate_all("badges => badges.map(b => b.textContent.split(' · ')[0])")
    assert words and set(words) <= {"Best move", "Good", "Inaccuracy"}, words


def test_finding_mistakes_asks_for_each_range_of_the_game_once(page):
    """The range of the position shown is not asked for again when the walk from the start comes to it."""
    load(page)
    play_keys(page, ["ArrowDown", "ArrowRight", "ArrowUp", "ArrowLeft"] * 4)
    url = share(page)
    asked = []

    def note_range(request):
        if "/review?from=" in request.url:
            asked.append(request.url.rsplit("from=", 1)[1])

    page.on("request", note_range)
    open_replay(page, url)
    expect(page.get_by_test_id("review-move")).to_contain_text("Move 1: played")
    page.get_by_test_id("find-mistakes").click()
    expect(page.get_by_test_id("review-progress")).to_have_text(re.compile("Every move is reviewed"), timeout=30_000)
    assert asked and len(asked) == len(set(asked)), asked


def test_a_rate_limit_without_retry_after_is_waited_out_not_retried_at_once(page, console_guard):
    console_guard.allow(r"status of 429")
    load(page)
    play_keys(page, ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"])
    url = share(page)
    asked = []

    def limited_once(route):
        asked.append(time.monotonic())
        if len(asked) == 1:  # nginx's 429 carries no Retry-After
            route.fulfill(status=429, json={"error": {"code": "rate_limited", "message": "slow down"}})
        else:
            route.continue_()

    page.context.route(re.compile(r"/review\?from="), limited_once)
    open_replay(page, url)
    expect(page.get_by_test_id("review-move")).to_contain_text("Move 1: played")
    assert len(asked) == 2 and asked[1] - asked[0] >= 0.15  # the backoff's first wait is 240 ms or more


def test_the_record_menu_opens_when_the_game_ends(page):
    # Right fills the last cell, next to an 8 and a 32: no move is left, whichever tile comes.
    put_game(page, [[8, 16, 8, 16], [16, 8, 16, 8], [8, 16, 8, 16], [32, 64, 128, 0]])
    load(page)
    menu = page.locator("#record-menu")
    assert not menu.evaluate("el => el.open")
    page.keyboard.press("ArrowRight")
    wait_idle(page)
    assert server_state(page)["over"]
    expect(menu).to_have_attribute("open", "")


def test_the_hall_of_fame_lists_verified_games_only_and_filters_assisted_ones(page):
    put_game(page, OPEN_BOARD, score=3_000_000)
    load(page)
    play_keys(page, ["ArrowUp"])
    share(page, "Forger")
    page.get_by_test_id("new-game").click()
    page.locator("#confirm-new-game button[value=new]").click()  # the game in progress has moves
    wait_idle(page)
    play_keys(page, ["ArrowLeft", "ArrowUp", "ArrowRight"])
    finish_game(page)
    load(page)
    share(page, "Honest")
    page.goto("/records")
    rows = page.get_by_test_id("record-row")
    names = rows.locator("td:nth-child(2)").all_inner_texts()
    assert "Honest" in names and "Forger" not in names
    assert axe_violations(page) == []
    expect(page.get_by_test_id("filter-without-help")).to_have_attribute("aria-current", "page")  # the default
    page.get_by_test_id("filter-helped").click()
    expect(page.get_by_test_id("filter-helped")).to_have_attribute("aria-current", "page")
    assert "Honest" not in page.get_by_test_id("record-row").locator("td:nth-child(2)").all_inner_texts()
    page.get_by_test_id("filter-all").click()
    expect(page.get_by_test_id("filter-all")).to_have_attribute("aria-current", "page")
    assert "Honest" in rows.locator("td:nth-child(2)").all_inner_texts()


def test_the_replay_and_hall_of_fame_pages_speak_czech(page):
    load(page)
    # Four directions: some start boards move neither left nor up (two tiles in the top-left corner),
    # and the replay's first move must exist (seen in a random-order run).
    play_keys(page, ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"])
    url = share(page, "Jana")
    page.context.add_cookies([{"name": "lang", "value": "cs", "url": page.url}])
    open_replay(page, url)
    expect(page.locator("h1")).to_have_text("Záznam hry: Jana")
    expect(page.get_by_test_id("position")).to_contain_text("Začátek hry")
    expect(page.get_by_test_id("find-mistakes")).to_have_text("Najít největší chyby")
    expect(page.get_by_test_id("review-move")).to_contain_text("Tah 1: zahráno")
    badge = page.get_by_test_id("review-move").get_by_test_id("rating").inner_text()
    assert badge.split(" · ")[0] in {"Nejlepší tah", "Dobrý", "Nepřesnost", "Chyba", "Hrubá chyba"}
    assert axe_violations(page) == []
    page.goto("/records")
    expect(page.locator("h1")).to_have_text("Síň slávy")


def test_the_name_a_game_was_saved_under_is_offered_next_time(page):
    load(page)
    play_keys(page, ["ArrowLeft", "ArrowUp"])
    share(page, "Zuzana")
    load(page)
    page.locator("#record-menu summary").click()
    expect(page.locator("#record-name")).to_have_value("Zuzana")


def test_the_hall_of_fame_fits_a_phone_and_shows_which_filter_is_active(page):
    load(page)
    finish_game(page)
    load(page)
    share(page, "Wwwwwwwwwwwwwwwwwwwwwwww")  # the widest name there is: 24 characters
    page.goto("/records")
    nav = page.get_by_role("navigation", name="Pages")
    expect(nav.get_by_role("link", name="Hall of fame")).to_have_attribute("aria-current", "page")
    expect(page.get_by_test_id("record-row").first).to_be_visible()
    for width in (320, 390, 1280):
        page.set_viewport_size({"width": width, "height": 800})
        assert page.evaluate("document.documentElement.scrollWidth") <= width, width
        table = page.get_by_test_id("hall-of-fame").bounding_box()
        assert table["x"] >= 0 and table["x"] + table["width"] <= width, width
        assert axe_violations(page) == [], width
        cells = page.get_by_test_id("hall-of-fame").get_by_role("cell")  # as cards, still a table to a screen reader
        assert "Wwwwwwwwwwwwwwwwwwwwwwww" in cells.all_inner_texts(), width

    look = "el => { const s = getComputedStyle(el); return [s.backgroundColor, s.color, s.fontWeight].join(' '); }"
    active, other = (page.get_by_test_id(f"filter-{name}").evaluate(look) for name in ("without-help", "all"))
    assert active != other
    page.get_by_test_id("filter-all").click()
    assert page.get_by_test_id("filter-all").evaluate(look) == active
    assert page.get_by_test_id("filter-without-help").evaluate(look) == other
    assert axe_violations(page) == []
