"""Undo: a move taken back with its randomness, refused when there is none, marked on the record."""

from app.engine import DIRECTIONS, pack
from app.engine.sliding import move
from tests.support.client_play import finish, hall_of_fame, play, save
from tests.support.states import restorable_state

STATE_KEYS = ("board", "score", "won", "over", "keep_playing", "moves")


def state_of(answer):
    return {key: answer[key] for key in STATE_KEYS}


def a_move(client):
    """Play a direction that moves the game; (the state before, the direction, the answer)."""
    before = state_of(client.get("/api/game").get_json())
    direction = next(d for d in DIRECTIONS if move(pack(before["board"]), d)[0] != pack(before["board"]))
    answer = client.post("/api/game/moves", json={"direction": direction, "moves": before["moves"]}).get_json()
    return before, direction, answer


def test_undo_answers_the_state_before_the_last_move_and_the_same_move_brings_the_same_tile(client):
    client.post("/api/game", json={})
    play(client, 12)
    before, direction, after = a_move(client)
    undone = client.post("/api/game/undo", json={"moves": after["moves"]})
    assert undone.status_code == 200 and state_of(undone.get_json()) == before
    again = client.post("/api/game/moves", json={"direction": direction, "moves": before["moves"]}).get_json()
    assert state_of(again) == state_of(after), "the game's randomness went back with the move"


def test_nothing_to_undo_is_409_and_changes_nothing(client):
    client.put("/api/game", json=restorable_state([[2, 0, 0, 0], [0, 4, 0, 0], [0] * 4, [0] * 4]))
    refused = client.post("/api/game/undo", json={})
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "cannot_undo"
    for _ in range(7):
        a_move(client)
    statuses = [client.post("/api/game/undo", json={}).status_code for _ in range(7)]
    assert statuses == [200] * 5 + [409] * 2  # the last five moves
    assert client.get("/api/game").get_json()["moves"] == 2


def test_undo_from_a_count_the_game_has_left_is_409_out_of_sync(client):
    client.post("/api/game", json={})
    _before, _direction, after = a_move(client)
    stale = client.post("/api/game/undo", json={"moves": after["moves"] - 1})
    assert stale.status_code == 409 and stale.get_json()["error"]["code"] == "out_of_sync"
    assert client.get("/api/game").get_json()["moves"] == after["moves"]
    assert client.post("/api/game/undo", json={"moves": "x"}).status_code == 400
    assert client.post("/api/game/undo", json={"steps": 2}).status_code == 400


def test_a_game_that_took_a_move_back_stays_verified_and_exact_but_is_not_without_help(client):
    client.post("/api/game", json={})
    play(client, 20)
    a_move(client)
    assert client.post("/api/game/undo", json={}).status_code == 200
    state = finish(client)
    record = client.get(f"/api/records/{save(client)}").get_json()
    assert record["verified"] and record["used_undo"] and not record["assisted"]
    assert record["moves"] == state["moves"] == len(record["replay"]["directions"])
    assert [row["id"] for row in hall_of_fame(client, "?helped=1")] == [record["id"]]
    assert hall_of_fame(client) == [] == hall_of_fame(client, "?without_help=1")


def test_once_a_record_shows_the_games_seed_the_game_cannot_go_back(client):
    client.post("/api/game", json={})
    finish(client)
    save(client)
    refused = client.post("/api/game/undo", json={})
    assert refused.status_code == 409 and "seed" in refused.get_json()["error"]["message"]


def test_sharing_a_game_again_gives_the_same_record_brought_up_to_date(client):
    client.post("/api/game", json={})
    play(client, 10)
    first = client.post("/api/records", json={"name": "Ann"})
    play(client, 20)
    again = client.post("/api/records", json={"name": "Ann B."})
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.get_json()["id"] == again.get_json()["id"]
    record = client.get(f"/api/records/{again.get_json()['id']}").get_json()
    assert record["moves"] == 20 and record["name"] == "Ann B."
    client.post("/api/game", json={})
    play(client, 3)
    assert client.post("/api/records", json={"name": "Ann"}).get_json()["id"] != first.get_json()["id"]
