"""Every size of the game through the API: a new game of 3x3 to 8x8, the same rules and its goal, its
records listed by size, its replay exact from seed, size and directions, its sealed copy put back."""

import random

import pytest

from app import seals
from app.engine import DIRECTIONS, SIZES, VARIANTS, Game, variant_of
from app.engine.history import tiles_from_text
from tests.support.client_play import boards, hall_of_fame, save
from tests.support.http_play import game_state
from tests.support.states import restorable_state

BY_LETTER = {direction[0]: direction for direction in DIRECTIONS}


def play_to_the_end(client, rng, batch=16):
    """Random moves, a batch a request, keeping on past the goal, until the game is over: its state."""
    state = client.get("/api/game").get_json()
    while not state["over"]:
        if state["won"] and not state["keep_playing"]:
            client.post("/api/game/keep-playing", json={})
        reply = client.post("/api/game/moves", json={"directions": [rng.choice(DIRECTIONS) for _ in range(batch)]})
        state = reply.get_json()["state"] if reply.status_code == 409 else reply.get_json()
    return client.get("/api/game").get_json()


@pytest.mark.parametrize("size", SIZES)
def test_a_new_game_of_each_size_has_its_board_two_tiles_and_its_goal(client, size):
    reply = client.post("/api/game", json={"size": size})
    state = reply.get_json()
    assert reply.status_code == 201
    assert (state["size"], state["goal"]) == (size, 512 if size == 3 else 2048)
    assert [len(row) for row in state["board"]] == [size] * size
    assert sorted(value for row in state["board"] for value in row if value) in ([2, 2], [2, 4], [4, 4])
    assert client.get("/api/game").get_json()["size"] == size, "the session keeps the game's size"


def test_a_new_game_is_the_classic_four_by_four_unless_asked(client):
    for body in ({}, {"seed": 7}):
        state = client.post("/api/game", json=body).get_json()
        assert (state["size"], state["goal"], len(state["board"])) == (4, 2048, 4)


@pytest.mark.parametrize("size", [2, 9, 0, -4, "4", 4.0, True, None, [4], 10**30])
def test_a_size_that_is_no_board_is_refused_with_a_clear_code(client, size):
    before = client.get("/api/game").get_json()
    reply = client.post("/api/game", json={"size": size})
    assert reply.status_code == 400
    assert reply.get_json()["error"]["code"] == "invalid_size"
    assert "3 to 8" in reply.get_json()["error"]["message"]
    assert client.get("/api/game").get_json()["board"] == before["board"], "nothing changed"


@pytest.mark.parametrize("size", [3, 5, 6, 8])
def test_a_move_on_every_size_slides_by_the_rules_and_animates_every_tile(client, size):
    client.post("/api/game", json={"size": size})
    row = [2, 2, 2, 2, 4, 0, 4, 8][:size]
    board = [row] + [[0] * size for _ in range(size - 1)]
    client.put("/api/game", json=restorable_state(board))
    reply = client.post("/api/game/moves", json={"direction": "left"}).get_json()
    merged = {3: [4, 2, 0], 5: [4, 4, 4, 0, 0], 6: [4, 4, 4, 0, 0, 0], 8: [4, 4, 8, 8, 0, 0, 0, 0]}[size]
    spawned = reply["animation"]["spawned"]
    expected = [list(merged)] + [[0] * size for _ in range(size - 1)]
    expected[spawned["row"]][spawned["col"]] = spawned["value"]
    assert reply["board"] == expected and reply["size"] == size
    assert reply["gained"] == {3: 4, 5: 8, 6: 8, 8: 16}[size]
    slid = [[0] * size for _ in range(size)]
    for tile in reply["animation"]["tiles"]:
        slid[tile["row"]][tile["col"]] = tile["value"]
    assert slid[0] == merged


def test_points_are_the_merged_tiles_on_a_large_board(client):
    client.post("/api/game", json={"size": 7})
    board = [[4, 4, 8, 8, 16, 16, 2]] + [[0] * 7 for _ in range(6)]
    client.put("/api/game", json=restorable_state(board))
    reply = client.post("/api/game/moves", json={"direction": "left"}).get_json()
    assert reply["gained"] == 8 + 16 + 32
    assert reply["board"][0][:4] == [8, 16, 32, 2]


def test_an_invalid_move_is_free_on_a_large_board(client):
    board = [[2] + [0] * 5] + [[0] * 6 for _ in range(5)]
    client.put("/api/game", json=restorable_state(board, score=40, moves=7))
    reply = client.post("/api/game/moves", json={"direction": "left"}).get_json()
    assert (reply["moved"], reply["board"], reply["score"], reply["moves"]) == (False, board, 40, 7)


def test_three_by_three_is_won_at_512_and_waits_for_keep_playing(client):
    board = [[256, 256, 0], [0, 0, 0], [0, 2, 0]]
    client.put("/api/game", json=restorable_state(board))
    won = client.post("/api/game/moves", json={"direction": "left"}).get_json()
    assert won["won"] and won["goal"] == 512 and won["board"][0][0] == 512
    refused = client.post("/api/game/moves", json={"direction": "right"})
    assert refused.status_code == 409 and "512 reached" in refused.get_json()["error"]["message"]
    assert client.post("/api/game/keep-playing", json={}).get_json()["keep_playing"]


