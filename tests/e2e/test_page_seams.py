"""The page's seams as a player meets them at 1280x800 and on a 390 px phone, measured from the DOM:
the daily page's scores beside its title, the tables within the text column, the navigation on two
lines, the solver's buttons of one width, and "You win!" readable over any tiles."""

import pytest
from coloraide import Color
from playwright.sync_api import expect

from tests.support.game_page import finish_game, put_game, wait_idle
from tests.support.screenshots import daily_game

pytestmark = pytest.mark.e2e

SCREENS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

BOX = "(el) => { const r = el.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; }"  # noqa: E501


def box(page, selector):
    return page.locator(selector).first.evaluate(BOX)


@pytest.mark.parametrize("screen", sorted(SCREENS))
@pytest.mark.parametrize("language", ["en", "cs"])
def test_the_daily_scores_stay_beside_the_title_at_any_score(page, screen, language):
    page.set_viewport_size(SCREENS[screen])
    page.goto(f"/language/{language}?next=/daily")
    page.wait_for_function("() => document.getElementById('daily').dataset.ready === 'true'")
    for score in ("1,234", "12,345", "123,456"):
        page.evaluate(
            "(text) => { for (const id of ['score', 'best-score']) document.getElementById(id).textContent = text; }",
            score,
        )
        title, scores = box(page, ".daily-title"), box(page, ".scores")
        assert scores["left"] >= title["right"] and scores["top"] < title["bottom"], (score, title, scores)
        assert scores["right"] <= box(page, "main")["right"] + 0.5


def within_the_column(page, selector):
    column, table = box(page, "main"), box(page, selector)
    return column["left"] - 0.5 <= table["left"] and table["right"] <= column["right"] + 0.5


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_the_hall_of_fame_and_the_leaderboard_stay_within_the_text_column(page, playwright, base_url, screen):
    page.set_viewport_size(SCREENS[screen])
    page.goto("/")
    wait_idle(page)
    finish_game(page)
    assert page.request.post("/api/records", data={"name": "Column"}).ok
    page.goto("/records?without_help=0")
    assert within_the_column(page, "[data-testid=hall-of-fame]")

    request = playwright.request.new_context(base_url=base_url)  # another player's game of the day, saved
    daily_game(request, "Ranked", 5)
    request.dispose()
    page.goto("/daily")
    page.wait_for_function("() => document.getElementById('daily').dataset.ready === 'true'")
    leaderboard = page.locator(".records-table:not([hidden])").first
    expect(leaderboard).to_be_visible()
    assert within_the_column(page, ".records-table:not([hidden])")


LINES = """() => new Set([...document.querySelectorAll('.site-header a, .site-header summary')]
    .map((el) => Math.round(el.getBoundingClientRect().top))).size"""


@pytest.mark.parametrize("language", ["en", "cs"])
@pytest.mark.parametrize("path", ["/", "/daily", "/records"])
def test_on_a_phone_the_navigation_languages_and_settings_take_two_lines(page, language, path):
    page.set_viewport_size(SCREENS["phone"])
    page.goto(f"/language/{language}?next={path}")
    assert page.evaluate(LINES) <= 2


@pytest.mark.parametrize("screen", sorted(SCREENS))
@pytest.mark.parametrize("language", ["en", "cs"])
def test_hint_and_auto_play_are_as_wide_as_each_other_and_the_speed_row_starts_at_the_left(page, screen, language):
    page.set_viewport_size(SCREENS[screen])
    page.goto(f"/language/{language}?next=/")
    wait_idle(page)
    hint, autoplay, speed = box(page, "#hint"), box(page, "#autoplay"), box(page, "#autoplay-speed")
    assert abs((hint["right"] - hint["left"]) - (autoplay["right"] - autoplay["left"])) < 1
    assert abs(speed["left"] - hint["left"]) < 1  # on its own line, under Hint, not pushed right


# Under the message: the text's colour against the overlay laid over each tile of the theme.
UNDER_MESSAGE = """() => {
    const message = getComputedStyle(document.getElementById('game-message'));
    const text = getComputedStyle(document.getElementById('message-text')).color;
    const tiles = [...document.querySelectorAll('#tiles .tile-inner')];
    return { overlay: message.backgroundColor, text, tiles: tiles.map((el) => getComputedStyle(el).backgroundColor) };
}"""


def composite(over, under):
    """`over` (with its alpha) laid on the opaque `under`."""
    top = Color(over).convert("srgb")
    alpha = top.alpha()
    return Color(
        "srgb", [alpha * a + (1 - alpha) * b for a, b in zip(top.coords(), Color(under).coords(), strict=True)]
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_you_win_reads_over_any_tiles(page, scheme):
    page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
    busy = [[1024, 1024, 512, 256], [2, 4, 8, 16], [32, 64, 0, 256], [512, 4, 0, 64]]
    put_game(page, busy, score=60000, moves=3000)
    page.goto("/")
    wait_idle(page)
    page.keyboard.press("ArrowLeft")  # 1024 + 1024: the win
    expect(page.locator("#message-text")).to_have_text("You win!")
    seen = page.evaluate(UNDER_MESSAGE)
    ratios = {
        tile: Color(seen["text"]).contrast(composite(seen["overlay"], tile), method="wcag21") for tile in seen["tiles"]
    }
    assert {tile: round(ratio, 2) for tile, ratio in ratios.items() if ratio < 4.5} == {}
