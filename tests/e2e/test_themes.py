"""The themes a player chooses, measured on the page as Chromium paints it: every tile's number
readable on its tile, neighbouring tiles told apart (also by colour-blind eyes in the colour-blind
theme), a board that keeps its edges under forced colours, and a choice that outlives a reload
with no other theme painted first. Colours are read from getComputedStyle, the colour science is
coloraide's: WCAG 2.x contrast, CIE76 ΔE, Machado 2009 for colour-blind vision."""

import itertools

import pytest
from coloraide import Color
from playwright.sync_api import expect

from tests.support.game_page import axe_violations, put_game, wait_idle

pytestmark = pytest.mark.e2e

EVERY_TILE = [[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2048, 4096], [8192, 16384, 32768, 65536]]
HIGHEST = [[65536, 131072, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
# (theme chosen, the system's colour scheme): "system" follows the system's, so both.
THEMES = [
    ("system", "light"),
    ("system", "dark"),
    ("light", "dark"),
    ("dark", "light"),
    ("contrast", "light"),
    ("colourblind", "light"),
    ("colourblind", "dark"),
]
CVD = ("deutan", "protan", "tritan")

TILE_COLOURS = """() => Object.fromEntries([...document.querySelectorAll('#tiles .tile')].map((tile) => {
    const style = getComputedStyle(tile.firstElementChild);
    return [tile.dataset.value, [style.backgroundColor, style.color]];
}))"""
# A tile beyond the highest the board can hold (131072) is drawn as the "super" tile.
SUPER_COLOURS = """() => {
    const tile = Object.assign(document.createElement('div'), { className: 'tile tile-super tile-d6' });
    tile.append(Object.assign(document.createElement('div'), { className: 'tile-inner', textContent: '262144' }));
    document.getElementById('tiles').append(tile);
    const style = getComputedStyle(tile.firstElementChild);
    const colours = [style.backgroundColor, style.color];
    tile.remove();
    return colours;
}"""


def themed_page(browser, base_url, theme, scheme, viewport=None):
    viewport = viewport or {"width": 1280, "height": 800}
    context = browser.new_context(base_url=base_url, color_scheme=scheme, reduced_motion="reduce", viewport=viewport)
    if theme != "system":  # the default, kept as nothing
        context.add_init_script(f"localStorage.setItem('settings', JSON.stringify({{theme: '{theme}'}}))")
    return context, context.new_page()


def tile_colours(page, board):
    put_game(page, board, won=True, keep_playing=True, moves=50)
    page.goto("/")
    wait_idle(page)
    return {int(value): tuple(Color(c) for c in pair) for value, pair in page.evaluate(TILE_COLOURS).items()}


def every_tile_colour(page):
    """{value: (background, number)} for 2 to 131072 and one beyond, as the theme paints them."""
    colours = tile_colours(page, EVERY_TILE) | tile_colours(page, HIGHEST)
    colours[262144] = tuple(Color(c) for c in page.evaluate(SUPER_COLOURS))
    return colours


def seen_as(colour, deficiency):
    return colour if deficiency is None else colour.filter(deficiency, method="machado").convert("srgb")


@pytest.mark.parametrize(("theme", "scheme"), THEMES)
def test_every_number_is_readable_and_every_tile_differs_from_its_neighbours(browser, base_url, theme, scheme):
    context, page = themed_page(browser, base_url, theme, scheme)
    colours = every_tile_colour(page)
    values = sorted(colours)
    assert values == [2**k for k in range(1, 19)]
    assert page.locator("html").get_attribute("data-theme") == (None if theme == "system" else theme)

    contrast = {v: colours[v][0].contrast(colours[v][1], method="wcag21") for v in values}
    assert {v: round(c, 2) for v, c in contrast.items() if c < 4.5} == {}
    eyes = (None, *CVD) if theme == "colourblind" else (None,)
    close = {}
    for eye in eyes:
        for low, high in itertools.pairwise(values):
            delta = seen_as(colours[low][0], eye).delta_e(seen_as(colours[high][0], eye), method="76")
            if delta < 10:
                close[(eye, low, high)] = round(delta, 1)
    assert close == {}
    context.close()


def test_the_dark_theme_has_tiles_of_its_own(browser, base_url):
    """The tiles are not the light theme's on a dark board: the small ones are dark too."""
    light_context, light = themed_page(browser, base_url, "light", "light")
    dark_context, dark = themed_page(browser, base_url, "dark", "light")
    light_colours, dark_colours = tile_colours(light, EVERY_TILE), tile_colours(dark, EVERY_TILE)
    assert all(light_colours[v][0] != dark_colours[v][0] for v in (2, 4, 8, 128, 2048))
    assert dark_colours[2][0].luminance() < 0.1 < light_colours[2][0].luminance()
    light_context.close()
    dark_context.close()


EDGES = """(selector) => [...document.querySelectorAll(selector)].map((el) => {
    const style = getComputedStyle(el);
    const behind = getComputedStyle(document.getElementById('board')).backgroundColor;
    const drawn = (side) => parseFloat(style[`${side}Width`]) >= 1 && style[`${side}Style`] !== 'none';
    const border = drawn('borderTop') ? style.borderTopColor : null;
    const outline = drawn('outline') ? style.outlineColor : null;
    return { edge: border || outline, behind };
})"""


def forced_colours(page):
    """Windows' high contrast, as Chromium emulates it."""
    page.context.new_cdp_session(page).send(
        "Emulation.setEmulatedMedia", {"features": [{"name": "forced-colors", "value": "active"}]}
    )


def without_edge(page, selector):
    """The elements `selector` matches whose border or outline does not stand out (3:1) from the board's background."""
    found = page.evaluate(EDGES, selector)
    assert found, selector
    return [
        item for item in found if not item["edge"] or Color(item["edge"]).contrast(item["behind"], method="wcag21") < 3
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_under_forced_colours_every_cell_and_tile_keeps_an_edge_and_buttons_their_outline(page, scheme):
    page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
    board = [[0, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2048, 4096], [8192, 0, 2, 65536]]
    put_game(page, board, won=True, keep_playing=True, moves=9)
    forced_colours(page)
    page.goto("/")
    wait_idle(page)
    assert page.evaluate("matchMedia('(forced-colors: active)').matches")
    assert page.locator("#grid .grid-cell").count() == 16 and page.locator("#tiles .tile").count() == 14
    assert without_edge(page, "#grid .grid-cell") == []
    assert without_edge(page, "#tiles .tile-inner") == []
    assert without_edge(page, "#board") == []
    assert without_edge(page, "main .button:not(.visually-hidden-focusable)") == []
    # The focus ring shows: a keyboard player's Tab lands on a button that draws its outline.
    page.keyboard.press("Tab")
    focused = page.locator(":focus")
    assert focused.evaluate("el => getComputedStyle(el).outlineStyle") != "none"
    assert focused.evaluate("el => parseFloat(getComputedStyle(el).outlineWidth)") >= 2


def open_settings(page):
    """Open the settings panel and wait for its module (settings.js, loaded as it first opens)."""
    page.locator("#settings summary").click()
    expect(page.locator("#settings")).to_have_attribute("data-ready", "true")


def first_frame_probe():
    """Before the page's own scripts: what the first frame (its callbacks run before it is painted) shows."""
    return """requestAnimationFrame(() => {
        const root = document.documentElement;
        window.firstFrame = { theme: root.dataset.theme || null, background: getComputedStyle(root).backgroundColor };
    });"""


@pytest.mark.parametrize(("theme", "background"), [("dark", "rgb(31, 28, 25)"), ("contrast", "rgb(0, 0, 0)")])
def test_the_chosen_theme_outlives_a_reload_with_no_other_theme_painted_first(browser, base_url, theme, background):
    context = browser.new_context(base_url=base_url, color_scheme="light", reduced_motion="reduce")
    page = context.new_page()
    page.goto("/")
    wait_idle(page)
    open_settings(page)
    page.get_by_label("Theme").select_option(theme)
    expect(page.locator("html")).to_have_attribute("data-theme", theme)

    # The contrast theme's styles (themes.css) come late: the page must wait for them before painting.
    context.route("**/static/css/themes.css*", lambda route: (page.wait_for_timeout(400), route.continue_()))
    context.add_init_script(first_frame_probe())
    page.reload()
    wait_idle(page)
    assert page.evaluate("window.firstFrame") == {"theme": theme, "background": background}
    assert page.get_by_label("Theme").input_value() == theme
    context.close()


def test_motion_and_animation_speed_are_kept_and_the_system_s_wish_is_the_default(browser, base_url):
    context = browser.new_context(base_url=base_url, reduced_motion="reduce")
    page = context.new_page()
    page.goto("/")
    wait_idle(page)
    root = page.locator("html")
    expect(root).to_have_attribute("data-motion", "reduce")  # the system asks
    open_settings(page)
    expect(page.get_by_label("Reduce motion")).to_be_checked()
    page.get_by_label("Reduce motion").uncheck()
    page.get_by_label("Animation speed").select_option("slow")
    page.reload()
    wait_idle(page)
    expect(root).to_have_attribute("data-motion", "full")
    expect(root).to_have_attribute("data-speed", "slow")
    tile = page.locator("#tiles .tile").first
    assert tile.evaluate("el => getComputedStyle(el).transitionDuration") == "0.2s"  # twice the original's 100 ms
    context.close()


@pytest.mark.parametrize(("language", "label"), [("en", "Theme"), ("cs", "Motiv")])
@pytest.mark.parametrize("path", ["/", "/daily", "/rules", "/strategy", "/solver", "/records", "/stats"])
def test_every_page_has_the_theme_control_and_follows_it(page, language, label, path):
    page.goto(f"/language/{language}?next={path}")
    open_settings(page)
    page.get_by_label(label).select_option("contrast")
    expect(page.locator("html")).to_have_attribute("data-theme", "contrast")
    expect(page.locator("body")).to_have_css("color", "rgb(255, 255, 255)")  # once themes.css has come
    expect(page.locator("html")).to_have_css("background-color", "rgb(0, 0, 0)")
    assert page.locator("meta[name=theme-color]").first.get_attribute("content") == "#000000"


@pytest.mark.parametrize("theme", ["light", "dark", "contrast", "colourblind"])
def test_every_theme_is_clean_for_axe_with_the_settings_open(browser, base_url, theme):
    context, page = themed_page(browser, base_url, theme, "light", viewport={"width": 1024, "height": 800})
    found = {}
    for path in ["/", "/daily", "/rules", "/records", "/stats"]:
        page.goto(path)
        if path in ("/", "/daily"):
            wait_idle(page)
        open_settings(page)
        found[path] = axe_violations(page)
    assert found == {path: [] for path in found}
    context.close()
