"""The Redis store in-process: corrupted entries, a dead server, and sharing between apps."""

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from flask import request

from app import assistance, create_app
from app.games import session as games
from tests.support.foresight import (
    chance_of_guessing,
    no_better_than_chance,
    play_randomly,
    state_and_copy,
    tile_brought,
)
from tests.support.servers import free_port, redis_server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def redis_url():
    with redis_server() as server:
        yield server.url


def redis_app(url, tmp_path, **config):
    settings = {"INSTANCE_PATH": tmp_path, "SESSION_TYPE": "redis", "REDIS_URL": url, "RATELIMIT_ENABLED": False}
    return create_app(settings | config)


def test_corrupted_redis_entries_read_as_no_session(redis_url, tmp_path):
    client = redis_app(redis_url, tmp_path).test_client()
    client.post("/api/game", json={"seed": 4})
    raw = redis.Redis.from_url(redis_url)
    for key in raw.keys("*"):
        raw.set(key, b"\x93\xff garbage \x00")
    reply = client.get("/api/game")
    assert reply.status_code == 200 and reply.get_json()["created"] is True


def test_two_apps_on_one_redis_share_sessions_and_locks(redis_url, tmp_path):
    one = redis_app(redis_url, tmp_path / "one")
    two = redis_app(redis_url, tmp_path / "two")
    first = one.test_client()
    state = first.post("/api/game", json={"seed": 12}).get_json()
    second = two.test_client()
    second.set_cookie("session", first.get_cookie("session").value)
    assert second.get("/api/game").get_json()["board"] == state["board"]
    moved = second.post("/api/game/moves", json={"direction": "left"}).get_json()
    assert first.get("/api/game").get_json()["moves"] == moved["moves"]


def test_an_unreachable_redis_is_a_json_503(tmp_path):
    url = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    client = redis_app(url, tmp_path, PROPAGATE_EXCEPTIONS=False).test_client()
    assert client.get("/api/game").status_code == 503  # a new player
    client.set_cookie("session", "a-session-the-store-would-know")
    for reply in (client.get("/api/game"), client.post("/api/game/moves", json={"direction": "up"})):
        assert reply.status_code == 503
        assert reply.get_json()["error"]["code"] == "store_unavailable"
        assert reply.headers["Retry-After"]
    assert client.get("/readyz").status_code == 503 and client.get("/healthz").status_code == 200


def test_pages_load_for_returning_players_while_redis_is_unreachable(tmp_path):
    """The page must load to play on from the browser's saved game; only the API waits for the store."""
    url = f"redis://127.0.0.1:{free_port()}/0"
    client = redis_app(url, tmp_path, PROPAGATE_EXCEPTIONS=False).test_client()
    client.set_cookie("session", "a-session-the-store-would-know")
    for path in ("/", "/rules", "/strategy", "/solver", "/no-such-page"):
        reply = client.get(path)
        assert reply.status_code == (404 if path == "/no-such-page" else 200), path
        assert "set-cookie" not in reply.headers
    assert client.get("/api/game").status_code == 503


def test_a_request_whose_lock_lease_ran_out_is_refused_and_overwrites_nothing(redis_url, tmp_path, monkeypatch):
    app = redis_app(redis_url, tmp_path)
    app.session_interface.lease_ms = 200  # as if the slow request below had stalled for the whole lease
    slow, fast = app.test_client(), app.test_client()
    slow.post("/api/game", json={"seed": 21})
    fast.set_cookie("session", slow.get_cookie("session").value)
    load = games.load_game

    def load_slowly_when_asked():
        if request.headers.get("X-Slow"):
            time.sleep(0.5)
        return load()

    monkeypatch.setattr(games, "load_game", load_slowly_when_asked)

    with ThreadPoolExecutor(1) as pool:
        stalled = pool.submit(slow.post, "/api/game/moves", json={"direction": "left"}, headers={"X-Slow": "1"})
        time.sleep(0.3)  # the stalled request's lease has run out by now
        moved = fast.post("/api/game/moves", json={"direction": "right"})
        refused = stalled.result()

    assert moved.status_code == 200 and moved.get_json()["moved"] is True
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "busy"
    final = fast.get("/api/game").get_json()
    assert final["moves"] == 1 and final["board"] == moved.get_json()["board"]


