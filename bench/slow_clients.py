"""Slow clients: one player's moves, first alone, then while dozens of connections dribble or stall.

    python -m bench.slow_clients [--slow 24] [--moves 150] [--command image|readme] [--gunicorn-args "-k sync"]
                                 [--attack slow|chunk-flood|idle]

Starts the image's own command (the Dockerfile's CMD and ENV: 2 workers) or the README's
(``gunicorn -b ... 'app:create_app()'``) on a free loopback port, run from the project root so
gunicorn.conf.py applies, and plays a game with a fresh connection a request, paced as a fast
player (about 25 moves a second), starting a new game every 25 moves. Then it opens ``--slow``
connections of tests/support/slow_clients.py's three kinds (a stalled body, endless headers, a
dribbled body), kept open until the end (reopened whenever the server closes one), and plays
again. It prints the player's p50/p90/max latency alone and with the slow connections, p90's
ratio, the requests that got no answer within the client's timeout (20 s), and how long the
server kept a slow connection before closing it. ``--gunicorn-args`` are added through
GUNICORN_CMD_ARGS (other worker classes, ``--threads``) to compare candidates. ``--attack`` sends
one of tests/support/slow_clients.py's floods instead, from another loopback address than the
player's (127.0.0.2): ``chunk-flood`` (30,000 one-byte chunks, then one every 0.3 s: try
``--slow 16``) or ``idle`` (connections that send nothing: try ``--slow 600``).
"""

import argparse
import json
import os
import statistics
import tempfile
import time
from contextlib import ExitStack, suppress

from tests.support import dockerfile
from tests.support.client import HttpClient
from tests.support.servers import LOOPBACK, free_port, gunicorn_server, readme_command
from tests.support.slow_clients import FLOODS, KINDS, SlowConnections

DIRECTIONS = ("left", "down", "right", "up")
CLIENT_TIMEOUT = 20.0
PACE = 0.04  # seconds between a player's requests
PHASE_SECONDS = 90.0
ATTACKER = "127.0.0.2"
ATTACKS = {"slow": (KINDS, LOOPBACK), **{flood.replace(" ", "-"): ((flood,), ATTACKER) for flood in FLOODS}}


def command(kind, port):
    """The image's CMD (bound to loopback) or the README's, as argv."""
    if kind == "readme":
        return readme_command(port)
    argv = dockerfile.cmd()
    return [f"{LOOPBACK}:{port}" if word == "0.0.0.0:8000" else word for word in argv]


def environment(kind, instance):
    """The image's ENV (its instance folder moved here) for the image's command; none for the README's."""
    if kind == "readme":
        return {"FLASK_INSTANCE_PATH": instance}
    values = dockerfile.env()
    values["FLASK_INSTANCE_PATH"] = instance
    values["NUMBA_CACHE_DIR"] = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        tempfile.gettempdir(), "bench-numba-cache"
    )
    return values


def play(url, moves, within=PHASE_SECONDS):
    """A player's latencies (seconds) for ``moves`` moves and a new game every 25, and the requests
    unanswered; the player gives up after ``within`` seconds (a server that slow serves nobody)."""
    player = HttpClient(url, timeout=CLIENT_TIMEOUT)
    latencies, unanswered = [], []
    deadline = time.monotonic() + within
    for step in range(moves):
        if time.monotonic() > deadline:
            unanswered.append(f"{moves - step} requests not sent: the phase took over {within} s")
            break
        path, body = ("/api/game", {}) if step % 25 == 0 else ("/api/game/moves", {"direction": DIRECTIONS[step % 4]})
        started = time.perf_counter()
        try:
            answer = player.post(path, json=body)
        except OSError as error:
            unanswered.append(f"{path}: {error!r}")
            continue
        latencies.append(time.perf_counter() - started)
        if answer.status >= 400:
            unanswered.append(f"{path}: {answer.status} {answer.body[:100]!r}")
        time.sleep(PACE)
    return latencies, unanswered


