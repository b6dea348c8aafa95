"""Browser tests: real Chromium (Debian's, see tests.support.browser.CHROMIUM_PATH) against a live server.

A test that stands in for the network routes at the context (``page.context.route``), never the
page: once the service worker controls the page, the requests it lets through are not seen by
``page.route`` (playwright#7588), and an outage test's move reached the server.
"""

import re

import pytest

from app import create_app
from tests.support.browser import CHROMIUM_ARGS, CHROMIUM_PATH, served


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Playwright cannot download its own browsers here: use the system Chromium."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM_PATH, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def live_app(tmp_path_factory):
    """The app the browser tests' server runs (a test may reach into its store, as the server forgetting a session)."""
    instance = tmp_path_factory.mktemp("e2e-instance")
    return create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": instance,  # sessions and locks live in it
            # The page, the API replays and every test share one client address.
            "API_RATE_LIMIT": "100000 per second",
            "NEW_SESSION_RATE_LIMIT": "100000 per second",
            "WORK_TIME_LIMIT": "100000000 per second",
            "REVIEW_RATE_LIMIT": "100000 per second",  # one test's reviews follow another's within the second
            "DAILY_GAME_RATE_LIMIT": "100000 per second",
            "DAILY_ADDRESS_LIMIT": 100000,
            "RECORD_ADDRESS_LIMIT": "100000 per second",  # the tests save many a minute
        }
    )


@pytest.fixture(scope="session")
def live_server(live_app):
    """The app in a threaded werkzeug server on a free 127.0.0.1 port.

    Not pytest-flask's live_server: once installed, that plugin's autouse fixtures push a request
    context into every test that uses tests/conftest.py's ``app`` and swap its response class, and
    its server forks the test process and sets SERVER_NAME, which changes the links the app builds."""
    with served(live_app) as url:
        yield url


@pytest.fixture(scope="session")
def base_url(live_server):
    return live_server


class ConsoleGuard:
    """Collects console errors and uncaught page errors; a test fails on any not allowed."""

    def __init__(self):
        self.errors = []
        # A batch of keys sent ahead that reached the server before the one it follows is refused
        # (409 out_of_sync, nothing played) and sent again: the protocol's answer, not an error.
        self.allowed = [re.compile(r"status of 409 \(CONFLICT\) at .*/api/game/moves$")]

    def watch(self, target):
        """Watch a Page or a BrowserContext."""
        def on_console(message):
            if message.type == "error":
                self.errors.append(f"console: {message.text} at {message.location.get('url', '')}")

        target.on("console", on_console)
        if hasattr(target, "new_page"):  # a context: errors of all its pages
            target.on("weberror", lambda error: self.errors.append(f"pageerror: {error.error}"))
        else:
            target.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        return target

    def allow(self, pattern):
        """Expect console errors matching `pattern` (e.g. the browser's own line for a failed request)."""
        self.allowed.append(re.compile(pattern))

    def unexpected(self):
        return [e for e in self.errors if not any(p.search(e) for p in self.allowed)]


@pytest.fixture
def console_guard():
    guard = ConsoleGuard()
    yield guard
    bad = guard.unexpected()
    assert not bad, "console or page errors:\n" + "\n".join(bad)


@pytest.fixture(autouse=True)
def _guard_default_page(request, console_guard):
    """Every test that uses `page` fails on console and page errors."""
    if "page" in request.fixturenames:
        console_guard.watch(request.getfixturevalue("page"))


def pytest_collection_modifyitems(items):
    """One browser at a time: under pytest-xdist (scripts/test) every browser test runs on one worker,
    in its group, while the other workers run the rest. Two browsers and their servers at once on two
    cores stretched the page's timers past what the tests wait for (an outage test saw no notice)."""
    for item in items:
        if item.get_closest_marker("e2e"):
            item.add_marker(pytest.mark.xdist_group("browser"))
