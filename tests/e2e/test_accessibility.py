"""axe-core on every page a player can reach, in both languages and colour schemes, on desktop and phone."""

import pytest

from tests.support.game_page import axe_violations, wait_idle

pytestmark = pytest.mark.e2e

PAGES = ["/", "/daily", "/rules", "/strategy", "/solver", "/records", "/stats", "/no-such-page"]
SCREENS = {"desktop": {"width": 1024, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("screen", sorted(SCREENS))
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language", ["en", "cs"])
def test_no_page_has_any_accessibility_violation(page, console_guard, language, scheme, screen):
    console_guard.allow(r"status of 404")  # the browser's own line for the 404 page
    page.set_viewport_size(SCREENS[screen])
    page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
    found = {}
    for path in PAGES:
        page.goto(f"/language/{language}?next={path}")
        assert page.locator("html").get_attribute("lang") == language
        if path == "/daily":
            page.wait_for_function("() => document.getElementById('daily').dataset.ready === 'true'")
        if path in ("/", "/daily"):
            wait_idle(page)
        found[path] = axe_violations(page)
    assert found == {path: [] for path in PAGES}
