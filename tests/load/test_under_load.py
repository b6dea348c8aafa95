"""gunicorn with several workers under concurrent load, and a killed worker.

Bounded: a few hundred requests each, all to 127.0.0.1.
"""

import contextlib
import os
import signal
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.support.client import HttpClient
from tests.support.http_play import game_state, play_move
from tests.support.servers import gunicorn_server, redis_server
from tests.support.states import restorable_state

pytestmark = pytest.mark.slow
NO_LIMITS = {"FLASK_RATELIMIT_ENABLED": "false"}
DIRECTIONS = ("left", "down", "right", "up")
OPEN_GAME = restorable_state([[2, 0, 0, 0], [0, 4, 0, 0], [0, 0, 8, 0], [0, 0, 0, 16]])


def player_client(url):
    return HttpClient(url, timeout=30)


@pytest.fixture(scope="module", params=["sqlite", "redis"])
def server(request):
    if request.param == "sqlite":
        with gunicorn_server(env=NO_LIMITS, args=["--workers", "3"]) as running:
            yield running
        return
    with redis_server() as redis:
        env = NO_LIMITS | {"FLASK_SESSION_TYPE": "redis", "FLASK_REDIS_URL": redis.url}
        with gunicorn_server(env=env, args=["--workers", "3"]) as running:
            yield running


def sessions_sharing_a_cookie(server, count):
    first = player_client(server.url)
    first.request("PUT", "/api/game", OPEN_GAME)
    return sessions_sharing_a_cookie_with(first, server, count)


def sessions_sharing_a_cookie_with(first, server, count):
    others = [player_client(server.url) for _ in range(count - 1)]
    for other in others:
        other.cookies = dict(first.cookies)
    return [first, *others]


def test_many_threads_moving_one_session_apply_each_move_once_or_refuse_it(server):
    sessions = sessions_sharing_a_cookie(server, 10)

    def play(index):
        outcomes = []
        for step in range(8):
            resp = sessions[index].request("POST", "/api/game/moves", {"direction": DIRECTIONS[(index + step) % 4]})
            outcomes.append((resp.status, resp.json()))
        return outcomes

    with ThreadPoolExecutor(len(sessions)) as pool:
        outcomes = [item for batch in pool.map(play, range(len(sessions))) for item in batch]

    assert {status for status, _ in outcomes} <= {200, 409}
    applied = sum(1 for status, body in outcomes if status == 200 and body["moved"])
    resp = sessions[0].request("GET", "/api/game")
    final = resp.json()
    assert resp.status == 200 and applied > 0 and final["moves"] == applied


def test_many_sessions_moving_at_once_on_three_workers_each_get_every_move(server):
    """Writes of different sessions overlap in the store; none is refused for it (no 503, no 409)."""
    players = [player_client(server.url) for _ in range(12)]
    for player in players:
        player.request("PUT", "/api/game", OPEN_GAME)

    def play(player):
        statuses, moved = [], 0
        for step in range(30):
            resp = player.request("POST", "/api/game/moves", {"direction": DIRECTIONS[step % 4]})
            statuses.append(resp.status)
            moved += resp.status == 200 and resp.json()["moved"]
        return statuses, moved

    with ThreadPoolExecutor(len(players)) as pool:
        results = list(pool.map(play, players))

    assert {status for statuses, _ in results for status in statuses} == {200}
    for player, (_, moved) in zip(players, results, strict=True):
        assert player.request("GET", "/api/game").json()["moves"] == moved


def test_a_worker_killed_mid_load_corrupts_nothing_and_loses_no_acknowledged_move():
    with gunicorn_server(env=NO_LIMITS, args=["--workers", "3"]) as server:
        players = [player_client(server.url) for _ in range(6)]
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
                    resp = players[index].request("POST", "/api/game/moves", {"direction": DIRECTIONS[step % 4]})
                except OSError:
                    unanswered[index] += 1
                    continue
                if resp.status == 200 and resp.json()["moved"]:
                    acknowledged[index] += 1
                elif resp.status != 200:
                    unanswered[index] += 1

        with ThreadPoolExecutor(len(players)) as pool:
            futures = [pool.submit(play, index) for index in range(len(players))]
            halfway.wait(timeout=30)
            os.kill(server.workers()[0], signal.SIGKILL)
            for future in futures:
                future.result(timeout=120)

        server.wait_healthy()
        for index, player in enumerate(players):
            resp = player.request("GET", "/api/game")
            state = resp.json()
            assert resp.status == 200 and state["created"] is False, "the session survived the crash"
            assert acknowledged[index] <= state["moves"] <= acknowledged[index] + unanswered[index]


def test_workers_creating_sessions_at_once_keep_the_embedded_store_within_its_limit(tmp_path):
    """The count that bounds the store is the store's own: it cannot drift between workers."""
    instance = tmp_path / "instance"
    env = NO_LIMITS | {"FLASK_INSTANCE_PATH": str(instance), "FLASK_SESSION_STORE_LIMIT": "50"}
    with gunicorn_server(env=env, args=["--workers", "3"]) as server:

        def open_sessions(_index):
            return [player_client(server.url).request("GET", "/api/game").status for _ in range(40)]

        with ThreadPoolExecutor(6) as pool:
            statuses = {status for batch in pool.map(open_sessions, range(6)) for status in batch}
    assert statuses == {200}
    with sqlite3.connect(instance / "sessions.sqlite3") as db:
        (stored,) = db.execute("SELECT count(*) FROM sessions").fetchone()
        (counted,) = db.execute("SELECT sessions FROM stored").fetchone()
    assert stored == counted and stored <= 50


@pytest.mark.parametrize("store", ["sqlite", "redis"])
def test_saves_of_one_game_from_several_sessions_on_two_workers_all_land(store):
    """A game's session (three clients on its cookie) and three copies of its game save at once,
    again and again: every save lands (200 or 201), the game on its one record, each copy on its own."""
    with contextlib.ExitStack() as stack:
        env = dict(NO_LIMITS)
        if store == "redis":
            redis = stack.enter_context(redis_server())
            env |= {"FLASK_SESSION_TYPE": "redis", "FLASK_REDIS_URL": redis.url}
        server = stack.enter_context(gunicorn_server(env=env, args=["--workers", "2"]))
        player = player_client(server.url)
        player.request("POST", "/api/game", {})
        for _ in range(15):
            play_move(player)
        state = game_state(player.request("GET", "/api/game").json())
        token = player.request("GET", "/api/game/token").json()["token"]
        session = sessions_sharing_a_cookie_with(player, server, 3)
        copies = [player_client(server.url) for _ in range(3)]
        for copy in copies:
            assert copy.request("PUT", "/api/game", {**state, "token": token}).status == 200
        clients = session + copies
        ids = set()
        for _ in range(4):
            start = threading.Barrier(len(clients))

            def saving(client, start=start):
                start.wait(timeout=30)
                return client.request("POST", "/api/records", {"name": "Ann"})

            with ThreadPoolExecutor(len(clients)) as pool:
                replies = list(pool.map(saving, clients))
            assert [reply.status for reply in replies if reply.status not in (200, 201)] == []
            saved = [reply.json()["id"] for reply in replies]
            assert len(set(saved[:3])) == 1 and len(set(saved)) == 4
            ids.add(tuple(saved))
        assert len(ids) == 1, "each game kept its one record over every round"
