"""Load benchmark: N sessions x M moves from K client threads against gunicorn on loopback.

    python -m bench.load --sessions 40 --moves 50 --threads 8 --workers 4 [--store redis]
    python -m bench.load --url http://127.0.0.1:8000 ...   # an already running server
    python -m bench.load --watched ...   # with metrics and JSON logs on, to see what watching costs
    python -m bench.load --gunicorn-args "-k sync" ...   # another worker class than gunicorn.conf.py's

Prints moves/s, p50/p99 latency and errors for the moves and for GET /healthz measured
in the same run, and their ratio (the session store must not be the bottleneck).
Without --url it starts gunicorn (and redis-server for --store redis) itself, with rate
limits off: the benchmark is one client address sending far faster than any player.
It then also prints the CPU time one request costs in the server's processes, the
store's and this client, which share the machine's cores.
"""

import argparse
import json
import resource
import statistics
import threading
import time
from collections import Counter
from contextlib import ExitStack, contextmanager
from functools import partial

from tests.support.client import HttpClient

DIRECTIONS = ("left", "down", "right", "up")


def player_client(url, source=None):
    """One player's client (a cookie, a fresh connection per request), from ``source`` if given."""
    return HttpClient(url, timeout=30, source=source)


def timed(call, latencies, errors):
    started = time.perf_counter()
    try:
        response = call()
    except OSError as error:
        errors.append(repr(error))
        return None
    latencies.append(time.perf_counter() - started)
    if response.status >= 400:
        errors.append(f"{response.status} {response.body[:120]!r}")
        return None
    return response.json()


def run_threads(threads, work):
    """Run ``work(index)`` on ``threads`` threads at once; the wall time they took."""
    workers = [threading.Thread(target=work, args=(index,)) for index in range(threads)]
    started = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return time.perf_counter() - started


class CpuMeter:
    """CPU seconds used so far by this client and by the process groups it was given."""

    def __init__(self, groups):
        self.groups = groups  # {"server": pgid, "store": pgid}

    def read(self):
        from tests.support.servers import group_cpu_seconds

        usage = resource.getrusage(resource.RUSAGE_SELF)
        used = {name: group_cpu_seconds(pgid) for name, pgid in self.groups.items()}
        return used | {"client": usage.ru_utime + usage.ru_stime}


class Measurement:
    """Latencies, errors, request count, time and CPU spent, summed over the rounds of a run."""

    def __init__(self):
        self.latencies, self.errors, self.requests, self.seconds = [], [], 0, 0.0
        self.cpu = Counter()

    def summary(self):
        ordered = sorted(self.latencies) or [0.0]
        summary = {
            "requests": self.requests,
            "seconds": round(self.seconds, 3),
            "per_second": round(self.requests / self.seconds, 1) if self.seconds else 0.0,
            "p50_ms": round(statistics.median(ordered) * 1000, 2),
            "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 2),
            "errors": len(self.errors),
            "first_errors": self.errors[:3],
        }
        if self.cpu and self.requests:
            summary["cpu_us_per_request"] = {name: round(used / self.requests * 1e6) for name, used in self.cpu.items()}
        return summary


@contextmanager
def metered(meter, measured):
    """Add the CPU time a round used to ``measured`` (nothing without a meter)."""
    before = meter.read() if meter else {}
    yield
    if meter:
        measured.cpu.update({name: used - before[name] for name, used in meter.read().items()})


