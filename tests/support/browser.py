"""What the browser benchmarks and the browser tests share: Debian's Chromium, the app served in
this process, the board as the page shows it, and waiting on the page's promises."""

import os
import threading
from contextlib import contextmanager

from werkzeug.serving import make_server

from tests.support.servers import wait_until

# Playwright cannot download its own browsers here: Debian's Chromium it is.
CHROMIUM_PATH = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
# No sandbox as root; nothing that would reach for the (closed) network on its own.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
]


@contextmanager
def served(app):
    """``app`` in a threaded werkzeug server on a free 127.0.0.1 port; yields its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="app-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


def wait_for_promise(page, predicate: str, timeout: float = 15.0):
    """Wait until the page's async ``predicate`` resolves to something true, which is returned.
    Playwright's wait_for_function takes the promise an async function returns for true at once."""
    return wait_until(lambda: page.evaluate(predicate), timeout, interval=0.1, message=predicate.strip()[:60])


def dom_board(page) -> list[list[int]]:
    """The board as the tiles in the DOM show it, of the size the page gave it (--size); tiles merged
    away, still sliding under the merged one, are not on it."""
    size = page.eval_on_selector("#board", "el => Number(el.style.getPropertyValue('--size'))")
    tiles = page.eval_on_selector_all(
        "#tiles [data-value]:not(.tile-leaving)",
        "els => els.map(el => [Number(el.dataset.row), Number(el.dataset.col), Number(el.dataset.value)])",
    )
    board = [[0] * size for _ in range(size)]
    for row, col, value in tiles:
        assert board[row][col] == 0, f"two tiles at ({row}, {col})"
        board[row][col] = value
    return board


def emulate_round_trip(cdp, ms):
    """Chromium adds ``ms`` to every request of the CDP session's page, as a slow network would."""
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": ms, "downloadThroughput": -1, "uploadThroughput": -1},
    )


class NetworkLog:
    """A page's requests as Chromium's network stack saw them (CDP), optionally over a slow network.

    ``latency_ms`` is added to every request's round trip (CDP Network.emulateNetworkConditions).
    Each entry says whether the browser's cache answered and how many bytes crossed the wire:
    ``bytes`` in all, compressed as sent, of which ``header_bytes`` were the response's headers.
    """

    def __init__(self, page, latency_ms: float = 0):
        self.entries = {}
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.requestServedFromCache", lambda e: self._entry(e).update(cached=True))
        self.cdp.on("Network.responseReceived", self._received)
        self.cdp.on("Network.loadingFinished", lambda e: self._entry(e).update(bytes=e["encodedDataLength"]))
        emulate_round_trip(self.cdp, latency_ms)

    def _entry(self, event):
        return self.entries.setdefault(
            event["requestId"], {"url": None, "cached": False, "bytes": 0, "header_bytes": 0, "status": None})

    def _sent(self, event):
        self._entry(event)["url"] = event["request"]["url"]

    def _received(self, event):
        response = event["response"]
        entry = self._entry(event)
        entry.update(status=response["status"], header_bytes=response.get("encodedDataLength", 0), cached=entry[
            "cached"] or any(response.get(f) for f in ("fromDiskCache", "fromPrefetchCache", "fromServiceWorker")))

    def from_network(self) -> list[dict]:
        """The requests the server was asked (a 304 too); not those the cache answered."""
        return [e for e in self.entries.values() if e["url"] and not e["cached"] and not e["url"].startswith("data:")]

    def from_cache(self) -> list[dict]:
        return [e for e in self.entries.values() if e["url"] and e["cached"]]
