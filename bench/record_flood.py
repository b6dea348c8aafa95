"""Record flood benchmark: other players' moves while one address floods a long record's replay and review.

    python -m bench.record_flood [--players 8] [--flooders 4] [--seconds 3] [--rounds 6] [--workers 2]
                                 [--respect-retry-after] [--behind-nginx]

Starts gunicorn on loopback with its default limits on and saves the longest game of the
stored 100 ms solver run (bench/results/benchmark.json: 22,379 moves, seed 2) as a record,
played through the API from 127.0.0.3. ``--players`` players, each from its own loopback
address, move at a brisk human pace; in alternate phases of ``--seconds`` they play alone
("idle") and while ``--flooders`` connections from one address (127.0.0.2) ask, as fast as
the server answers, for what a replay page asks: the record (its directions and tiles,
Brotli when offered) and a review range at a random position, again at once after a 429 (or,
with ``--respect-retry-after``, waiting as the 429 asks, as the page does). Prints the cost
of one record request, the players' move latency (p50, p90, p99) in each kind of phase, and
what the flood got: the p90 while flooded must stay within 2x of idle. ``--behind-nginx``
runs the app as compose does, behind deploy/nginx.conf and its per-address rate limits (with
Redis), instead of gunicorn alone. All traffic goes to 127.0.0.1 and stops after the given
time.
"""

import json
import multiprocessing
import os
import random
import statistics
import tempfile
import threading
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

from bench import RESULTS
from bench.hint_flood import PLAYER_PAUSE, arguments, percentiles, phase, play, report
from bench.load import player_client

FLOODER, OWNER = "127.0.0.2", "127.0.0.3"
RUN = RESULTS / "benchmark.json"
SEED = 2  # the run's longest game
BATCH = 64
BROTLI = {"Accept-Encoding": "br"}


def patient(client, method, path, body=None, headers=None):
    """A request sent again after each 429, waiting as it asks."""
    while True:
        reply = client.request(method, path, body, headers=headers)
        if reply.status != 429:
            return reply
        time.sleep(reply.retry_after or 1)


def long_record(url):
    """The stored run's longest game, played through the API on its seed and saved: its id and length."""
    game = next(g for g in json.loads(RUN.read_text())["per_game"] if g["seed"] == SEED)
    directions = [{"u": "up", "d": "down", "l": "left", "r": "right"}[letter] for letter in game["directions"]]
    owner = player_client(url, source=OWNER)
    assert patient(owner, "POST", "/api/game", {"seed": SEED}).status == 201
    played = 0
    while played < len(directions):  # a batch stops at the win: keep playing, go on from there
        reply = patient(owner, "POST", "/api/game/moves", {"directions": directions[played:played + BATCH]})
        state = reply.json()
        assert reply.status == 200 and state["moves"] > played, reply.body[:300]
        played = state["moves"]
        if state["won"] and not state["keep_playing"]:
            patient(owner, "POST", "/api/game/keep-playing", {})
    saved = patient(owner, "POST", "/api/records", {"name": "Long game"})
    assert saved.status == 201, saved.body[:300]
    return saved.json()["id"], len(directions)


def record_cost(url, record_id, repeat=9):
    """Median time and size of one record request, plain and with Brotli."""
    client = player_client(url, source="127.0.0.4")
    cost = {}
    for label, headers in (("plain", None), ("br", BROTLI)):
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            reply = client.request("GET", f"/api/records/{record_id}", headers=headers)
            times.append((time.perf_counter() - started) * 1000)
            assert reply.status == 200
        cost[label] = {"ms": round(statistics.median(times), 1), "kB": round(len(reply.body) / 1000, 1)}
    return cost


def flood(url, count, record_id, moves, patient, stop, answers):
    """``count`` connections asking for a replay page's requests as fast as the server answers: the
    record, then a review range, until ``stop``; what they got goes into the ``answers`` queue.

    A ``patient`` flooder waits as long as a 429's Retry-After asks; otherwise it asks again at once.
    Run in a process of its own at the lowest priority, so that the flood's own client work (an
    attacker's machine, in earnest) neither slows the players' clients nor takes the server's cores.
    """
    os.nice(19)
    got = Counter()

    def work(number):
        flooder, rng = player_client(url, source=FLOODER), random.Random(number)
        while not stop.is_set():
            for kind, path in (("record", f"/api/records/{record_id}"),
                               ("review", f"/api/records/{record_id}/review?from={rng.randrange(moves)}")):  # fmt: skip
                try:
                    reply = flooder.request("GET", path, headers=BROTLI)
                    status = reply.status
                except OSError:
                    status = "error"
                got[f"{kind} {status}"] += 1
                if status == 429 and patient:
                    stop.wait(reply.retry_after)

    threads = [threading.Thread(target=work, args=(number,)) for number in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    answers.put(dict(got))


@contextmanager
def flooding(*args):
    """``flood(*args)`` in a child process while the block runs; the flood's answers, once it ends."""
    context = multiprocessing.get_context("spawn")
    stop, queue, answers = context.Event(), context.Queue(), Counter()
    process = context.Process(target=flood, args=(*args, stop, queue))
    process.start()
    try:
        yield answers
    finally:
        stop.set()
        answers.update(queue.get(timeout=60))
        process.join()


def run(url, players_count, flooders_count, seconds, rounds, patient):
    record_id, moves = long_record(url)
    players = [player_client(url, source=f"127.0.0.{10 + number}") for number in range(players_count)]
    for number, player in enumerate(players):
        player.request("POST", "/api/game", {"seed": number})
    idle, flooded, errors, answers = [], [], [], Counter()
    for _ in range(rounds):
        stop = threading.Event()
        phase(play(players, stop, idle, errors), seconds, stop)
        stop = threading.Event()
        with flooding(url, flooders_count, record_id, moves, patient) as got:
            phase(play(players, stop, flooded, errors), seconds, stop)
        answers.update(got)
    return {
        "record": {"moves": moves, "request": record_cost(url, record_id)},
        "idle": percentiles(idle),
        "flooded": percentiles(flooded),
        "flood_answers": dict(sorted(answers.items())),
        "player_pause_ms": PLAYER_PAUSE * 1000,
        "errors": errors[:5],
    }


@contextmanager
def served(workers, behind_nginx):
    """The server's URL: gunicorn alone, or compose's setup on loopback (nginx, a replica, Redis)."""
    from tests.support.servers import PROJECT_ROOT, gunicorn_server

    if not behind_nginx:
        with gunicorn_server(args=["--workers", str(workers)]) as server:
            yield server.url
        return
    from tests.support import image
    from tests.support.compose_stack import replicas_behind_nginx

    with tempfile.TemporaryDirectory() as tmp, replicas_behind_nginx(
        image.Image(PROJECT_ROOT), Path(tmp), ["app"], gunicorn_args=f"--workers {workers}"
    ) as stack:
        yield stack.url


def main(argv=None):
    parser = arguments(__doc__, flooders=4)
    parser.add_argument("--behind-nginx", action="store_true", help="compose's nginx in front, with its rate limits")
    args = parser.parse_args(argv)
    with served(args.workers, args.behind_nginx) as url:
        result = run(url, args.players, args.flooders, args.seconds, args.rounds, args.respect_retry_after)
    report(result, f"a {result['record']['moves']:,}-move record")
    return result


if __name__ == "__main__":
    main()
