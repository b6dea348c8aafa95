"""A returning player whose server cannot be reached: the service worker keeps the page and its
files, the page shows the saved game and best score, says that play resumes when the server is
back (covering nothing), and it does resume; a page it never kept is the app's own offline page,
in the player's language."""

import socket
import tempfile
import threading
from contextlib import suppress

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from app import create_app
from app.engine import pack
from app.engine.sliding import valid_moves
from tests.support.browser import wait_for_promise
from tests.support.game_page import dom_best, dom_board, wait_idle

pytestmark = pytest.mark.e2e


class Server:
    """The app on a port of its own that can stop answering (connection refused) and come back.
    Stopped, it also closes the connections the browser keeps open, which a thread of the server
    would otherwise go on answering: an outage, not a server that stopped accepting."""

    def __init__(self, app):
        self.app, self.port, self.server, self.connections = app, 0, None, []

    def start(self):
        self.server = make_server("127.0.0.1", self.port, self.app, threaded=True)
        self.port = self.server.server_port
        accept = self.server.get_request

        def get_request():
            connection, address = accept()
            self.connections.append(connection)
            return connection, address

        self.server.get_request = get_request
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.port}"

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        for connection in self.connections:
            with suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
        self.connections.clear()


@pytest.fixture
def server():
    app = create_app({"TESTING": True, "INSTANCE_PATH": tempfile.mkdtemp(prefix="e2e-offline-")})
    served = Server(app)
    yield served
    served.stop()


def kept_for_offline(page):
    """Wait until the service worker controls the page and has kept it whole, its files and the
    offline page in the page's language."""
    wait_for_promise(
        page,
        """async () => {
            const cache = await caches.open('game2048');
            const kept = (await cache.keys()).map((r) => new URL(r.url));
            const offline = await cache.match('/offline');
            const page = await cache.match('/', { ignoreVary: true });
            return navigator.serviceWorker.controller
                && page && (await page.text()).includes('id="board"')
                && kept.some((url) => url.pathname === '/static/js/main.js')
                && offline && offline.headers.get('Content-Language') === document.documentElement.lang;
        }""",
    )


def test_a_new_tab_while_the_server_is_down_shows_the_saved_game_and_play_resumes(browser, server, console_guard):
    console_guard.allow(r"Failed to load resource|ERR_CONNECTION_REFUSED")
    url = server.start()
    context = console_guard.watch(browser.new_context(base_url=url))
    page = context.new_page()
    page.goto("/")
    wait_idle(page)
    state = page.request.get("/api/game").json()
    page.keyboard.press(f"Arrow{valid_moves(pack(state['board']))[0].capitalize()}")
    wait_idle(page)
    kept_for_offline(page)
    saved = page.request.get("/api/game").json()
    page.close()

    server.stop()  # connection refused from now on
    page = context.new_page()
    page.goto("/")
    notice = page.get_by_test_id("notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Play resumes when it is back")
    assert dom_board(page) == saved["board"] and dom_best(page) == saved["score"]

    server.start()  # the same port
    wait_idle(page, timeout=30_000)
    expect(notice).to_be_hidden()
    page.keyboard.press(f"Arrow{valid_moves(pack(saved['board']))[0].capitalize()}")
    wait_idle(page)
    assert page.request.get("/api/game").json()["moves"] == saved["moves"] + 1
    context.close()


def test_the_service_worker_never_keeps_the_api(browser, server, console_guard):
    url = server.start()
    context = console_guard.watch(browser.new_context(base_url=url))
    page = context.new_page()
    page.goto("/")
    wait_idle(page)
    kept_for_offline(page)
    page.reload()
    wait_idle(page)
    kept = page.evaluate(
        "async () => (await (await caches.open('game2048')).keys()).map((r) => new URL(r.url).pathname)"
    )
    assert "/" in kept and not [path for path in kept if "/api/" in path]
    assert all(path.startswith("/static/") or path in ("/", "/offline") for path in kept)
    context.close()


OFFLINE_TITLES = {"en": "This page cannot be loaded right now", "cs": "Tuto stránku teď nelze načíst"}


@pytest.mark.parametrize("language", ["en", "cs"])
def test_a_page_never_opened_is_the_apps_own_offline_page_in_the_players_language(
    browser, server, console_guard, language
):
    console_guard.allow(r"Failed to load resource|ERR_INTERNET_DISCONNECTED")
    url = server.start()
    context = console_guard.watch(browser.new_context(base_url=url))
    page = context.new_page()
    page.goto(f"/language/{language}?next=/")
    wait_idle(page)
    game = page.request.get("/api/game").json()
    saved = page.request.post("/api/records", data={"name": "Ann"}).json()["url"]  # a replay never opened
    kept_for_offline(page)

    context.set_offline(True)  # before any visit of these pages
    for path in ("/solver", "/strategy", saved):
        page.goto(path)
        expect(page.locator("h1")).to_have_text(OFFLINE_TITLES[language])
        assert page.locator("html").get_attribute("lang") == language
        assert page.url.endswith(path)  # the address stays the page's: trying again is reloading it
        expect(page.get_by_test_id("offline-again")).to_have_attribute("href", "")
    page.get_by_test_id("offline-game").click()  # the game page, kept, with the game saved in the browser
    expect(page.get_by_test_id("notice")).to_be_visible()
    assert dom_board(page) == game["board"]

    context.set_offline(False)
    page.goto("/solver")
    expect(page.locator("h1")).to_have_text("2048 solver" if language == "en" else "Řešitel hry 2048")
    context.close()


