"""A worker's memory and hint times under auto-play: ``python -m bench.hints --hints 1000``.

Starts gunicorn with one worker on loopback (rate limits off), then plays games the way
Auto-play does: ask for a hint, play it, and start a new game when one ends. Prints how
long the worker took to start (the solver's machine code is loaded before it answers),
the hint times seen by the client and reported by the solver, and the worker's resident
memory (VmRSS, and how much of it is mapped files such as numba's LLVM library, which
every worker shares) before the first hint and after the last. The records' database is
new, as on a host's first start: gunicorn.conf.py makes it before the worker starts.
"""

import argparse
import json
import time

from bench.stats import percentile
from tests.support.client import HttpClient
from tests.support.servers import gunicorn_server


def rss_mb(pid: int) -> dict:
    """Resident memory: all of it, the process's own (anonymous) and mapped files (shared libraries)."""
    with open(f"/proc/{pid}/status") as status:
        fields = dict(line.split(":", 1) for line in status)
    return {name: int(fields[key].split()[0]) / 1024
            for name, key in (("rss", "VmRSS"), ("anonymous", "RssAnon"), ("files", "RssFile"))}


def auto_play(client: HttpClient, hints: int) -> tuple[list[float], list[float]]:
    """Milliseconds each hint took: as the client saw it, and as the solver reported it."""
    latencies, thinking = [], []
    client.post("/api/game", json={})
    while len(latencies) < hints:
        started = time.perf_counter()
        answer = client.post("/api/game/hint", json={})
        if answer.status == 409:  # the game is finished: begin again
            client.post("/api/game", json={})
            continue
        assert answer.status == 200, (answer.status, answer.body[:200])
        latencies.append((time.perf_counter() - started) * 1000)
        hint = answer.json()
        thinking.append(hint["ms"])
        client.post("/api/game/moves", json={"direction": hint["direction"]})
    return latencies, thinking


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(prog="python -m bench.hints", description=__doc__.splitlines()[0])
    parser.add_argument("--hints", type=int, default=1000)
    parser.add_argument("--budget-ms", type=float, default=100)
    args = parser.parse_args(argv)
    env = {"FLASK_RATELIMIT_ENABLED": "false", "FLASK_SOLVER_BUDGET_MS": str(args.budget_ms)}
    started = time.perf_counter()
    with gunicorn_server(env=env, args=["--workers", "1"], timeout=120) as server:
        start_seconds = time.perf_counter() - started
        (worker,) = server.wait_for_workers(1)
        before = rss_mb(worker)
        latencies, thinking = auto_play(HttpClient(server.url), args.hints)
        after = rss_mb(worker)
    result = {
        "hints": args.hints,
        "budget_ms": args.budget_ms,
        "start_seconds": start_seconds,
        "client_ms": {"median": percentile(latencies, 0.5), "p99": percentile(latencies, 0.99)},
        "solver_ms": {"median": percentile(thinking, 0.5), "p99": percentile(thinking, 0.99)},
        "rss_mb": {"before": before, "after": after},
    }
    print(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
