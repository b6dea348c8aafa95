"""The game page's screenshots in docs/screenshots/: desktop and phone, light and dark, the
game-over overlay, in each theme a player chooses and under forced colours (a tile of every value),
and Share's two choices (listed or a link only) on a laptop and, in Czech, a phone; games on 3x3,
5x5 and 8x8 boards on a laptop and a phone (8x8 on a 320 px one too); a replay with its review on a
laptop and a phone; the offline page; and the daily page's: a finished game with the day's
leaderboard (two players tied), its spread and yesterday's with the solver's score after as many
moves on a laptop, a game under way on a phone, light and dark, in Czech, and yesterday's game
played again from the archive on a phone. Served by this process from a temporary instance folder
(the clock moved back a day for yesterday's games).

    python -m tests.support.screenshots [--out docs/screenshots] [--only sizes]
"""

import argparse
import random
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import time_machine
from playwright.sync_api import sync_playwright

from app import create_app
from app.engine import DIRECTIONS, pack
from app.engine.sliding import move
from tests.support.browser import CHROMIUM_ARGS, CHROMIUM_PATH, served, wait_for_promise

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
    for screen, language in (("desktop", "en"), ("phone", "cs")):
        context = browser.new_context(base_url=base_url, viewport=SCREENS[screen], reduced_motion="reduce")
        page = context.new_page()
        page.goto(f"/language/{language}?next=/")
        put(page, ONE_MOVE_FROM_OVER, 3000, 300)
        page.goto("/")
        ready(page)
        page.keyboard.press("ArrowLeft")
        page.get_by_test_id("try-again").wait_for()
        page.get_by_test_id("overlay-share").click()
        page.get_by_test_id("share-note").scroll_into_view_if_needed()
        taken.append(out / f"share-{screen}-{language}.png")
        page.screenshot(path=taken[-1])
        context.close()
    return taken


# An 8x8 board with every number from 2 to 131072 on it: the widest numbers in the smallest tiles.
EVERY_NUMBER = [[2 ** ((r * 8 + c) % 17 + 1) if r < 5 else 0 for c in range(8)] for r in range(8)]


def played(request, size, seed, moves):
    """A game of ``size`` played through the API, ``moves`` moves of random directions (one that moves
    nothing is free and counts for nothing)."""
    state = request.post("/api/game", data={"seed": seed, "size": size}).json()
    rng = random.Random(seed)
    for _ in range(20 * moves):
        if state["moves"] >= moves or state["over"]:
            break
        if state["won"] and not state["keep_playing"]:
            state = request.post("/api/game/keep-playing", data={}).json()
        state = request.post("/api/game/moves", data={"direction": rng.choice(DIRECTIONS)}).json()
    return state


