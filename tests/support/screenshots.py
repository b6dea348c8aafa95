"""The game page's screenshots in docs/screenshots/: desktop and phone, light and dark, and the
game-over overlay. Served by this process from a temporary instance folder.

    python -m tests.support.screenshots [--out docs/screenshots]
"""

import argparse
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from app import create_app
from tests.support.browser import CHROMIUM_ARGS, CHROMIUM_PATH, served

SCREENS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
# A game well under way, then one move (left) from its end.
UNDER_WAY = [[2, 8, 32, 4], [4, 16, 64, 128], [0, 2, 8, 256], [0, 0, 2, 512]]
ONE_MOVE_FROM_OVER = [[2, 4, 8, 16], [4, 8, 16, 32], [2, 4, 8, 16], [64, 64, 256, 512]]


def put(page, board, score, moves):
    state = {"board": board, "score": score, "won": False, "over": False, "keep_playing": False, "moves": moves}
    assert page.request.put("/api/game", data=state).ok


def ready(page):
    page.wait_for_function("() => document.getElementById('board').dataset.busy === 'false'")


def shoot(browser, base_url, out: Path) -> list[Path]:
    taken = []
    for screen, viewport in SCREENS.items():
        for scheme in ("light", "dark"):
            context = browser.new_context(
                base_url=base_url, viewport=viewport, color_scheme=scheme, reduced_motion="reduce"
            )
            page = context.new_page()
            put(page, UNDER_WAY, 6120, 410)
            page.goto("/")
            ready(page)
            taken.append(out / f"game-{screen}-{scheme}.png")
            page.screenshot(path=taken[-1])
            context.close()
    context = browser.new_context(base_url=base_url, viewport=SCREENS["desktop"], reduced_motion="reduce")
    page = context.new_page()
    put(page, ONE_MOVE_FROM_OVER, 3000, 300)
    page.goto("/")
    ready(page)
    page.keyboard.press("ArrowLeft")
    page.get_by_test_id("try-again").wait_for()
    ready(page)
    taken.append(out / "game-over.png")
    page.screenshot(path=taken[-1])
    context.close()
    return taken


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    app = create_app({"TESTING": True, "INSTANCE_PATH": tempfile.mkdtemp()})
    with served(app) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=CHROMIUM_ARGS)
        for path in shoot(browser, url, args.out):
            print(path)


if __name__ == "__main__":
    main()
