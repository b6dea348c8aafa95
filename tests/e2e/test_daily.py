"""Today's game in the browser: played to its end on a laptop and a phone, saved onto the day's
leaderboard, shared; the countdown to the next day; the days in a row after two days; in Czech.

The server's clock is moved with time-machine (the live server runs in this process), always
into the future: the browser, on the real clock, would drop a cookie that expired "in the past".
Each test plays its own days, so their leaderboards are their own.
"""

import random
import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from playwright.sync_api import expect

from tests.support.game_page import axe_violations, wait_idle

pytestmark = pytest.mark.e2e

SCREENS = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
ARROWS = ["ArrowUp", "ArrowLeft", "ArrowDown", "ArrowRight"]
PAGE = {"X-Game": "daily"}


@pytest.fixture(autouse=True)
def _reduced_motion(request):
    """axe judges colours as they are, not halfway through a tile's fade-in."""
    if "page" in request.fixturenames:
        request.getfixturevalue("page").emulate_media(reduced_motion="reduce")


def day_in_future(offset, hour=10):
    """A day well after today's real date, at ``hour`` UTC."""
    return datetime(2031, 1, 1, hour, tzinfo=UTC) + timedelta(days=offset)


def open_daily(page, path="/daily"):
    page.goto(path)
    page.wait_for_function("() => document.getElementById('daily').dataset.ready === 'true'")
    wait_idle(page)


def play_to_the_end(page, seed=1):
    """Random arrows until the game-over overlay shows (a won game is played on)."""
    rng = random.Random(seed)
    for _ in range(60):
        for _ in range(15):
            page.keyboard.press(rng.choice(ARROWS))
        wait_idle(page)
        if page.get_by_test_id("keep-playing").is_visible():
            page.get_by_test_id("keep-playing").click()
        if page.get_by_test_id("try-again").is_visible():
            return
    raise AssertionError("the game did not end")


def daily_game(page):
    """The daily page's game as its session holds it (the page's own cookie, X-Game: daily)."""
    return page.request.get("/api/daily", headers=PAGE).json()["game"]


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_todays_game_is_played_to_its_end_saved_on_the_leaderboard_and_shared(page, context, screen):
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.set_viewport_size(SCREENS[screen])
    with time_machine.travel(day_in_future(sorted(SCREENS).index(screen)), tick=True):
        open_daily(page)
        expect(page.get_by_test_id("daily-date")).to_contain_text("2031")
        expect(page.get_by_test_id("daily-date")).to_contain_text("UTC")
        start = page.get_by_test_id("daily-start")
        expect(start).to_have_text("Play today's game")
        assert page.locator("#hint, #autoplay, #undo").count() == 0  # no help today
        assert axe_violations(page) == []
        start.click()
        expect(page.get_by_test_id("daily-status")).to_have_text("Ranked: this game counts on today's leaderboard.")
        wait_idle(page)
        play_to_the_end(page)
        state = daily_game(page)
        assert state["over"] and state["ranked"]
        expect(page.get_by_test_id("final-score")).to_contain_text(f"{state['score']:,}")
        assert page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")

        page.locator("#record-name").fill("Dana")
        page.get_by_test_id("daily-save").click()
        expect(page.get_by_test_id("daily-saved")).to_have_text("Saved: it is on today's leaderboard.")
        row = page.get_by_test_id("today-board").get_by_test_id("leaderboard-row")
        expect(row).to_have_count(1)
        expect(row).to_contain_text("Dana (you)")
        expect(row.locator(".score")).to_have_text(f"{state['score']:,}")

        page.get_by_test_id("daily-share").click()
        shared = page.get_by_test_id("share-text")
        expect(shared).to_be_visible()
        text = shared.inner_text()
        assert f"{state['score']:,} points" in text and f"{state['moves']:,} moves" in text
        squares = [line for line in text.splitlines() if re.fullmatch(r"[⬜🟨🟧🟥🟪⬛]{4}", line)]
        assert len(squares) == 4 and text.rstrip().endswith("/daily")
        assert page.evaluate("() => navigator.clipboard.readText()") == text
        today = page.request.get("/api/daily").json()
        assert today["commitment"] not in text and not re.search(r"\b[udlr]{8,}\b", text)  # nothing of the tiles
        assert axe_violations(page) == []
        expect(start).to_have_text("Play again (practice)")
        start.click()
        expect(page.get_by_test_id("daily-status")).to_contain_text("Practice")


