"""The browser tests' helpers: the game put and read through the page's session, the page loaded and
idle, its moves on the wire, replays, and what axe and the layout find."""

import random

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from app.engine import DIRECTIONS
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

MOVES = "**/api/game/moves"


class MoveTraffic:
    """The page's move requests as Playwright's network events tell them: each batch's directions
    in the order sent, how many were on their way at once, and how many keys pressed through
    ``press`` found one on its way. With ``latency_ms``, Playwright's routing holds every answer that
    long, as a slow network would, so that fast typing really queues. Set it up before the page loads."""

    def __init__(self, page: Page, latency_ms: int = 0):
        self.page, self.latency_ms = page, latency_ms
        self.batches = []
        self.in_flight = self.max_in_flight = self.pressed_while_in_flight = 0
        self._turns = self._fetched = 0  # requests routed, and sent on to the server
        page.on("request", lambda request: self._count(request, 1))
        page.on("requestfinished", lambda request: self._count(request, -1))
        page.on("requestfailed", lambda request: self._count(request, -1))
        if latency_ms:
            page.route(MOVES, self._answer_late)

    def _count(self, request, change: int) -> None:
        if request.url.endswith("/api/game/moves"):
            if change > 0:
                self.batches.append(request.post_data_json["directions"])
            self.in_flight += change
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def _answer_late(self, route) -> None:
        # The server plays the move at once, in the order the page sent it (Playwright may start the
        # handlers of two requests at once on a busy machine); its answer comes back late.
        turn = self._turns
        self._turns += 1
        while self._fetched < turn:
            self.page.wait_for_timeout(1)
        try:
            response = route.fetch()
        finally:
            self._fetched += 1
        self.page.wait_for_timeout(self.latency_ms)
        route.fulfill(response=response)

    def press(self, key: str) -> None:
        if self.in_flight:
            self.pressed_while_in_flight += 1
        self.page.keyboard.press(key)


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


def finish_game(page: Page) -> dict:
    """Play the page's game to its end through the API, in its session (random moves, going on
    past 2048): the hall of fame ranks only games that are over."""
    rng = random.Random(5)
    state = server_state(page)
    while not state["over"]:
        if state["won"] and not state["keep_playing"]:
            page.request.post("/api/game/keep-playing", data={})
        response = page.request.post("/api/game/moves", data={"direction": rng.choice(DIRECTIONS)})
        assert response.status in (200, 409), response.text()
        state = server_state(page)
    return state


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


BROKEN_WORDS = """(selector) => {
    const broken = [];
    for (const root of document.querySelectorAll(selector)) {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const word of node.data.matchAll(/\\S+/g)) {
                const range = document.createRange();
                range.setStart(node, word.index);
                range.setEnd(node, word.index + word[0].length);
                const rects = [...range.getClientRects()].filter((r) => r.width > 0);
                if (new Set(rects.map((r) => Math.round(r.top))).size > 1) broken.push(word[0]);
            }
        }
    }
    return broken;
}"""


def broken_words(page: Page, selector: str) -> list[str]:
    """The words (runs of characters between spaces) in the elements ``selector`` matches that the
    page shows broken across two lines or more."""
    return page.evaluate(BROKEN_WORDS, selector)


def lines_of(page: Page, selector: str, text: str) -> int:
    """On how many lines the page shows ``text`` (within one text node of the element ``selector``
    matches); 0 if it shows no such text."""
    return page.evaluate(
        """([selector, text]) => {
            const walker = document.createTreeWalker(document.querySelector(selector), NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                const start = node.data.indexOf(text);
                if (start < 0) continue;
                const range = document.createRange();
                range.setStart(node, start);
                range.setEnd(node, start + text.length);
                const rects = [...range.getClientRects()].filter((r) => r.width > 0);
                return new Set(rects.map((r) => Math.round(r.top))).size;
            }
            return 0;
        }""",
        [selector, text],
    )
