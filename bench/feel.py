"""How the game feels on a slow network: key press to motion, to a settled board, and a burst.

    python -m bench.feel [--round-trips 0 50 150 300] [--presses 15] [--url http://127.0.0.1:8000]

Drives the real page in Debian's Chromium (CHROMIUM_PATH) through Playwright; Chromium adds
each round trip to every request (CDP Network.emulateNetworkConditions). For each round trip it
prints the median time from a key press to the first tile motion (the frame after the tiles
moved), from a key press to the settled board (the new tile shown, the page idle and its board
the server's), and the time a burst of 10 keys 40 ms apart takes to settle. Without --url it
serves the app itself, in this process, from a temporary instance folder.
"""

import argparse
import logging
import random
import statistics
import tempfile
from contextlib import contextmanager, nullcontext

from playwright.sync_api import sync_playwright

from app import create_app
from app.engine import pack
from app.engine.sliding import valid_moves
from tests.support.browser import CHROMIUM_ARGS, CHROMIUM_PATH, dom_board, emulate_round_trip, served

KEYS = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}
BURST_KEYS, BURST_SPACING_MS = 10, 40

# Timestamps (performance.now) of the last key press, the frame after the tiles first moved,
# and the moment the page was idle again.
PROBE = """
window.__feel = { pressed: null, motion: null, settled: null };
document.addEventListener('keydown', () => {
  if (window.__feel.burst) return;
  Object.assign(window.__feel, { pressed: performance.now(), motion: null, settled: null });
}, true);
document.addEventListener('DOMContentLoaded', () => {
  const feel = window.__feel;
  new MutationObserver(() => {
    if (feel.pressed !== null && feel.motion === null) {
      feel.motion = -1;
      requestAnimationFrame(() => { feel.motion = performance.now(); });
    }
  }).observe(document.getElementById('tiles'),
    { childList: true, attributes: true, attributeFilter: ['data-row', 'data-col'], subtree: true });
  const board = document.getElementById('board');
  new MutationObserver(() => {
    if (board.dataset.busy === 'false' && feel.pressed !== null) feel.settled = performance.now();
  }).observe(board, { attributes: true, attributeFilter: ['data-busy'] });
});
"""

# Ten synthetic key presses 40 ms apart, timed in the page itself.
BURST = """([keys, spacing]) => new Promise((resolve) => {
  const feel = window.__feel;
  Object.assign(feel, { burst: true, pressed: performance.now(), settled: null });
  keys.forEach((key, i) => setTimeout(() => {
    document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
    if (i === keys.length - 1) resolve();
  }, i * spacing));
})"""

SETTLED = "() => document.getElementById('board').dataset.busy === 'false' && window.__feel.settled !== null"


@contextmanager
def served_app():
    """The app in this process, from a temporary instance, rate limits off (one fast client)."""
    with tempfile.TemporaryDirectory(prefix="feel-") as instance:
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
        with served(create_app({"INSTANCE_PATH": instance, "RATELIMIT_ENABLED": False})) as url:
            yield url


def agrees_with_server(page):
    return page.request.get("/api/game").json()["board"] == dom_board(page)


def fresh_game(page, seed):
    page.request.post("/api/game", data={"seed": seed})
    page.goto("/")
    page.wait_for_function("() => document.getElementById('board').dataset.busy === 'false'")


def measure(browser, base_url, round_trip, presses, rng):
    page = browser.new_page(base_url=base_url)
    page.add_init_script(PROBE)
    fresh_game(page, rng.randrange(2**32))
    emulate_round_trip(page.context.new_cdp_session(page), round_trip)
    motion, settled, disagreements = [], [], 0
    for _ in range(presses):
        moves = valid_moves(pack(dom_board(page)))
        if not moves:
            fresh_game(page, rng.randrange(2**32))
            moves = valid_moves(pack(dom_board(page)))
        page.keyboard.press(KEYS[rng.choice(moves)])
        page.wait_for_function(SETTLED, polling="raf", timeout=30_000)
        feel = page.evaluate("() => window.__feel")
        motion.append(feel["motion"] - feel["pressed"])
        settled.append(feel["settled"] - feel["pressed"])
        disagreements += not agrees_with_server(page)
    bursts = []
    for _ in range(3):
        keys = [KEYS[rng.choice(sorted(KEYS))] for _ in range(BURST_KEYS)]
        page.evaluate(BURST, [keys, BURST_SPACING_MS])
        page.wait_for_function(SETTLED, polling="raf", timeout=30_000)
        feel = page.evaluate("() => window.__feel")
        bursts.append(feel["settled"] - feel["pressed"])
        disagreements += not agrees_with_server(page)
        page.evaluate("() => { window.__feel.burst = false; }")
    page.close()
    return statistics.median(motion), statistics.median(settled), statistics.median(bursts), disagreements


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--round-trips", type=int, nargs="+", default=[0, 50, 150, 300], metavar="MS")
    parser.add_argument("--presses", type=int, default=15, help="single key presses per round trip")
    parser.add_argument("--url", help="an already running server (default: serve the app here)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    serving = served_app() if args.url is None else nullcontext(args.url)
    with serving as base_url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=CHROMIUM_ARGS)
        print(f"{'round trip':>10}  {'first motion':>12}  {'settled':>9}  {'10-key burst':>12}  disagreements")
        for round_trip in args.round_trips:
            motion, settled, burst, disagreements = measure(browser, base_url, round_trip, args.presses, rng)
            print(
                f"{round_trip:>7} ms  {motion:>9.0f} ms  {settled:>6.0f} ms  {burst:>9.0f} ms  {disagreements:>13}",
                flush=True,
            )
        browser.close()


if __name__ == "__main__":
    main()
