"""Shared helpers for the browser tests."""

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from tests.support.browser import NetworkLog as NetworkLog  # shared with the page benchmarks
from tests.support.browser import dom_board as dom_board

BOARD = "[data-testid=board]"

# ArrowLeft merges the two 1024s; the rest of the board stays open.
ONE_MERGE_FROM_WIN = [[1024, 1024, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [2, 0, 0, 0]]

KEYS = {
    "arrows": {"ArrowUp": "up", "ArrowDown": "down", "ArrowLeft": "left", "ArrowRight": "right"},
    "wasd": {"w": "up", "s": "down", "a": "left", "d": "right"},
    "vim": {"k": "up", "j": "down", "h": "left", "l": "right"},
}
ALL_KEYS = {key: direction for family in KEYS.values() for key, direction in family.items()}

# Records the page's move requests: how many were in flight at once, how many were sent and
# which directions they carried (a batch carries several), and how many key presses arrived
# while one was on its way. `latency` ms are added to every move response, as a slow network
# would, so that fast typing really queues.
FETCH_PROBE = """
(() => {
  const probe = { inflight: 0, maxInflight: 0, requests: 0, sent: [], pressedWhileInFlight: 0, latency: %d };
  window.__probe = probe;
  const realFetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const isMove = String(input).endsWith('/api/game/moves');
    if (!isMove) return realFetch(input, init);
    probe.inflight += 1;
    probe.maxInflight = Math.max(probe.maxInflight, probe.inflight);
    const body = JSON.parse(init.body);
    probe.requests += 1;
    probe.sent.push(...(body.directions || [body.direction]));
    try {
      const response = await realFetch(input, init);
      if (probe.latency) await new Promise((resolve) => setTimeout(resolve, probe.latency));
      return response;
    } finally {
      probe.inflight -= 1;
    }
  };
  document.addEventListener('keydown', () => {
    if (probe.inflight > 0) probe.pressedWhileInFlight += 1;
  }, true);
})();
"""


def install_probe(page: Page, latency_ms: int = 0) -> None:
    page.add_init_script(FETCH_PROBE % latency_ms)


def probe(page: Page) -> dict:
    return page.evaluate("() => window.__probe")


def wait_idle(page: Page, timeout: float = 15_000) -> None:
    """Wait until no input is queued, no request is on its way and no tile is animating away."""
    page.wait_for_function(
        "() => document.querySelector('[data-testid=board]')?.dataset.busy === 'false'",
        polling="raf",
        timeout=timeout,
    )


def dom_score(page: Page) -> int:
    return int("".join(ch for ch in page.get_by_test_id("score").inner_text() if ch.isdigit()))


def dom_best(page: Page) -> int:
    return int("".join(ch for ch in page.get_by_test_id("best-score").inner_text() if ch.isdigit()))


def server_state(page: Page) -> dict:
    """The game the server holds for the page's session (shares the page's cookies)."""
    response = page.request.get("/api/game")
    assert response.ok, response.status
    return response.json()


def seed_game(page: Page, seed: int) -> dict:
    response = page.request.post("/api/game", data={"seed": seed})
    assert response.status == 201, response.text()
    return response.json()


def put_game(page: Page, board, score=0, won=False, keep_playing=False, moves=0) -> dict:
    state = {"board": board, "score": score, "won": won, "over": False, "keep_playing": keep_playing, "moves": moves}
    response = page.request.put("/api/game", data=state)
    assert response.ok, response.text()
    return response.json()


def load(page: Page, path: str = "/") -> None:
    page.goto(path)
    wait_idle(page)


def move_requests(page: Page) -> list:
    """Start recording the page's move requests; returns the (live) list."""
    seen = []
    page.on("request", lambda r: seen.append(r) if r.url.endswith("/api/game/moves") else None)
    return seen


class Replay:
    """The same game played through the API in a separate session."""

    def __init__(self, playwright, base_url: str, seed: int):
        self.context = playwright.request.new_context(base_url=base_url)
        response = self.context.post("/api/game", data={"seed": seed})
        assert response.status == 201
        self.state = response.json()

    def move(self, direction: str) -> dict:
        response = self.context.post("/api/game/moves", data={"direction": direction})
        assert response.status in (200, 409), response.text()
        body = response.json()
        self.state = body.get("state", body) if response.status == 409 else body
        return self.state

    def play(self, directions) -> dict:
        for direction in directions:
            self.move(direction)
        return self.state

    def close(self) -> None:
        self.context.dispose()


def replay(playwright, base_url: str, seed: int, directions) -> dict:
    r = Replay(playwright, base_url, seed)
    try:
        return r.play(directions)
    finally:
        r.close()


def axe_violations(page: Page) -> list[str]:
    """axe-core's violations of any impact on the page as it is now."""
    results = Axe().run(page)
    violations = results.response["violations"]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}" for v in violations]