NEEDED = "a, button, summary, input, select, h1, #board, .score-box, .site-header nav"
OVERLAPPING = """([notice, selector]) => {
    const n = document.querySelector(notice).getBoundingClientRect();
    return [...document.querySelectorAll(selector)].filter((el) => {
        const r = el.getBoundingClientRect();
        const shown = r.width > 1 && r.height > 1 && !el.closest('[hidden]');
        return shown && el !== document.querySelector(notice)
            && r.left < n.right && n.left < r.right && r.top < n.bottom && n.top < r.bottom;
    }).map((el) => el.id || el.dataset.testid || el.textContent.trim().slice(0, 40));
}"""


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}])
def test_the_outage_notice_covers_nothing_a_player_needs(browser, server, console_guard, viewport):
    console_guard.allow(r"Failed to load resource|ERR_CONNECTION_REFUSED")
    url = server.start()
    context = console_guard.watch(browser.new_context(base_url=url, viewport=viewport))
    page = context.new_page()
    page.goto("/")
    wait_idle(page)
    kept_for_offline(page)
    board = page.get_by_test_id("board").bounding_box()

    server.stop()
    page.reload()
    notice = page.get_by_test_id("notice")
    expect(notice).to_be_visible()
    assert page.get_by_test_id("board").bounding_box() == board  # the board stays where it was
    for scrolled in ("0", "document.documentElement.scrollHeight"):
        page.evaluate(f"window.scrollTo(0, {scrolled})")
        assert page.evaluate(OVERLAPPING, ["[data-testid=notice]", NEEDED]) == [], scrolled
    server.start()
    wait_idle(page, timeout=30_000)
    expect(notice).to_be_hidden()
    context.close()


NEEDS_THE_SERVER = ["hint", "autoplay", "new-game", "undo"]
SAYS_WHAT_WAITS = {
    "en": "Hint, Auto-play, Undo and New game wait for it too",
    "cs": "Nápověda, Automatická hra, Zpět a Nová hra na něj také čekají",
}


def disabled(page):
    return {name: page.get_by_test_id(name).get_attribute("aria-disabled") for name in NEEDS_THE_SERVER}


@pytest.mark.parametrize("language", ["en", "cs"])
def test_while_the_server_is_down_what_needs_it_waits_and_a_move_on_its_way_outlives_a_reload(
    browser, server, console_guard, language
):
    console_guard.allow(r"Failed to load resource|ERR_CONNECTION_REFUSED")
    url = server.start()
    context = console_guard.watch(browser.new_context(base_url=url, reduced_motion="reduce"))
    page = context.new_page()
    page.goto(f"/language/{language}?next=/")
    wait_idle(page)
    first = valid_moves(pack(page.request.get("/api/game").json()["board"]))[0]
    page.keyboard.press(f"Arrow{first.capitalize()}")  # a move to take back: Undo enabled
    wait_idle(page)
    kept_for_offline(page)
    before = page.request.get("/api/game").json()
    assert set(disabled(page).values()) == {"false"}

    server.stop()
    page.keyboard.press(f"Arrow{valid_moves(pack(before['board']))[0].capitalize()}")  # slides; never answered
    notice = page.get_by_test_id("notice")
    expect(notice).to_contain_text(SAYS_WHAT_WAITS[language])
    expect(page.get_by_test_id("new-game")).to_have_attribute("aria-disabled", "true")
    assert set(disabled(page).values()) == {"true"}
    held = dom_board(page)
    assert held != before["board"]
    page.get_by_test_id("new-game").click(force=True)  # aria-disabled, still pressable: nothing asked, the game kept
    assert page.locator("dialog[open]").count() == 0 and dom_board(page) == held

    page.reload()  # the service worker's copy of the page, the move still on its way
    expect(notice).to_be_visible()
    assert dom_board(page) == held

    server.start()
    wait_idle(page, timeout=30_000)
    expect(notice).to_be_hidden()
    after = page.request.get("/api/game").json()
    assert after["moves"] == before["moves"] + 1  # the move made offline, played once
    assert dom_board(page) == after["board"]
    assert all(held[r][c] == after["board"][r][c] for r in range(4) for c in range(4) if held[r][c])
    assert set(disabled(page).values()) == {"false"}
    context.close()