def shoot_sizes(browser, base_url, out: Path) -> list[Path]:
    """Games on the smallest, a middle and the largest board, on a laptop and a phone; the 8x8 with
    every number up to 131072 on a 320 px phone too."""
    taken = []
    screens = {**SCREENS, "320": {"width": 320, "height": 640}}
    for size, shown in ((3, SCREENS), (5, SCREENS), (8, screens)):
        for screen, viewport in shown.items():
            context = browser.new_context(base_url=base_url, viewport=viewport, reduced_motion="reduce")
            page = context.new_page()
            if size == 8:
                state = {"board": EVERY_NUMBER, "score": 10**6, "won": True, "over": False, "keep_playing": True}
                assert page.request.put("/api/game", data={**state, "moves": 9000}).ok
            else:
                played(page.request, size, seed=size, moves=size**3 // 3)
            page.goto("/")
            ready(page)
            page.get_by_test_id("board-size").select_option(str(size))
            taken.append(out / f"game-{size}x{size}-{screen}-light.png")
            page.screenshot(path=taken[-1])
            context.close()
    return taken


DAILY = {"X-Game": "daily"}
PLAYERS = ["Ada", "Bohumil", "Chen", "Dagmar", "Emil"]


def daily_game(request, name, seed, moves=None, date=None):
    """An attempt at today's game (or at ``date``'s, from the archive) through the API (the daily
    page's session), played at random to its end (or ``moves`` moves), then saved under ``name``
    unless it is None."""
    rng = random.Random(seed)
    started = request.post("/api/daily", data={} if date is None else {"date": date}, headers=DAILY)
    assert started.status == 201, started.text()
    state = started.json()
    while not state["over"] and (moves is None or state["moves"] < moves):
        if state["won"] and not state["keep_playing"]:
            state = request.post("/api/game/keep-playing", data={}, headers=DAILY).json()
        board = pack(state["board"])
        direction = rng.choice([d for d in DIRECTIONS if move(board, d)[0] != board])
        state = request.post("/api/game/moves", data={"direction": direction}, headers=DAILY).json()
    if name is not None:
        assert request.post("/api/records", data={"name": name}, headers=DAILY).ok
    return state


def others_play(playwright, base_url, seeds):
    """Other browsers' finished and saved games of the day (each its own cookies: ranked)."""
    for name, seed in zip(PLAYERS, seeds, strict=False):
        request = playwright.request.new_context(base_url=base_url)
        daily_game(request, name, seed)
        request.dispose()


def daily_ready(page):
    page.wait_for_function("() => document.getElementById('daily').dataset.ready === 'true'")
    ready(page)


def shoot_daily(playwright, browser, app, base_url, out: Path) -> list[Path]:
    now = datetime.now(UTC)
    with time_machine.travel(now - timedelta(days=1), tick=True):
        others_play(playwright, base_url, range(10, 14))
    app.test_cli_runner().invoke(args=["daily", "par", "--budget-ms", "5"])  # a par quickly: minutes at 50
    others_play(playwright, base_url, [20, 20, 21, 22])  # Ada and Bohumil move alike: a tie
    taken = []
    context = browser.new_context(base_url=base_url, viewport=SCREENS["desktop"], reduced_motion="reduce")
    page = context.new_page()
    daily_game(page.request, "You", 7)
    page.goto("/daily")
    daily_ready(page)
    page.get_by_test_id("daily-share").click()
    page.get_by_test_id("share-text").wait_for()
    taken.append(out / "daily-desktop-light.png")
    page.screenshot(path=taken[-1], full_page=True)
    context.close()
    for scheme in ("light", "dark"):
        context = browser.new_context(
            base_url=base_url, viewport=SCREENS["phone"], color_scheme=scheme, reduced_motion="reduce"
        )
        page = context.new_page()
        daily_game(page.request, None, 3, moves=60)
        page.goto("/daily")
        daily_ready(page)
        taken.append(out / f"daily-phone-{scheme}.png")
        page.screenshot(path=taken[-1])
        context.close()
    context = browser.new_context(base_url=base_url, viewport=SCREENS["phone"], reduced_motion="reduce")
    page = context.new_page()
    page.goto("/language/cs?next=/daily")
    daily_ready(page)
    taken.append(out / "daily-phone-cs.png")
    page.screenshot(path=taken[-1], full_page=True)
    context.close()
    context = browser.new_context(base_url=base_url, viewport=SCREENS["phone"], reduced_motion="reduce")
    page = context.new_page()
    yesterday = (now - timedelta(days=1)).date().isoformat()
    daily_game(page.request, None, 9, date=yesterday)
    page.goto("/daily")
    daily_ready(page)
    page.get_by_test_id("result-par").wait_for()
    taken.append(out / "daily-archive-phone-light.png")
    page.screenshot(path=taken[-1], full_page=True)
    context.close()
    return taken


def saved_game(request, name, seed, moves):
    """A game played through the API, ``moves`` moves round the directions that move, then saved:
    its record's id."""
    state = request.post("/api/game", data={}).json()
    rng = random.Random(seed)
    while state["moves"] < moves and not state["over"]:
        board = pack(state["board"])
        direction = rng.choice([d for d in DIRECTIONS if move(board, d)[0] != board])
        state = request.post("/api/game/moves", data={"direction": direction}).json()
    saved = request.post("/api/records", data={"name": name})
    assert saved.ok, saved.text()
    return saved.json()["id"]


def shoot_review(browser, base_url, out: Path) -> list[Path]:
    """The replay at the costliest mistake the review found, its rating and the solver's arrow on
    the board the move was played from, on a laptop and on a phone."""
    taken = []
    setup = browser.new_context(base_url=base_url)
    record_id = saved_game(setup.request, "Ada", seed=5, moves=60)
    setup.close()
    for screen, viewport in SCREENS.items():
        context = browser.new_context(base_url=base_url, viewport=viewport, reduced_motion="reduce")
        page = context.new_page()
        page.goto(f"/records/{record_id}#review")
        page.get_by_test_id("find-mistakes").click()
        page.wait_for_function("() => document.querySelector('[data-testid=mistake]')", timeout=120_000)
        page.get_by_test_id("mistake").first.click()
        page.get_by_test_id("solver-arrow").wait_for()
        page.get_by_test_id("board").scroll_into_view_if_needed()
        taken.append(out / f"review-{screen}-light.png")
        page.screenshot(path=taken[-1])
        context.close()
    return taken


# Every tile value from 4 to 65536, and room for the next tile.
EVERY_TILE = [[0, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2048, 4096], [8192, 16384, 32768, 65536]]
THEMES = ["light", "dark", "contrast", "colourblind", "forced-colours"]


def shoot_themes(browser, base_url, out: Path) -> list[Path]:
    """The game page in each theme (settings.js's, kept in localStorage) and under forced colours
    (Windows' high contrast, as Chromium emulates it)."""
    taken = []
    for screen, viewport in SCREENS.items():
        for theme in THEMES:
            context = browser.new_context(base_url=base_url, viewport=viewport, reduced_motion="reduce")
            if theme != "forced-colours":
                context.add_init_script(f"localStorage.setItem('settings', JSON.stringify({{theme: '{theme}'}}))")
            page = context.new_page()
            state = {"board": EVERY_TILE, "score": 412000, "won": True, "over": False, "keep_playing": True}
            assert page.request.put("/api/game", data={**state, "moves": 20000}).ok
            if theme == "forced-colours":
                features = [{"name": "forced-colors", "value": "active"}]
                context.new_cdp_session(page).send("Emulation.setEmulatedMedia", {"features": features})
            page.goto("/")
            ready(page)
            taken.append(out / f"game-{screen}-theme-{theme}.png")
            page.screenshot(path=taken[-1])
            context.close()
    return taken


def shoot_offline(browser, base_url, out: Path) -> list[Path]:
    """A page never opened, asked for while the server cannot be reached: the app's offline page."""
    context = browser.new_context(base_url=base_url, viewport=SCREENS["phone"], reduced_motion="reduce")
    page = context.new_page()
    page.goto("/")
    wait_for_promise(page, "async () => !!(await navigator.serviceWorker.ready).active")
    wait_for_promise(page, "async () => (await caches.keys()).length > 0")
    context.set_offline(True)
    page.goto("/strategy")
    page.locator("h1.page-title").wait_for()
    taken = [out / "offline-phone-light.png"]
    page.screenshot(path=taken[-1])
    context.close()
    return taken


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--only", choices=["sizes"], help="take only these screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    # One address plays every game here, quickly, through the API: no player's limits apply.
    limits = {"RATELIMIT_ENABLED": False, "DAILY_ADDRESS_LIMIT": 100}
    app = create_app({"TESTING": True, "INSTANCE_PATH": tempfile.mkdtemp(), **limits})
    with served(app) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=CHROMIUM_ARGS)
        for shot in (shoot_sizes,) if args.only else (shoot, shoot_themes, shoot_sizes, shoot_review, shoot_offline):
            for path in shot(browser, url, args.out):
                print(path)
        if not args.only:
            for path in shoot_daily(playwright, browser, app, url, args.out):
                print(path)


if __name__ == "__main__":
    main()
