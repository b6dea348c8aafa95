"""Hint flood benchmark: other players' moves while one client address floods hints.

    python -m bench.hint_flood [--players 8] [--flooders 8] [--seconds 3] [--rounds 6] [--workers 2]

Starts gunicorn on loopback with its default limits on. ``--players`` players, each
from its own loopback address (127.0.0.10, .11, ...), move at a brisk human pace; in
alternate phases of ``--seconds`` they play alone ("idle") and while ``--flooders``
sessions from one other address (127.0.0.2) auto-play a late game as fast as the server
answers (a hint, its move, again), asking again at once after a 429 (or, with
``--respect-retry-after``, waiting as the 429 asks, as the page does). Prints the players' move latency (p50, p90,
p99) in each kind of phase, and what the flood got: the p90 while flooded must stay
within 2x of idle. All traffic goes to 127.0.0.1 and stops after the given time.
"""

import argparse
import json
import statistics
import threading
import time
from collections import Counter
from functools import partial

from bench.load import DIRECTIONS, player_client, timed
from bench.stats import percentile

FLOODER = "127.0.0.2"
LATE_GAME = {
    "board": [[2, 4, 8, 16], [256, 128, 64, 32], [512, 1024, 2, 4], [0, 8, 16, 0]],
    "score": 20000, "won": False, "keep_playing": False, "moves": 900,
}  # fmt: skip
PLAYER_PAUSE = 0.2  # seconds between one player's moves: a brisk human's five a second


def play(players, stop, latencies, errors):
    """Each player moves round the four directions until ``stop``; a lost game is restarted."""

    def work(number):
        player, step = players[number], 0
        while not stop.is_set():
            body = {"direction": DIRECTIONS[step % 4]}
            state = timed(partial(player.request, "POST", "/api/game/moves", body), latencies, errors)
            if state and state["over"]:
                player.request("POST", "/api/game", {"seed": step})
            step += 1
            time.sleep(PLAYER_PAUSE)

    return [threading.Thread(target=work, args=(number,)) for number in range(len(players))]


def flood(flooders, stop, answers, patient):
    """Auto-play at full speed: a hint, its move, and again (a fresh late game when one ends).

    A ``patient`` flooder waits as long as a 429's Retry-After asks (as the page does);
    otherwise it asks again at once.
    """

    def work(flooder):
        while not stop.is_set():
            try:
                hint = flooder.request("POST", "/api/game/hint", {})
                status = hint.status
                if status == 200:
                    flooder.request("POST", "/api/game/moves", {"direction": hint.json()["direction"]})
                elif status == 409:
                    flooder.request("PUT", "/api/game", LATE_GAME)
                elif status == 429 and patient:
                    stop.wait(hint.retry_after)
            except OSError:
                status = "error"
            answers[status] += 1

    return [threading.Thread(target=work, args=(flooder,)) for flooder in flooders]


def phase(threads, seconds, stop):
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()


def percentiles(latencies):
    measured = latencies or [0.0]

    def at(share):
        return round(percentile(measured, share) * 1000, 2)

    return {
        "moves": len(latencies),
        "p50_ms": round(statistics.median(measured) * 1000, 2),
        "p90_ms": at(0.9),
        "p99_ms": at(0.99),
    }


def run(url, players_count, flooders_count, seconds, rounds, patient):
    players = [player_client(url, source=f"127.0.0.{10 + number}") for number in range(players_count)]
    for number, player in enumerate(players):
        player.request("POST", "/api/game", {"seed": number})
    flooders = [player_client(url, source=FLOODER) for _ in range(flooders_count)]
    for flooder in flooders:
        flooder.request("PUT", "/api/game", LATE_GAME)
    idle, flooded, errors, answers = [], [], [], Counter()
    for _ in range(rounds):
        stop = threading.Event()
        phase(play(players, stop, idle, errors), seconds, stop)
        stop = threading.Event()
        phase(play(players, stop, flooded, errors) + flood(flooders, stop, answers, patient), seconds, stop)
    return {
        "idle": percentiles(idle),
        "flooded": percentiles(flooded),
        "hint_answers": {str(status): count for status, count in sorted(answers.items(), key=str)},
        "hints_per_second": round(answers[200] / (seconds * rounds), 1),
        "errors": errors[:5],
    }


def arguments(description, flooders):
    """The options of the flood benchmarks (this one and bench.record_flood)."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--flooders", type=int, default=flooders)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--respect-retry-after", action="store_true", help="the flooders wait as a 429 asks")
    return parser


def report(result, flood):
    """The result, and the players' move p90 while flooded against idle: the figure that must stay under 2x."""
    print(json.dumps(result, indent=2))
    ratio = result["flooded"]["p90_ms"] / result["idle"]["p90_ms"]
    print(f"players' move p90 while one address floods {flood}: {ratio:.2f}x idle")


def main(argv=None):
    parser = arguments(__doc__, flooders=8)
    parser.add_argument("--work-time-limit", help="FLASK_WORK_TIME_LIMIT for the server (default: the app's)")
    args = parser.parse_args(argv)
    from tests.support.servers import gunicorn_server

    env = {"FLASK_WORK_TIME_LIMIT": args.work_time_limit} if args.work_time_limit else {}
    with gunicorn_server(env=env, args=["--workers", str(args.workers)]) as server:
        result = run(server.url, args.players, args.flooders, args.seconds, args.rounds, args.respect_retry_after)
    report(result, "hints")
    return result


if __name__ == "__main__":
    main()
