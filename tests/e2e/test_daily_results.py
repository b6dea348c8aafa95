"""Today's game, season two, in the browser: a past day played to its end from the archive, the
day's spread with the player's own bar, ranks shared, the streak over one missed day, in English
and Czech, on a laptop and a phone; and the game page's Share with its two choices. The server's
clock is moved with time-machine (test_daily's days, always in the future)."""

import json
import re

import pytest
import time_machine
from playwright.sync_api import expect

from tests.support.game_page import axe_violations, load, put_game, wait_idle
from tests.support.screenshots import daily_game as screenshot_game

from .test_daily import (
    SCREENS,
    _reduced_motion,  # noqa: F401 (the fixture: axe judges colours as they settle)
    daily_game,
    day_in_future,
    open_daily,
    play_to_the_end,
)

pytestmark = pytest.mark.e2e

WORDS = {
    "en": {"archive": "A past day's game", "played": "played", "ranked": "ranked games: 1", "you": "(you)",
           "solver": "The solver, after as many moves",
           "rule": "one missed day in any seven", "listed": "Saved and listed in the hall of fame.",
           "unlisted": "Saved, not listed.", "note": "public hall of fame"},
    "cs": {"archive": "Hra minulého dne", "played": "odehráno", "ranked": "hodnocených her: 1", "you": "(vy)",
           "solver": "Řešitel po stejném počtu tahů",
           "rule": "jeden vynechaný den v kterýchkoli sedmi", "listed": "Uloženo a zapsáno do síně slávy.",
           "unlisted": "Uloženo, bez zápisu do síně slávy.", "note": "veřejné síně slávy"},
}  # fmt: skip
CASES = [("en", "laptop"), ("cs", "phone")]


def in_language(page, base_url, language):
    page.context.add_cookies([{"name": "lang", "value": language, "url": base_url}])


@pytest.mark.parametrize(("language", "screen"), CASES)
def test_a_past_day_is_played_to_its_end_from_the_archive_after_its_spread(page, base_url, live_app, language,
                                                                          screen):  # fmt: skip
    words = WORDS[language]
    page.set_viewport_size(SCREENS[screen])
    in_language(page, base_url, language)
    offset = 70 + CASES.index((language, screen)) * 3
    with time_machine.travel(day_in_future(offset), tick=True):
        open_daily(page)
        page.get_by_test_id("daily-start").click()
        wait_idle(page)
        play_to_the_end(page, seed=offset)
        page.locator("#record-name").fill("Ada")
        page.get_by_test_id("daily-save").click()
        row = page.get_by_test_id("today-board").get_by_test_id("leaderboard-row")
        expect(row.locator(".rank")).to_have_text("1")
        spread = page.get_by_test_id("spread-row")
        expect(spread).to_have_count(1)
        largest = max(map(max, daily_game(page)["board"]))
        assert re.sub(r"\D", "", spread.locator("th").inner_text()) == str(largest)  # 1,024 or 1 024
        expect(spread).to_contain_text(words["you"])
        assert "mine" in spread.get_attribute("class")
        assert axe_violations(page) == []
        played_day = daily_game(page)["daily"]

    with time_machine.travel(day_in_future(offset + 1), tick=True):  # the day is revealed: in the archive
        played = live_app.test_cli_runner().invoke(args=["daily", "par", "--budget-ms", "1"])
        assert played.exit_code == 0, played.output
        open_daily(page)
        yesterday = page.get_by_test_id("yesterday-board").get_by_test_id("leaderboard-row")
        expect(yesterday.locator("td").last).to_have_text(re.compile(r"^\d[\d\s,]*$"))  # the solver's, as many moves
        day = page.get_by_test_id("archive-day").first
        expect(day).to_contain_text(words["ranked"])
        expect(day).to_have_attribute("data-played", "true")  # played on its day
        day.get_by_test_id("archive-play").click()
        expect(page.get_by_test_id("daily-status")).to_contain_text(words["archive"])
        wait_idle(page)
        game = daily_game(page)
        assert (game["daily"], game["ranked"]) == (played_day, False)
        play_to_the_end(page, seed=offset + 1)
        assert daily_game(page)["over"]
        assert page.evaluate("() => JSON.parse(localStorage.getItem('daily:again'))") == [played_day]
        expect(page.get_by_test_id("archive-day").first).to_contain_text(words["played"])
        expect(page.get_by_test_id("result-par")).to_contain_text(words["solver"])
        assert axe_violations(page) == []


