"""Page delivery benchmark: what a first and a repeat visit of the game page cost in Chromium.

    python -m bench.delivery                      # gunicorn as the image runs it (one container)
    python -m bench.delivery --setup compose      # Redis, a replica and nginx as compose runs them
    python -m bench.delivery --url http://127.0.0.1:8000   # an already running server

For each emulated round trip (CDP Network.emulateNetworkConditions adds it to every request)
a browser with a fresh profile visits the page; it is closed, and a browser on the same profile
visits again: a returning player, with cookies, localStorage and the HTTP cache kept. Each visit
prints the bytes that crossed the wire (headers and bodies, compressed as sent; the headers also
on their own), how many requests reached the server and how many of those were for static files,
and when (from the start of the navigation) the HTML had arrived, the API had answered and the
board was ready (its data-busy turned false). "Trips" counts the round trips to the server
between the HTML and the ready board: requests under way at the same time count once, so it
does not depend on how busy the CPU is, as the times do on this shared machine.
Times are the median of ``--runs`` runs and trips the most of any run; bytes and requests are
the same in every run.
Targets: first visit at most 25 KB; a repeat visit asks for no static file and, at 150 ms, the
board is ready within 2 round trips of the HTML.
"""

import argparse
import statistics
import tempfile
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from tests.support.browser import CHROMIUM_ARGS, CHROMIUM_PATH, NetworkLog

# The board's data-busy turns "false" once the game is shown and nothing is on its way.
READY_PROBE = """
new MutationObserver((_, observer) => {
  const board = document.querySelector('[data-testid=board]');
  if (board && board.dataset.busy === 'false') {
    window.boardReadyAt = performance.now();
    observer.disconnect();
  }
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-busy'] });
"""
TIMINGS = """() => ({
  html: performance.getEntriesByType('navigation')[0].responseEnd,
  ready: window.boardReadyAt,
  resources: performance.getEntriesByType('resource').map((entry) => ({
    path: new URL(entry.name).pathname, start: entry.startTime, end: entry.responseEnd,
    fromNetwork: entry.transferSize > 0,
  })),
})"""


@dataclass
class Visit:
    asked: list  # (path, bytes, header bytes) of every request that reached the server
    html_ms: float  # navigation start to the HTML's last byte
    api_ms: float  # ... to the first API answer's last byte
    ready_ms: float  # ... to the board being ready
    trips: int  # round trips to the server after the HTML, before the board was ready

    @property
    def transferred(self):
        return sum(size for _, size, _ in self.asked)

    @property
    def header_bytes(self):
        return sum(headers for _, _, headers in self.asked)

    @property
    def static_requests(self):
        return sum(path.startswith("/static/") for path, _, _ in self.asked)


def visit(playwright, profile, url, latency_ms):
    """One visit in a browser on ``profile``, closed afterwards so that only its disk cache stays."""
    context = playwright.chromium.launch_persistent_context(
        profile, executable_path=CHROMIUM_PATH, args=CHROMIUM_ARGS, headless=True)
    try:
        context.add_init_script(READY_PROBE)
        page = context.pages[0] if context.pages else context.new_page()
        network = NetworkLog(page, latency_ms)
        page.goto(url)
        page.wait_for_function("() => window.boardReadyAt !== undefined", timeout=60_000)
        page.wait_for_load_state("networkidle")
        timings = page.evaluate(TIMINGS)
        asked = [(urlsplit(e["url"]).path, e["bytes"], e["header_bytes"]) for e in network.from_network()]
        api_ms = min(r["end"] for r in timings["resources"] if r["path"].startswith("/api/"))
        return Visit(asked, timings["html"], api_ms, timings["ready"], round_trips(timings))
    finally:
        context.close()


def round_trips(timings):
    """How many times, between the HTML and the ready board, the page waited for the server."""
    fetched = sorted((r["start"], r["end"]) for r in timings["resources"]
                     if r["fromNetwork"] and r["start"] >= timings["html"] and r["end"] <= timings["ready"])
    trips, busy_until = 0, -1
    for start, end in fetched:
        trips += start > busy_until
        busy_until = max(busy_until, end)
    return trips


def median_visit(visits):
    times = (statistics.median(getattr(v, name) for v in visits) for name in ("html_ms", "api_ms", "ready_ms"))
    return Visit(visits[0].asked, *times, max(v.trips for v in visits))


def measure(url, latencies, runs):
    """{(latency, "first" | "repeat"): Visit with the median times of ``runs`` runs}."""
    from playwright.sync_api import sync_playwright

    visits = {}
    with sync_playwright() as playwright:
        for latency in latencies:
            for _ in range(runs):
                with tempfile.TemporaryDirectory(prefix="delivery-profile-") as profile:
                    for kind in ("first", "repeat"):
                        visits.setdefault((latency, kind), []).append(visit(playwright, profile, url, latency))
    return {key: median_visit(found) for key, found in visits.items()}


def report(results, label, runs):
    print(f"{label} (median of {runs} runs)")
    print(f"{'round trip':>10}  {'visit':6}  {'transferred':>11}  {'headers':>8}  {'requests':>8}  {'static':>6}"
          f"  {'HTML at':>7}  {'API at':>7}  {'ready at':>8}  {'trips':>5}")
    for (latency, kind), v in results.items():
        print(f"{latency:>7g} ms  {kind:6}  {v.transferred / 1000:>8.1f} KB  {v.header_bytes / 1000:>5.1f} KB"
              f"  {len(v.asked):>8}  {v.static_requests:>6}  {v.html_ms:>4.0f} ms  {v.api_ms:>4.0f} ms"
              f"  {v.ready_ms:>5.0f} ms  {v.trips:>5}")
    for (latency, kind), v in list(results.items())[:2]:
        print(f"\n{kind} visit at {latency:g} ms: the requests that reached the server (bytes, of which headers)")
        for path, size, headers in v.asked:
            print(f"  {size:7d} B  {headers:5d} B  {path}")


def start(setup, stack, folder):
    """The server of ``setup`` on loopback ports, for the run only; returns its URL."""
    from tests.support import image
    from tests.support.compose_stack import replicas_behind_nginx
    from tests.support.servers import PROJECT_ROOT

    if setup == "compose":
        return stack.enter_context(replicas_behind_nginx(image.Image(PROJECT_ROOT), folder, ("app",))).url
    return stack.enter_context(image.server(image.Image(PROJECT_ROOT), folder / "instance")).url


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", choices=["one-container", "compose"], default="one-container",
                        help="what to start: gunicorn alone, or Redis, a replica and nginx")
    parser.add_argument("--url", help="measure this running server instead of starting one")
    parser.add_argument("--latency", type=float, nargs="+", default=[0, 150], help="emulated round trips, in ms")
    parser.add_argument("--runs", type=int, default=3, help="runs per round trip; times are their median")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="delivery-") as folder, ExitStack() as stack:
        url = args.url or start(args.setup, stack, Path(folder))
        results = measure(url.rstrip("/") + "/", args.latency, args.runs)
    report(results, args.url or f"{args.setup}: {url}", args.runs)


if __name__ == "__main__":
    main()
