"""English and Czech in real Chromium: the browser's language, the switch, axe on the Czech game
over, no English left."""

import pytest
from playwright.sync_api import expect

from tests.support.game_page import axe_violations, load, put_game

pytestmark = pytest.mark.e2e

FULL_NO_MOVES = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]


@pytest.fixture
def czech_page(new_context, console_guard):
    """A page in a browser whose language is Czech (it sends Accept-Language: cs-CZ)."""
    return console_guard.watch(new_context(locale="cs-CZ")).new_page()


def html_lang(page):
    return page.locator("html").get_attribute("lang")


def test_a_czech_browser_gets_the_game_in_czech(czech_page):
    page = czech_page
    put_game(page, FULL_NO_MOVES, score=123456, moves=500)
    load(page)
    assert html_lang(page) == "cs"
    expect(page.get_by_test_id("new-game")).to_have_text("Nová hra")
    expect(page.get_by_role("group", name="Hrací pole")).to_be_visible()
    expect(page.get_by_test_id("game-message")).to_contain_text("Konec hry!")
    expect(page.get_by_test_id("try-again")).to_have_text("Zkusit znovu")
    expect(page.get_by_test_id("score")).to_have_text("123\u00a0456")  # Intl.NumberFormat("cs")
    expect(page.get_by_role("link", name="Ovládání")).to_have_attribute("href", "/rules#controls")


def test_the_switch_changes_the_language_and_it_survives_a_reload(page):
    page.goto("/rules")
    assert html_lang(page) == "en"
    expect(page.locator("h1")).to_have_text("Rules of 2048")
    page.get_by_test_id("language-cs").click()
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    assert page.url.endswith("/rules")
    expect(page.locator("h1")).to_have_text("Pravidla hry 2048")
    page.reload()
    assert html_lang(page) == "cs"
    expect(page.get_by_test_id("language-cs")).to_have_attribute("aria-current", "true")
    load(page, "/")
    assert html_lang(page) == "cs"
    expect(page.get_by_test_id("new-game")).to_have_text("Nová hra")
    page.get_by_test_id("language-en").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.reload()
    assert html_lang(page) == "en"
    expect(page.get_by_test_id("new-game")).to_have_text("New game")


def test_the_switch_beats_the_browser_language_and_needs_no_script(new_context, console_guard):
    page = console_guard.watch(new_context(locale="cs-CZ", java_script_enabled=False)).new_page()
    page.goto("/rules#scoring")
    assert html_lang(page) == "cs"
    page.get_by_test_id("language-en").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert page.url.endswith("/rules")
    page.goto("/strategy")
    assert html_lang(page) == "en"


def test_the_czech_game_page_has_no_accessibility_violations(czech_page):
    czech_page.emulate_media(reduced_motion="reduce")
    put_game(czech_page, FULL_NO_MOVES, score=2048, moves=300)
    load(czech_page)
    expect(czech_page.get_by_test_id("try-again")).to_be_visible()
    assert axe_violations(czech_page) == []


# Every text node, label and title the page shows, as the browser has it after its scripts ran
# (but names, which no language translates: translate="no").
READER_TEXT = """() => {
  const texts = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest('script, style, code, pre, kbd, [hidden], [translate="no"]')) continue;
    texts.push(node.textContent);
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [alt]')) {
    texts.push(el.getAttribute('aria-label') || el.getAttribute('title') || el.getAttribute('alt'));
  }
  return texts.map((t) => t.replace(/\\s+/g, ' ').trim()).filter((t) => /\\p{L}{2}/u.test(t));
}"""
SAME_IN_BOTH = {"2048", "English", "Čeština", "WASD", "expectimax"}


@pytest.mark.parametrize("path", ["/", "/rules", "/strategy", "/solver", "/no-such-page"])
def test_a_czech_page_shows_no_english_after_its_scripts_ran(page, console_guard, path):
    console_guard.allow(r"status of 404")  # the browser's own line for the 404 page
    put_game(page, FULL_NO_MOVES, score=2048, moves=300)  # the game-over overlay shows its text
    shown = {}
    for language in ("en", "cs"):
        page.goto(f"/language/{language}?next={path}")
        if path == "/":
            expect(page.get_by_test_id("try-again")).to_be_visible()
        shown[language] = set(page.evaluate(READER_TEXT))
    assert len(shown["cs"]) > 5
    assert sorted(shown["cs"] & shown["en"] - SAME_IN_BOTH) == []