def test_a_state_of_a_size_that_does_not_match_its_board_is_refused(client):
    board = [[2, 0, 0], [0, 0, 0], [0, 0, 4]]
    reply = client.put("/api/game", json=restorable_state(board) | {"size": 4})
    assert reply.status_code == 400 and reply.get_json()["error"]["code"] == "invalid_state"
    assert "size must be 3" in reply.get_json()["error"]["message"]
    won_early = restorable_state(board) | {"board": [[512, 0, 0], [0, 0, 0], [0, 0, 2]]}
    assert client.put("/api/game", json=won_early).status_code == 400, "a 512 on 3x3 is a won game"


def test_a_game_over_only_when_stuck_on_three_by_three(client):
    stuck = [[2, 4, 2], [4, 2, 4], [2, 4, 2]]
    assert client.put("/api/game", json=restorable_state(stuck)).get_json()["over"] is True
    mergeable = [[2, 4, 2], [4, 2, 4], [2, 4, 4]]
    assert client.put("/api/game", json=restorable_state(mergeable)).get_json()["over"] is False


def test_records_carry_their_size_and_each_size_has_its_hall_of_fame(client):
    client.post("/api/game", json={"size": 3})
    finished = play_to_the_end(client, random.Random(5))
    record_id = save(client)
    record = client.get(f"/api/records/{record_id}").get_json()
    assert record["size"] == 3 and record["score"] == finished["score"] and record["verified"]
    assert [entry["id"] for entry in hall_of_fame(client, "?size=3")] == [record_id]
    assert record_id not in [entry["id"] for entry in hall_of_fame(client)], "the classic list is 4x4's"
    assert hall_of_fame(client, "?size=5") == []
    refused = client.get("/api/records?size=9")
    assert refused.status_code == 400 and refused.get_json()["error"]["code"] == "invalid_size"


def test_a_replay_is_exact_from_its_seed_size_and_directions(client):
    client.post("/api/game", json={"size": 5})
    finished = play_to_the_end(client, random.Random(8), batch=32)
    record = client.get(f"/api/records/{save(client)}").get_json()
    replay = record["replay"]
    variant = variant_of(record["size"])
    game = Game.replay(int(replay["seed"]), None, [BY_LETTER[letter] for letter in replay["directions"]], variant)
    assert game.to_state() == game_state(finished) | {"size": 5, "goal": 2048}
    assert len(tiles_from_text(replay["tiles"], variant)) == len(replay["directions"]) + 2
    assert len(replay["tiles"]) == 2 * (len(replay["directions"]) + 2), "two letters a tile past 4x4"
    assert boards(record)[-1] == finished["board"], "the page's positions rebuild the last board"


def test_a_sealed_copy_of_a_six_by_six_game_is_put_back_with_its_size(make_app):
    app = make_app()
    first, second = app.test_client(), app.test_client()
    first.post("/api/game", json={"size": 6})
    state = play_to_the_end_or(first, 30)
    token = first.get("/api/game/token").get_json()["token"]
    first.post("/api/game", json={})  # the session moves on: the game is held nowhere
    back = second.put("/api/game", json=state | {"token": token})
    assert back.status_code == 200
    assert back.get_json()["size"] == 6 and back.get_json()["board"] == state["board"]
    assert help_of(second)["restores"] == 1


def help_of(client):
    """The help the session's game had, as its record shows it."""
    return client.get(f"/api/records/{save(client)}").get_json()["help"]


def play_to_the_end_or(client, moves):
    """Random moves until the game has ``moves`` (a large board lasts that long): its state."""
    rng = random.Random(2)
    state = client.get("/api/game").get_json()
    while state["moves"] < moves:
        state = client.post("/api/game/moves", json={"direction": rng.choice(DIRECTIONS)}).get_json()
    return game_state(state)


def test_a_copy_sealed_before_games_had_sizes_reads_as_four_by_four(app):
    client = app.test_client()
    client.post("/api/game", json={})
    state = play_to_the_end_or(client, 5)
    with app.test_request_context():
        game = seals.unseal(client.get("/api/game/token").get_json()["token"])
        stored = game.to_stored()
        assert "size" not in stored, "a classic game's stored form is as 0.2.0 wrote it"
        token = seals._serializer().dumps({key: value for key, value in stored.items() if key != "seed"})
    client.post("/api/game", json={})
    back = client.put("/api/game", json=state | {"token": token}).get_json()
    assert (back["size"], back["board"]) == (4, state["board"])


@pytest.mark.parametrize("size", [3, 5, 8])
def test_a_hint_on_every_size_is_a_move_that_changes_the_board(client, size):
    client.post("/api/game", json={"size": size})
    state = play_to_the_end_or(client, 3)
    hint = client.post("/api/game/hint", json={})
    assert hint.status_code == 200
    direction = hint.get_json()["direction"]
    moved = client.post("/api/game/moves", json={"direction": direction}).get_json()
    assert moved["moved"] and moved["moves"] == state["moves"] + 1
    assert help_of(client)["hints"] == 1


def test_the_variants_bounds_follow_their_size():
    assert [VARIANTS[size].max_tile for size in (3, 4, 5)] == [2**10, 2**17, 2**26]
    assert VARIANTS[4].max_score == 3_932_164, "the classic bound, as before sizes"