def test_a_request_that_died_holding_its_session_blocks_it_only_for_a_short_lease(redis_url, tmp_path):
    app = redis_app(redis_url, tmp_path)
    client = app.test_client()
    client.post("/api/game", json={"seed": 22})
    app.session_interface._lock_and_read("session:" + client.get_cookie("session").value)  # and never let go
    started = time.monotonic()
    moved = client.post("/api/game/moves", json={"direction": "left"})
    assert moved.status_code == 200, moved.get_json()
    assert time.monotonic() - started <= app.config["SESSION_LOCK_LEASE"] + 0.5


def test_a_write_back_whose_answer_is_lost_is_a_503_that_says_it_may_have_landed(redis_url, tmp_path):
    app = redis_app(redis_url, tmp_path, PROPAGATE_EXCEPTIONS=False)
    client = app.test_client()
    client.post("/api/game", json={"seed": 23})
    interface = app.session_interface
    write_and_release = interface._write_and_release_script

    def lands_but_times_out(*args, **kwargs):
        write_and_release(*args, **kwargs)
        raise redis.exceptions.TimeoutError("Timeout reading from socket")

    interface._write_and_release_script = lands_but_times_out
    lost = client.post("/api/game/moves", json={"direction": "left", "moves": 0})
    interface._write_and_release_script = write_and_release
    assert lost.status_code == 503 and lost.headers["Retry-After"]
    body = lost.get_json()
    assert body["error"]["code"] == "store_unavailable" and "changed" in body and body["changed"] is None
    retried = client.post("/api/game/moves", json={"direction": "left", "moves": 0})
    assert retried.status_code == 409 and retried.get_json()["error"]["code"] == "out_of_sync"
    assert retried.get_json()["state"]["moves"] == 1


def test_a_store_that_cannot_be_reached_says_nothing_was_changed(tmp_path):
    url = f"redis://127.0.0.1:{free_port()}/0"
    client = redis_app(url, tmp_path, PROPAGATE_EXCEPTIONS=False).test_client()
    client.set_cookie("session", "a-session-the-store-would-know")
    reply = client.post("/api/game/moves", json={"direction": "up", "moves": 3})
    assert reply.status_code == 503 and reply.get_json()["changed"] is False


def test_a_full_redis_drops_the_sessions_idle_longest_and_players_play_on(tmp_path):
    """compose.yaml's memory cap and policy, at a size a test can fill."""
    with redis_server() as server:
        with server.client() as client:
            client.config_set("maxmemory", "3mb")
            client.config_set("maxmemory-policy", "volatile-lru")
        app = redis_app(server.url, tmp_path, PROPAGATE_EXCEPTIONS=False)
        player = app.test_client()
        player.post("/api/game", json={"seed": 2})
        statuses, flood = set(), []
        for number in range(6000):
            client = app.test_client()
            statuses.add(client.get("/api/game").status_code)
            flood.append("session:" + client.get_cookie("session").value)
            if number % 50 == 0:
                direction = ("left", "down")[number % 100 // 50]
                statuses.add(player.post("/api/game/moves", json={"direction": direction}).status_code)
                assert player.get("/api/game").get_json()["created"] is False
        assert statuses <= {200, 409}
        raw = redis.Redis.from_url(server.url)
        assert raw.info("stats")["evicted_keys"] > 0
        oldest_kept = sum(raw.exists(key) for key in flood[:500])
        newest_kept = sum(raw.exists(key) for key in flood[-500:])
        assert oldest_kept < newest_kept, (oldest_kept, newest_kept)  # the idlest go first (LRU is sampled)


def test_a_session_with_no_move_expires_first_in_redis(redis_url, tmp_path):
    """Redis makes room by dropping keys: an unplayed session has only a day to live, a played one the lifetime."""
    app = redis_app(redis_url, tmp_path)
    idle, player = app.test_client(), app.test_client()
    idle.get("/api/game")
    player.get("/api/game")
    player.post("/api/game/moves", json={"direction": "left"})
    player.post("/api/game/moves", json={"direction": "right"})
    raw = redis.Redis.from_url(redis_url)
    ttl = {name: raw.ttl("session:" + client.get_cookie("session").value) for name, client in
           (("idle", idle), ("player", player))}  # fmt: skip
    assert 86_000 < ttl["idle"] <= 86_400
    assert ttl["player"] > 29 * 86_400


def test_help_asked_in_one_replicas_session_marks_the_game_held_in_anothers(redis_url, tmp_path):
    """Two replicas sharing Redis and the records: a copy put back on the second is a fork of the
    game the first holds (its tiles its own), and a hint asked there marks the game."""
    records = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'records.sqlite3'}"}
    one, two = (redis_app(redis_url, tmp_path / name, SECRET_KEY="shared", **records) for name in ("one", "two"))
    player, helper = one.test_client(), two.test_client()
    player.post("/api/game", json={})
    play_randomly(player, 10)
    foretold, chances = 0, []
    for _ in range(20):
        state, token = state_and_copy(player)
        assert helper.put("/api/game", json={**state, "token": token}).status_code == 200
        direction = helper.post("/api/game/hint", json={}).get_json()["direction"]
        chances.append(chance_of_guessing(state["board"], direction))
        foretold += tile_brought(helper, direction) == tile_brought(player, direction)
    assert no_better_than_chance(foretold, chances), f"{foretold} of 20 tiles previewed on the other replica"
    saved = player.post("/api/records", json={"name": "Ann"}).get_json()["id"]
    record = player.get(f"/api/records/{saved}").get_json()
    assert record["verified"] and record["assisted"], "helped on the other replica, marked all the same"