def test_the_countdown_runs_to_the_next_day_which_brings_a_new_board(page):
    with time_machine.travel(day_in_future(10, hour=23) + timedelta(minutes=59, seconds=56), tick=True):
        open_daily(page)
        countdown = page.get_by_test_id("countdown")
        expect(countdown).to_have_text(re.compile(r"00:00:0[0-4]"))
        expect(page.get_by_test_id("next-at")).to_have_text(re.compile(r"\(at .+ your time\)"))
        first = page.get_by_test_id("today-commitment").text_content()  # in the closed proof
        expect(page.get_by_test_id("daily-date")).to_contain_text("11")
        expect(page.get_by_test_id("daily-date")).to_contain_text("12", timeout=10_000)  # the next day
        expect(countdown).to_have_text(re.compile(r"2[34]:5\d:\d\d"))
        assert page.get_by_test_id("today-commitment").text_content() not in ("", first)


def test_the_days_in_a_row_count_two_days_played(page):
    for offset, expected in ((20, "1"), (21, "2")):
        with time_machine.travel(day_in_future(offset), tick=True):
            open_daily(page)
            page.get_by_test_id("daily-start").click()
            expect(page.get_by_test_id("daily-status")).to_contain_text("Ranked")  # a new day, a new first attempt
            wait_idle(page)
            play_to_the_end(page, seed=offset)
            expect(page.get_by_test_id("streak")).to_have_text(expected)
            expect(page.get_by_test_id("best-streak")).to_have_text(expected)
    with time_machine.travel(day_in_future(24), tick=True):  # days missed: the run is over, the longest kept
        open_daily(page)
        expect(page.get_by_test_id("streak")).to_have_text("0")
        expect(page.get_by_test_id("best-streak")).to_have_text("2")


def test_yesterdays_results_show_its_seed_and_the_solvers_par(page, live_app):
    with time_machine.travel(day_in_future(30), tick=True):
        open_daily(page)
        page.get_by_test_id("daily-start").click()
        wait_idle(page)
        play_to_the_end(page, seed=3)
        page.locator("#record-name").fill("Yesterday's Yan")
        page.get_by_test_id("daily-save").click()
        expect(page.get_by_test_id("daily-saved")).to_contain_text("Saved")
    with time_machine.travel(day_in_future(31, hour=0) + timedelta(minutes=20), tick=True):
        open_daily(page)
        expect(page.get_by_test_id("yesterday-seed")).to_contain_text("your time")  # not shown yet
    with time_machine.travel(day_in_future(31), tick=True):
        played = live_app.test_cli_runner().invoke(args=["daily", "par", "--budget-ms", "1"])
        assert played.exit_code == 0, played.output
        open_daily(page)
        seed = page.request.get("/api/daily").json()["previous"]["seed"]
        expect(page.get_by_test_id("yesterday-seed")).to_have_text(seed)
        expect(page.get_by_test_id("par")).to_contain_text("The solver's par:")
        row = page.get_by_test_id("yesterday-board").get_by_test_id("leaderboard-row")
        expect(row).to_contain_text("Yesterday's Yan (you)")
        expect(row.get_by_role("link")).to_have_attribute("href", re.compile(r"^/records/"))  # its replay is open now
        assert axe_violations(page) == []


def test_playing_todays_game_leaves_the_game_pages_game_in_its_place(page):
    page.goto("/")
    wait_idle(page)
    for key in ["ArrowLeft", "ArrowUp", "ArrowRight"]:
        page.keyboard.press(key)
    wait_idle(page)
    before = page.request.get("/api/game").json()
    with time_machine.travel(day_in_future(40), tick=True):
        open_daily(page)
        page.get_by_test_id("daily-start").click()
        wait_idle(page)
        for key in ["ArrowDown", "ArrowUp"]:  # a board of two tiles that cannot go down can go up
            page.keyboard.press(key)
        page.keyboard.press("u")  # no undo in today's game: the key does nothing here
        wait_idle(page)
        assert daily_game(page)["moves"] >= 1
    page.goto("/")
    wait_idle(page)
    after = page.request.get("/api/game").json()
    assert (after["board"], after["moves"], after["helped"]) == (before["board"], before["moves"], False)


def test_todays_game_in_czech(page):
    with time_machine.travel(day_in_future(50), tick=True):
        open_daily(page, "/language/cs?next=/daily")
        expect(page.locator("h1")).to_have_text("Dnešní hra")
        expect(page.get_by_role("navigation", name="Stránky").get_by_role("link", name="Dnešní hra")).to_have_attribute(
            "aria-current", "page"
        )
        expect(page.get_by_test_id("daily-date")).to_contain_text("února")  # 20 February 2031
        page.get_by_test_id("daily-start").click()
        expect(page.get_by_test_id("daily-status")).to_contain_text("Hodnocená")
        wait_idle(page)
        assert axe_violations(page) == []