def percentiles(latencies):
    ordered = sorted(latencies) or [float("nan")]
    at = lambda share: ordered[min(len(ordered) - 1, int(len(ordered) * share))]  # noqa: E731
    return {"p50_ms": round(statistics.median(ordered) * 1000, 1), "p90_ms": round(at(0.9) * 1000, 1),
            "max_ms": round(ordered[-1] * 1000, 1), "answered": len(latencies)}  # fmt: skip


def run(kind, slow, moves, gunicorn_args="", attack="slow"):
    """Start the server, play alone, then play beside ``slow`` connections of the ``attack``; the figures."""
    port = free_port()
    with ExitStack() as stack:
        instance = stack.enter_context(tempfile.TemporaryDirectory(prefix="slow-clients-"))
        env = environment(kind, instance) | {"GUNICORN_CMD_ARGS": gunicorn_args}
        server = stack.enter_context(gunicorn_server(argv=command(kind, port), port=port, env=env, timeout=90))
        play(server.url, 25)  # warm: both workers have answered before anything is timed
        alone, alone_unanswered = play(server.url, moves)
        kinds, source = ATTACKS[attack]
        with SlowConnections(port, slow, kinds, source) as held:
            time.sleep(2.0)  # every slow connection open and sending
            busy, busy_unanswered = play(server.url, moves)
            still_open = held.open_now
        idle, loaded = percentiles(alone), percentiles(busy)
        return {
            "command": " ".join(command(kind, port)),
            "gunicorn_args": gunicorn_args,
            "attack": attack,
            "slow_connections": slow,
            "alone": idle | {"unanswered": len(alone_unanswered)},
            "with_slow": loaded | {"unanswered": len(busy_unanswered), "first_unanswered": busy_unanswered[:3]},
            "p90_ratio": round(loaded["p90_ms"] / idle["p90_ms"], 2) if busy else None,
            "slow_opened": held.opened,
            "slow_open_at_end": still_open,
            "slow_kept_s_median": round(statistics.median(held.lifetimes), 1) if held.lifetimes else None,
            "load_average": round(os.getloadavg()[0], 2),
        }


def report(result):
    alone, busy = result["alone"], result["with_slow"]
    lines = [
        f"slow clients: {result['command']}"
        + (f"  (GUNICORN_CMD_ARGS={result['gunicorn_args']})" if result["gunicorn_args"] else ""),
        f"  alone:   p50 {alone['p50_ms']:8.1f} ms  p90 {alone['p90_ms']:8.1f} ms  max {alone['max_ms']:8.1f} ms"
        f"  answered {alone['answered']}, unanswered {alone['unanswered']}",
        f"  with {result['slow_connections']} {result['attack']}: p50 {busy['p50_ms']:8.1f} ms"
        f"  p90 {busy['p90_ms']:8.1f} ms  max {busy['max_ms']:8.1f} ms  answered {busy['answered']},"
        f" unanswered {busy['unanswered']}",
        f"  p90 with slow connections / alone: {result['p90_ratio']}",
        f"  slow connections opened {result['slow_opened']}, open at the end {result['slow_open_at_end']},"
        f" kept by the server {result['slow_kept_s_median']} s (median)",
        f"  load average (1 min) at the end: {result['load_average']}",
    ]
    lines += [f"  e.g. {error}" for error in busy["first_unanswered"]]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--slow", type=int, default=24, help="slow connections held open")
    parser.add_argument("--moves", type=int, default=150, help="requests the player makes in each phase")
    parser.add_argument("--command", choices=("image", "readme"), default="image")
    parser.add_argument("--gunicorn-args", default="", help="added through GUNICORN_CMD_ARGS")
    parser.add_argument("--attack", choices=tuple(ATTACKS), default="slow", help="what the connections send")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with suppress(KeyboardInterrupt):
        result = run(args.command, args.slow, args.moves, args.gunicorn_args, args.attack)
        print(json.dumps(result, indent=2) if args.json else report(result))
        return result
    return None


if __name__ == "__main__":
    main()
