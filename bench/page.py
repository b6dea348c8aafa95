"""What the browser benchmarks and the browser tests share: Debian's Chromium, the app served in
this process, and the board as the page shows it."""

import os
import threading
from contextlib import contextmanager

from werkzeug.serving import make_server

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


def dom_board(page) -> list[list[int]]:
    """The board as the tiles in the DOM show it (read it when the page is idle)."""
    tiles = page.eval_on_selector_all(
        "#tiles [data-value]",
        "els => els.map(el => [Number(el.dataset.row), Number(el.dataset.col), Number(el.dataset.value)])",
    )
    board = [[0] * 4 for _ in range(4)]
    for row, col, value in tiles:
        assert board[row][col] == 0, f"two tiles at ({row}, {col})"
        board[row][col] = value
    return board