def healthz_round(url, requests, threads, measured):
    per_thread = [requests // threads + (i < requests % threads) for i in range(threads)]

    def work(index):
        session = player_client(url)
        for _ in range(per_thread[index]):
            timed(partial(session.request, "GET", "/healthz"), measured.latencies, measured.errors)

    measured.seconds += run_threads(threads, work)
    measured.requests += requests


def moves_round(players, moves, threads, measured, first_step):
    """Every player makes ``moves`` moves round the four directions; a lost game is restarted."""
    played = []

    def work(index):
        count = 0
        for number in range(index, len(players), threads):
            player = players[number]
            for step in range(first_step, first_step + moves):
                body = {"direction": DIRECTIONS[step % 4]}
                request = partial(player.request, "POST", "/api/game/moves", body)
                state = timed(request, measured.latencies, measured.errors)
                count += state is not None
                if state and state["over"]:
                    player.request("POST", "/api/game", {"seed": number + step})
        played.append(count)

    measured.seconds += run_threads(threads, work)
    measured.requests += sum(played)


def run_load(url, sessions, moves, threads, rounds=4, meter=None):
    """Alternate rounds of /healthz and of moves, so a change in machine load hits both alike."""
    players = [player_client(url) for _ in range(sessions)]
    for number, player in enumerate(players):
        player.request("POST", "/api/game", {"seed": number})
    healthz, moved = Measurement(), Measurement()
    step = 0
    for round_number in range(rounds):
        share = moves // rounds + (round_number < moves % rounds)
        with metered(meter, healthz):
            healthz_round(url, sessions * share, threads, healthz)
        with metered(meter, moved):
            moves_round(players, share, threads, moved, first_step=step)
        step += share
    healthz, moved = healthz.summary(), moved.summary()
    return {"healthz": healthz, "moves": moved, "ratio": round(moved["per_second"] / healthz["per_second"], 3)}


def report(result, label):
    lines = [f"load: {label}"]
    for name in ("moves", "healthz"):
        row = result[name]
        lines.append(
            f"  {name:8} {row['requests']:6d} requests in {row['seconds']:7.2f} s = {row['per_second']:8.1f}/s"
            f"  p50 {row['p50_ms']:7.2f} ms  p99 {row['p99_ms']:7.2f} ms  errors {row['errors']}"
        )
        for error in row["first_errors"]:
            lines.append(f"           e.g. {error}")
        if "cpu_us_per_request" in row:
            used = ", ".join(f"{name} {us} us" for name, us in row["cpu_us_per_request"].items())
            lines.append(f"           CPU per request: {used}, total {sum(row['cpu_us_per_request'].values())} us")
    lines.append(f"  moves/s is {result['ratio']:.0%} of healthz/s")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="benchmark this running server instead of starting one")
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--moves", type=int, default=50)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers when starting a server")
    parser.add_argument("--store", choices=("sqlite", "redis"), default="sqlite")
    parser.add_argument("--rounds", type=int, default=4, help="alternating rounds of healthz and moves")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument(
        "--watched", action="store_true", help="metrics on and JSON logs, as a host watching it runs the app"
    )
    parser.add_argument("--gunicorn-args", default="", help="added through GUNICORN_CMD_ARGS when starting a server")
    args = parser.parse_args(argv)

    with ExitStack() as stack:
        url, meter = (args.url, None) if args.url else stack.enter_context(
            start_server(args.store, args.workers, args.watched, args.gunicorn_args)
        )
        result = run_load(url, args.sessions, args.moves, args.threads, args.rounds, meter)
    label = args.url or f"gunicorn x{args.workers} workers, {args.store} store, {args.threads} client threads"
    label += ", metrics and JSON logs" if args.watched else ""
    label += f", {args.gunicorn_args}" if args.gunicorn_args else ""
    print(json.dumps(result, indent=2) if args.json else report(result, label))
    return result


@contextmanager
def start_server(store, workers, watched=False, gunicorn_args=""):
    """gunicorn (and redis-server when asked) on free loopback ports, for the run only.

    Yields the server's URL and a meter of the CPU its processes use.
    """
    from tests.support.servers import gunicorn_server, redis_server

    with ExitStack() as stack:
        env = {"FLASK_RATELIMIT_ENABLED": "false", "GUNICORN_CMD_ARGS": gunicorn_args}
        if watched:
            env |= {"FLASK_METRICS": "true", "FLASK_LOG_FORMAT": "json"}
        groups = {}
        if store == "redis":
            redis = stack.enter_context(redis_server())
            env |= {"FLASK_SESSION_TYPE": "redis", "FLASK_REDIS_URL": redis.url}
            groups["store"] = redis.process.pid
        server = stack.enter_context(gunicorn_server(env=env, args=["--workers", str(workers)]))
        yield server.url, CpuMeter({"server": server.process.pid} | groups)


if __name__ == "__main__":
    main()
