"""What the browser fetches: every module at its fingerprinted URL, preloaded; nothing static on a repeat visit."""

from urllib.parse import urlsplit

import pytest

from tests.support.game_page import NetworkLog, wait_idle

pytestmark = pytest.mark.e2e


def test_every_module_is_fetched_fingerprinted_and_preloaded(new_context, console_guard):
    page = console_guard.watch(new_context()).new_page()
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto("/")
    wait_idle(page)
    preloads = page.eval_on_selector_all("link[rel=modulepreload]", "links => links.map(link => link.href)")
    entry = page.eval_on_selector("script[type=module]", "script => script.src")
    modules = {url for url in requested if urlsplit(url).path.startswith("/static/js/")}
    assert modules == {entry, *preloads}, "the page runs its entry and exactly the modules it preloads"
    assert all("?v=" in url for url in modules)


def test_a_repeat_visit_asks_the_server_for_no_static_file(new_context, console_guard):
    context = console_guard.watch(new_context())
    first = context.new_page()
    first.goto("/")
    wait_idle(first)
    first.evaluate("() => navigator.serviceWorker.ready.then(() => true)")  # registered once the page loaded
    first.close()

    page = context.new_page()
    network = NetworkLog(page)
    page.goto("/")
    wait_idle(page)
    page.wait_for_load_state("networkidle")
    asked = [urlsplit(e["url"]).path for e in network.from_network()]
    cached = {urlsplit(e["url"]).path for e in network.from_cache()}
    assert [path for path in asked if path.startswith("/static/")] == [], asked
    assert {"/static/css/style.css", "/static/js/main.js", "/static/js/game.js"} <= cached
    assert "/" in cached  # asked by the service worker, which asks the network first for a page
    assert "/api/game" in asked  # the game, never kept