def test_a_hint_on_a_live_games_board_typed_in_on_another_replica_marks_the_game(redis_url, tmp_path):
    """No sealed copy, only the board typed in (turned a quarter) on the second replica: the hint
    asked there is counted on the game the first replica's session holds, and only on it."""
    records = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'records.sqlite3'}"}
    one, two = (redis_app(redis_url, tmp_path / name, SECRET_KEY="shared", **records) for name in ("one", "two"))
    player, bystander, helper = one.test_client(), one.test_client(), two.test_client()
    for client in (player, bystander):
        client.post("/api/game", json={})
        play_randomly(client, assistance.EARLY_MOVES + 2)
    state, _token = state_and_copy(player)
    turned = [list(row) for row in zip(*state["board"][::-1], strict=True)]
    assert helper.put("/api/game", json={**state, "board": turned, "moves": 0, "score": 0}).status_code == 200
    assert helper.post("/api/game/hint", json={}).status_code == 200
    play_randomly(player, 1)  # the game moves on: its old board is no longer where it stands
    assert helper.post("/api/game/hint", json={}).status_code == 200
    shown = [client.get(f"/api/records/{client.post('/api/records', json={'name': 'A'}).get_json()['id']}").get_json()
             for client in (player, bystander)]  # fmt: skip
    assert [(record["help"]["hints"], record["verified"]) for record in shown] == [(1, True), (0, True)]


def test_a_session_whose_game_another_session_holds_is_refused_and_forgotten(redis_url, tmp_path, monkeypatch):
    """Two restores of a forgotten game that cross: Redis refuses the second write, and forgets its session."""
    app = redis_app(redis_url, tmp_path, PROPAGATE_EXCEPTIONS=False)
    player = app.test_client()
    player.post("/api/game", json={})
    play_randomly(player, 8)
    state, token = state_and_copy(player)
    redis.Redis.from_url(redis_url).delete("session:" + player.get_cookie("session").value)  # forgotten
    first, second = app.test_client(), app.test_client()
    assert first.put("/api/game", json={**state, "token": token}).status_code == 200
    monkeypatch.setattr(games.store, "held_elsewhere", lambda _game_id: False)  # as if both asked at once
    refused = second.put("/api/game", json={**state, "token": token})
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "game_elsewhere"
    assert second.get("/api/game").get_json()["created"] is True
    monkeypatch.undo()
    first_state = first.get("/api/game").get_json()
    assert first_state["created"] is False and first_state["board"] == state["board"]
    first.post("/api/game", json={})  # a new game: the restored one is held nowhere now
    assert second.put("/api/game", json={**state, "token": token}).status_code == 200
