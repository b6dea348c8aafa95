"""POST /api/game/hint: the solver's move for the session's game."""

import fcntl
import random
import time
from pathlib import Path

import pytest

from app import hints
from app.engine import Game, pack
from app.engine.sliding import move
from tests.support.session_lock import holding_the_session_of
from tests.support.states import restorable_state


def seeded_positions(count):
    """Mid-game positions reached by random play from seeded games."""
    rng = random.Random(5)
    positions = []
    for seed in range(count):
        game = Game.new(seed)
        for _ in range(rng.randrange(10, 120)):
            if game.over:
                break
            game.play(rng.choice(["up", "down", "left", "right"]))
        if not game.over:
            positions.append(game.to_state())
    return positions


def restore(client, state, **fields):
    return client.put("/api/game", json={k: v for k, v in state.items() if k != "over"} | fields)


@pytest.mark.parametrize("position", seeded_positions(8))
def test_the_hint_is_a_move_that_changes_the_board_within_the_budget(client, position):
    restore(client, position, won=False, keep_playing=False)
    reply = client.post("/api/game/hint", json={})
    assert reply.status_code == 200
    hint = reply.get_json()
    board = pack(position["board"])
    assert move(board, hint["direction"])[0] != board
    assert set(hint["scores"]) <= {"up", "down", "left", "right"} and hint["direction"] in hint["scores"]
    assert hint["depth"] >= 1 and 0 < hint["ms"] < 100 * 5  # the default budget, generously


def test_the_only_valid_move_is_the_hint(client):
    only_right = [[2, 0, 0, 0], [4, 0, 0, 0], [8, 0, 0, 0], [16, 0, 0, 0]]
    restore(client, restorable_state(only_right))
    assert client.post("/api/game/hint", json={}).get_json()["direction"] == "right"


def test_no_game_is_404_and_finished_games_are_409(client):
    assert client.post("/api/game/hint", json={}).status_code == 404
    dead = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
    restore(client, restorable_state(dead))
    assert client.post("/api/game/hint", json={}).status_code == 409
    won = [[2048, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    restore(client, restorable_state(won, score=20000, won=True, moves=900))
    waiting = client.post("/api/game/hint", json={})
    assert waiting.status_code == 409 and waiting.get_json()["state"]["won"] is True


def test_one_hint_per_session_at_a_time(make_app):
    app = make_app(SESSION_LOCK_TIMEOUT=0.2)
    client = app.test_client()
    client.get("/api/game")
    with holding_the_session_of(app, client):
        busy = client.post("/api/game/hint", json={})
    assert busy.status_code == 409 and busy.get_json()["error"]["code"] == "busy"
    assert client.post("/api/game/hint", json={}).status_code == 200


def test_hints_are_rate_limited_per_session(make_app):
    app = make_app(RATELIMIT_ENABLED=True, HINT_RATE_LIMIT="2 per minute", SOLVER_BUDGET_MS=5)
    client = app.test_client()
    client.get("/api/game")
    statuses = [client.post("/api/game/hint", json={}).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    other = app.test_client()
    other.get("/api/game")
    assert other.post("/api/game/hint", json={}).status_code == 200  # another session is not held back


def late_game(client):
    """A tight board: each hint spends most of its budget."""
    tight = [[2, 4, 8, 16], [256, 128, 64, 32], [512, 1024, 2, 4], [0, 8, 16, 0]]
    restore(client, restorable_state(tight, won=False))


# Only the time limit under test holds hints back: a warm solver answers in a millisecond or two, so
# the API's and the hints' own request limits would trip first.
OTHER_LIMITS_LIFTED = {"API_RATE_LIMIT": "100000 per second", "HINT_RATE_LIMIT": "100000 per second"}


def test_hint_time_is_limited_per_client_address_across_its_sessions(make_app):
    app = make_app(RATELIMIT_ENABLED=True, WORK_TIME_LIMIT="60 per minute", SOLVER_BUDGET_MS=50, **OTHER_LIMITS_LIFTED)
    players = [app.test_client() for _ in range(4)]
    for player in players:
        late_game(player)
    statuses = []  # 60 ms of solver time is a few hints, or many more once the solver is warm
    while 429 not in statuses and len(statuses) < 5000:
        statuses.append(players[len(statuses) % len(players)].post("/api/game/hint", json={}).status_code)
    assert statuses[0] == 200 and statuses[-1] == 429
    for player in players:  # every session of the address is held back now
        assert player.post("/api/game/hint", json={}).status_code == 429
    limited = players[0].post("/api/game/hint", json={})
    assert limited.get_json()["error"]["code"] == "too_many_requests"
    assert int(limited.headers["Retry-After"]) > 0
    assert players[0].post("/api/game/moves", json={"direction": "down"}).status_code == 200  # moves go on


def test_hint_time_of_other_addresses_is_not_held_back(make_app):
    app = make_app(RATELIMIT_ENABLED=True, WORK_TIME_LIMIT="60 per minute", SOLVER_BUDGET_MS=50, **OTHER_LIMITS_LIFTED)
    flooder, other = app.test_client(), app.test_client()
    late_game(flooder)
    late_game(other)
    while flooder.post("/api/game/hint", json={}).status_code == 200:
        pass
    reply = other.post("/api/game/hint", json={}, environ_overrides={"REMOTE_ADDR": "127.0.0.7"})
    assert reply.status_code == 200


def test_one_hint_at_a_time_per_machine_and_the_others_are_refused_at_once(app, client):
    """A worker working out a hint holds the machine's solver: other workers stay free for moves."""
    late_game(client)
    with open(Path(app.instance_path) / "solver.lock", "ab") as other_worker:
        fcntl.flock(other_worker, fcntl.LOCK_EX)
        busy = client.post("/api/game/hint", json={})
        moved = client.post("/api/game/moves", json={"direction": "down"})
    assert busy.status_code == 429 and busy.get_json()["error"]["code"] == "solver_busy"
    assert busy.headers["Retry-After"] == "1"
    assert moved.status_code == 200
    assert client.post("/api/game/hint", json={}).status_code == 200


def test_a_solver_lock_that_cannot_be_opened_is_503_and_the_game_goes_on(app, client):
    """The instance folder refuses the solver's lock file: the hint is the solver's fault, never a 500."""
    late_game(client)
    before = client.get("/api/game").get_json()
    (Path(app.instance_path) / "solver.lock").mkdir()  # opening it for writing now fails
    refused = client.post("/api/game/hint", json={})
    assert refused.status_code == 503 and refused.get_json()["error"]["code"] == "solver_unavailable"
    assert int(refused.headers["Retry-After"]) > 0
    assert client.get("/api/game").get_json() == before
    assert client.post("/api/game/moves", json={"direction": "down"}).status_code == 200


def test_the_budget_counts_the_time_taken_to_get_the_solver(make_app, monkeypatch):
    """A hint that spent its whole budget getting the machine's solver answers at once, searching no deeper."""
    client = make_app(SOLVER_BUDGET_MS=50).test_client()
    late_game(client)
    open_lock_file = hints.open_lock_file

    def slow_open_lock_file(path, fault):
        time.sleep(0.1)  # a slow instance folder: twice the budget
        return open_lock_file(path, fault)

    monkeypatch.setattr(hints, "open_lock_file", slow_open_lock_file)
    hint = client.post("/api/game/hint", json={}).get_json()
    assert 100 <= hint["ms"] < 200 and hint["depth"] == 1