def test_equal_scores_share_a_rank_shown_as_such(page, playwright, base_url):
    """Two other browsers play the day alike (the same moves: the same tiles), a third otherwise."""
    with time_machine.travel(day_in_future(80), tick=True):
        for name, seed in (("Cyril", 5), ("Bára", 5), ("Adam", 6)):
            request = playwright.request.new_context(base_url=base_url)
            screenshot_game(request, name, seed)
            request.dispose()
        open_daily(page)
        rows = page.get_by_test_id("today-board").get_by_test_id("leaderboard-row")
        expect(rows).to_have_count(3)
        ranks = {row.locator(".name").inner_text(): row.locator(".rank").inner_text() for row in rows.all()}
        tied = [name for name, rank in ranks.items() if rank.startswith("=")]
        assert tied == ["Bára", "Cyril"] and ranks["Bára"] == ranks["Cyril"]  # by name, whoever finished first
        assert ranks["Adam"] in ("1", "3") and ranks["Bára"] == ("=1" if ranks["Adam"] == "3" else "=2")


@pytest.mark.parametrize(("language", "screen"), CASES)
def test_a_streak_goes_on_over_one_missed_day_but_not_two_in_seven(page, base_url, language, screen):
    """Days played kept in the browser (three, one missed between), the clock moved to the next day."""
    page.set_viewport_size(SCREENS[screen])
    in_language(page, base_url, language)
    offset = 90 + CASES.index((language, screen)) * 10
    days = [day_in_future(offset + n).date().isoformat() for n in (0, 1, 3)]  # offset + 2 missed
    page.add_init_script(f"localStorage.setItem('daily:days', {json.dumps(json.dumps(days))})")
    with time_machine.travel(day_in_future(offset + 4), tick=True):
        open_daily(page)
        expect(page.get_by_test_id("streak")).to_have_text("3")
        expect(page.get_by_test_id("streak-rule")).to_contain_text(WORDS[language]["rule"])
        assert axe_violations(page) == []
    with time_machine.travel(day_in_future(offset + 6), tick=True):  # offset + 4 and + 5 missed too
        open_daily(page)
        expect(page.get_by_test_id("streak")).to_have_text("0")
        expect(page.get_by_test_id("best-streak")).to_have_text("3")


ONE_MOVE_FROM_OVER = [[2, 4, 8, 16], [4, 8, 16, 32], [2, 4, 8, 16], [64, 64, 256, 512]]


@pytest.mark.parametrize(("language", "screen"), CASES)
def test_share_says_it_lists_the_game_and_offers_a_link_without_listing_it(page, base_url, language, screen):
    words = WORDS[language]
    page.set_viewport_size(SCREENS[screen])
    in_language(page, base_url, language)
    page.add_init_script("localStorage.setItem('2048-record-name', 'Eva')")
    put_game(page, ONE_MOVE_FROM_OVER, score=3000, moves=300)
    load(page)
    page.keyboard.press("ArrowLeft")
    page.get_by_test_id("overlay-share").click()
    expect(page.get_by_test_id("share-note")).to_contain_text(words["note"])
    expect(page.get_by_test_id("record-link")).to_have_count(0)  # nothing shared before a choice
    page.get_by_test_id("share-unlisted").click()
    status = page.locator("#record-menu [role=status]")
    expect(status).to_contain_text(words["unlisted"])
    link = page.get_by_test_id("record-link").inner_text()
    record = page.request.get(f"/api/records/{link.rsplit('/', 1)[1]}").json()
    assert record["listed"] is False
    assert axe_violations(page) == []
    page.get_by_test_id("share-listed").click()
    expect(status).to_contain_text(words["listed"])
    assert page.request.get(f"/api/records/{record['id']}").json()["listed"] is True
