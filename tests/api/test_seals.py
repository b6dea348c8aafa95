"""A game the server forgot comes back verified from the sealed copy the page kept, and only then."""

import random

import pytest

from app.config import secret_key
from app.engine import DIRECTIONS
from tests.support.client_play import finish, hall_of_fame, save
from tests.support.states import restorable_state
from tests.support.stored_sessions import forget, read_entry, write_entry

STATE_KEYS = ("board", "score", "won", "keep_playing", "moves")


def played(client, count, rng=None):
    """``count`` valid random moves (the game must not end first); the state and its sealed copy then."""
    rng = rng or random.Random(4)
    state = client.get("/api/game").get_json()
    target = state["moves"] + count
    while state["moves"] < target:
        state = client.post("/api/game/moves", json={"direction": rng.choice(DIRECTIONS)}).get_json()
        assert not state["over"]
    token = client.get("/api/game/token").get_json()
    assert token["moves"] == state["moves"] and isinstance(token["token"], str)
    return {key: state[key] for key in STATE_KEYS}, token["token"]


def record_of(client, name="Ann"):
    return client.get(f"/api/records/{save(client, name)}").get_json()


def test_a_forgotten_game_comes_back_verified_from_its_sealed_copy(app):
    player = app.test_client()
    state, token = played(player, 30)
    forget(app, player.get_cookie("session").value)
    forgotten = app.test_client()  # the same browser, in a new session
    assert forgotten.get("/api/game").get_json()["created"] is True
    reply = forgotten.put("/api/game", json={**state, "token": token})
    assert reply.status_code == 200 and {key: reply.get_json()[key] for key in STATE_KEYS} == state
    finish(forgotten)
    record = record_of(forgotten)
    assert record["verified"] and record["restored"] and not record["assisted"]
    assert [row["id"] for row in hall_of_fame(forgotten, "?helped=1")] == [record["id"]]
    assert hall_of_fame(forgotten) == [], "a restore may have gone back to an earlier copy"


def test_the_tiles_to_come_are_the_ones_the_game_had(app):
    """A restored game is the same game: put back twice from one copy, the same moves bring the same tiles."""
    player = app.test_client()
    state, token = played(player, 20)
    forget(app, player.get_cookie("session").value)
    boards = []
    for _ in range(2):
        restored = app.test_client()
        restored.put("/api/game", json={**state, "token": token})
        directions = ("left", "up", "right", "down", "left", "up")
        boards.append([restored.post("/api/game/moves", json={"direction": d}).get_json()["board"] for d in directions])
        restored.post("/api/game", json={})  # a new game: this session no longer holds the restored one
    assert boards[0] == boards[1]


@pytest.mark.parametrize("damage", ["stale", "tampered", "other server", "not text"])
def test_a_copy_that_is_not_this_games_latest_seal_restores_an_unverified_game(app, make_app, tmp_path, damage):
    player = app.test_client()
    _earlier, earlier_token = played(player, 10)
    state, token = played(player, 10)
    other_server = make_app(INSTANCE_PATH=tmp_path / "elsewhere").test_client()
    copies = {
        "stale": earlier_token,
        "tampered": token[:-3] + ("AAA" if token[-3:] != "AAA" else "BBB"),
        "other server": played(other_server, 20)[1],
        "not text": {"token": token},
    }
    restored = app.test_client()
    assert restored.put("/api/game", json={**state, "token": copies[damage]}).status_code == 200
    assert restored.get("/api/game").get_json()["board"] == state["board"]
    record = record_of(restored)
    assert not record["verified"] and record["replay"]["start"] == state


def test_an_earlier_copy_restores_its_own_position_as_a_restore(app):
    """The server cannot tell an older copy from the latest: going back with one counts as a restore."""
    player = app.test_client()
    earlier, earlier_token = played(player, 10)
    played(player, 10)
    assert player.put("/api/game", json={**earlier, "token": earlier_token}).status_code == 200
    record = record_of(player)
    assert record["verified"] and record["restored"] and record["moves"] == 10


def test_workers_of_one_instance_folder_share_the_key_and_a_set_key_is_used(make_app, tmp_path):
    first, second = make_app(), make_app()
    player = first.test_client()
    state, token = played(player, 15)
    assert secret_key(first) == secret_key(second) and len(secret_key(first)) == 64
    forget(first, player.get_cookie("session").value)
    restored = second.test_client()
    restored.put("/api/game", json={**state, "token": token})
    assert record_of(restored)["verified"]
    keyed = [make_app(SECRET_KEY="shared by the replicas", INSTANCE_PATH=tmp_path / name) for name in ("a", "b")]
    state, token = played(keyed[0].test_client(), 15)
    restored = keyed[1].test_client()
    restored.put("/api/game", json={**state, "token": token})
    assert record_of(restored)["verified"]


def test_a_restore_may_carry_a_long_games_copy_but_not_more(client):
    state = restorable_state([[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    assert client.put("/api/game", json={**state, "token": "x" * 60_000}).status_code == 200
    too_big = client.put("/api/game", json={**state, "token": "x" * 70_000})
    assert too_big.status_code == 413
    assert client.post("/api/game/moves", json={"direction": "right", "padding": "x" * 5000}).status_code == 413


def test_a_game_without_an_id_has_no_sealed_copy(app, client):
    """A game stored before games had ids: its seed cannot be derived, so it cannot be sealed."""
    client.get("/api/game")
    store_id = "session:" + client.get_cookie("session").value
    entry = read_entry(app, store_id)
    entry["game"]["id"] = None
    write_entry(app, store_id, entry)
    assert client.get("/api/game/token").get_json() == {"token": None, "moves": 0}
