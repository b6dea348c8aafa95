"""Every page on a phone (320 and 390 px), in English and Czech: nothing scrolls sideways and nothing
is cut at the screen's edge; and the solver page's tables break no word, on a phone or a laptop."""

import random
import time
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from tests.support.game_page import broken_words, finish_game, load, put_game, wait_idle

pytestmark = pytest.mark.e2e

LONGEST_NAME = "W" * 24  # the widest name a record can have
DONE = {"en": "Every move is reviewed.", "cs": "Všechny tahy jsou rozebrané."}
# Left fills the last cell and nothing can merge: the game is over.
LEFT_ENDS_IT = [[4, 64, 128, 2], [2, 32, 256, 8], [16, 0, 8, 32], [128, 16, 8, 128]]

# Elements shown whose box goes past either edge of the screen (the visually hidden ones aside).
STICKING_OUT = """() => [...document.body.querySelectorAll('*')].filter((el) => {
    if (el.closest('.visually-hidden, [hidden]')) return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && (box.right > innerWidth + 0.5 || box.left < -0.5);
}).map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent.trim().slice(0, 40)}`)"""


@pytest.fixture(scope="module")
def replay_url(playwright, base_url):
    """A verified game played to its end and saved under the widest name, every move reviewed."""
    api = playwright.request.new_context(base_url=base_url)
    api.post("/api/game", data={})
    finish_game(SimpleNamespace(request=api))
    url = api.post("/api/records", data={"name": LONGEST_NAME}).json()["url"]
    first = 0
    while first is not None:
        reply = api.get(f"/api{url}/review?from={first}")
        if reply.status == 429:  # the reviews' rate limit, or the solver busy: as the page does, wait
            time.sleep(float(reply.headers.get("retry-after", "1")))
            continue
        first = reply.json()["next"]
    api.dispose()
    return url


def fits(page, width):
    """Nothing of the page is past the screen's edges, and it does not scroll sideways."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate(STICKING_OUT) == []


@pytest.mark.parametrize("language", ["en", "cs"])
@pytest.mark.parametrize("width", [320, 390])
def test_no_page_scrolls_sideways_or_is_cut_on_a_phone(page, base_url, console_guard, replay_url, language, width):
    console_guard.allow(r"status of (404|429)")  # the page at no address; the reviews' rate limit, waited out
    page.set_viewport_size({"width": width, "height": 844})
    page.context.add_cookies([{"name": "lang", "value": language, "url": base_url}])
    put_game(page, LEFT_ENDS_IT, score=9000, moves=700)
    load(page)
    fits(page, width)
    page.keyboard.press("ArrowLeft")  # game over: the overlay, then the menu with the record's link
    expect(page.get_by_test_id("try-again")).to_be_visible()
    expect(page.locator("#record-name")).to_be_visible()  # the menu opens as the game ends
    page.locator("#record-name").fill(LONGEST_NAME)
    page.locator("#record-menu [data-action=share]").click()
    expect(page.get_by_test_id("record-link")).to_be_visible()
    wait_idle(page)
    fits(page, width)

    page.goto(f"{replay_url}#review")  # the biggest mistakes listed, with their ratings
    expect(page.get_by_test_id("review-progress")).to_contain_text(DONE[language], timeout=30_000)
    expect(page.get_by_test_id("review-move").get_by_test_id("rating")).to_be_visible()
    fits(page, width)
    page.keyboard.press("End")
    fits(page, width)

    for path in ("/rules", "/strategy", "/solver", "/records", "/stats", "/offline", "/no-such-page"):
        page.goto(path)
        page.wait_for_load_state("load")
        if path == "/stats":
            page.wait_for_function("() => document.getElementById('stats').dataset.ready === 'true'")
            expect(page.get_by_test_id("stats-figures")).to_be_visible()  # the game just finished
        fits(page, width)


@pytest.mark.parametrize("language", ["en", "cs"])
@pytest.mark.parametrize("width", [390, 1280])
def test_the_solver_pages_tables_break_no_word(page, language, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"/language/{language}?next=/solver")
    expect(page.locator(".results.solvers")).to_be_visible()
    assert broken_words(page, ".results") == []
    fits(page, width)


def test_a_long_solver_name_in_the_comparison_wraps_between_words_at_every_width(page):
    """From the narrowest phone to a laptop, at widths in between too."""
    page.goto("/solver")
    for width in random.Random(4).sample(range(320, 1400), 12):
        page.set_viewport_size({"width": width, "height": 900})
        assert broken_words(page, ".results.solvers") == [], width
