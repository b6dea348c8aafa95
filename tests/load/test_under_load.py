"""gunicorn with several workers under concurrent load, a killed worker, and the load script.

Bounded: a few hundred requests each, all to 127.0.0.1.
"""

import json
import os
import signal
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from bench.load import DIRECTIONS, CpuMeter, Session, run_load
from tests.servers import gunicorn_server, redis_server
from tests.states import restorable_state

pytestmark = pytest.mark.slow
NO_LIMITS = {"FLASK_RATELIMIT_ENABLED": "false"}
OPEN_GAME = restorable_state([[2, 0, 0, 0], [0, 4, 0, 0], [0, 0, 8, 0], [0, 0, 0, 16]])


@pytest.fixture(scope="module", params=["cachelib", "redis"])
def server(request):
    if request.param == "cachelib":
        with gunicorn_server(env=NO_LIMITS, args=["--workers", "3"]) as running:
            yield running
        return
    with redis_server() as redis:
        env = NO_LIMITS | {"FLASK_SESSION_TYPE": "redis", "FLASK_REDIS_URL": redis.url}
        with gunicorn_server(env=env, args=["--workers", "3"]) as running:
            yield running


def sessions_sharing_a_cookie(server, count):
    first = Session("127.0.0.1", server.port)
    first.request("PUT", "/api/game", OPEN_GAME)
    others = [Session("127.0.0.1", server.port) for _ in range(count - 1)]
    for other in others:
        other.cookie = first.cookie
    return [first, *others]


def test_many_threads_moving_one_session_apply_each_move_once_or_refuse_it(server):
    sessions = sessions_sharing_a_cookie(server, 10)

    def play(index):
        outcomes = []
        for step in range(8):
            status, payload = sessions[index].request(
                "POST", "/api/game/moves", {"direction": DIRECTIONS[(index + step) % 4]}
            )
            outcomes.append((status, json.loads(payload)))
        return outcomes

    with ThreadPoolExecutor(len(sessions)) as pool:
        outcomes = [item for batch in pool.map(play, range(len(sessions))) for item in batch]

    assert {status for status, _ in outcomes} <= {200, 409}
    applied = sum(1 for status, body in outcomes if status == 200 and body["moved"])
    status, payload = sessions[0].request("GET", "/api/game")
    final = json.loads(payload)
    assert status == 200 and applied > 0 and final["moves"] == applied


def test_a_worker_killed_mid_load_corrupts_nothing_and_loses_no_acknowledged_move():
    with gunicorn_server(env=NO_LIMITS, args=["--workers", "3"]) as server:
        players = [Session("127.0.0.1", server.port) for _ in range(6)]
        for player in players:
            player.request("PUT", "/api/game", OPEN_GAME)
        acknowledged = [0] * len(players)
        unanswered = [0] * len(players)
        halfway = threading.Barrier(len(players) + 1)

        def play(index):
            for step in range(40):
                if step == 20:
                    halfway.wait(timeout=30)
                try:
                    status, payload = players[index].request(
                        "POST", "/api/game/moves", {"direction": DIRECTIONS[step % 4]}
                    )
                except OSError:
                    unanswered[index] += 1
                    continue
                if status == 200 and json.loads(payload)["moved"]:
                    acknowledged[index] += 1
                elif status != 200:
                    unanswered[index] += 1

        with ThreadPoolExecutor(len(players)) as pool:
            futures = [pool.submit(play, index) for index in range(len(players))]
            halfway.wait(timeout=30)
            os.kill(server.workers()[0], signal.SIGKILL)
            for future in futures:
                future.result(timeout=120)

        server.wait_healthy()
        for index, player in enumerate(players):
            status, payload = player.request("GET", "/api/game")
            state = json.loads(payload)
            assert status == 200 and state["created"] is False, "the session survived the crash"
            assert acknowledged[index] <= state["moves"] <= acknowledged[index] + unanswered[index]


def test_the_load_script_runs_without_errors(server):
    meter = CpuMeter({"server": server.process.pid})
    result = run_load(server.url, sessions=6, moves=15, threads=3, meter=meter)
    assert result["moves"]["errors"] == 0 and result["healthz"]["errors"] == 0
    assert result["moves"]["requests"] == 90
    assert result["ratio"] > 0
    for measured in (result["moves"], result["healthz"]):
        assert measured["cpu_us_per_request"]["server"] > 0 and measured["cpu_us_per_request"]["client"] > 0
