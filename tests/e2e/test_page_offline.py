"""A returning player whose server cannot be reached: the service worker keeps the page and its
files, the page shows the saved game and best score, says that play resumes when the server is
back, and it does resume."""

import tempfile
import threading

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from app import create_app
from app.engine import pack, valid_moves

from .helpers import dom_best, dom_board, wait_idle

pytestmark = pytest.mark.e2e


class Server:
    """The app on a port of its own that can stop answering (connection refused) and come back."""

    def __init__(self, app):
        self.app, self.port, self.server = app, 0, None

    def start(self):
        self.server = make_server("127.0.0.1", self.port, self.app, threaded=True)
        self.port = self.server.server_port
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.port}"

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def server():
    app = create_app({"TESTING": True, "INSTANCE_PATH": tempfile.mkdtemp(prefix="e2e-offline-")})
    served = Server(app)
    yield served
    served.stop()


def kept_for_offline(page):
    """Wait until the service worker controls the page and has kept it and its files."""
    page.wait_for_function(
        """async () => navigator.serviceWorker.controller
            && (await (await caches.open('game2048')).keys()).some((r) => new URL(r.url).pathname === '/')
            && (await (await caches.open('game2048')).keys()).some((r) => r.url.includes('/static/js/main.js'))""",
        polling=100,
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
    assert all(path.startswith("/static/") or path == "/" for path in kept)
    context.close()
