"""The JSON API as a client sees it, route by route."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import CLASSIC
from tests.support.states import restorable_state

NEAR_WIN = [[1024, 1024, 0, 0], [2, 4, 8, 16], [0, 0, 0, 0], [0, 0, 0, 0]]
DEAD_BOARD = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]


def tiles(board):
    return [value for row in board for value in row if value]


def test_first_get_creates_a_fresh_game_and_later_gets_return_it(client):
    first = client.get("/api/game")
    assert first.status_code == 200
    game = first.get_json()
    assert game["created"] is True
    assert len(tiles(game["board"])) == 2 and set(tiles(game["board"])) <= {2, 4}
    assert (game["score"], game["moves"], game["won"], game["over"]) == (0, 0, False, False)

    again = client.get("/api/game").get_json()
    assert again["created"] is False
    assert again["board"] == game["board"]


def test_new_game_answers_201_and_replaces_the_current_one(client):
    client.put("/api/game", json=restorable_state(NEAR_WIN, score=500))
    response = client.post("/api/game", json={})
    assert response.status_code == 201
    game = response.get_json()
    assert game["score"] == 0 and len(tiles(game["board"])) == 2
    assert client.get("/api/game").get_json()["board"] == game["board"]


def test_the_same_seed_and_moves_give_the_same_game(app):
    def play(seed):
        client = app.test_client()
        states = [client.post("/api/game", json={"seed": seed}).get_json()]
        for direction in ["left", "up", "right", "down"] * 5:
            states.append(client.post("/api/game/moves", json={"direction": direction}).get_json())
        return states

    assert play(42) == play(42)
    assert play(42) != play(43)


@pytest.mark.parametrize(
    "body",
    [
        {"seed": "seven"},  # a seed in a string is its decimal digits
        {"seed": True},
        {"seed": 1.5},
        {"seed": -1},
        {"seed": 2**63},
        {"seed": None, "x": 1},
        {"colour": "red"},
        [],
        "seed",
        7,
    ],
)
def test_new_game_refuses_anything_but_an_optional_integer_seed(client, body):
    before = client.put("/api/game", json=restorable_state(NEAR_WIN)).get_json()
    response = client.post("/api/game", json=body)
    assert response.status_code == 400
    assert set(response.get_json()["error"]) == {"code", "message"}
    assert client.get("/api/game").get_json()["board"] == before["board"]


def test_restore_recomputes_over_and_never_trusts_it(client):
    restored = client.put("/api/game", json=restorable_state(DEAD_BOARD, score=1234, moves=90, over=False))
    assert restored.status_code == 200
    assert restored.get_json() | {} == restorable_state(DEAD_BOARD, score=1234, moves=90, over=True)
    alive = client.put("/api/game", json=restorable_state(NEAR_WIN, over=True)).get_json()
    assert alive["over"] is False


def test_restore_keeps_the_high_tile_ladder(client):
    board = [[131072, 65536, 32768, 16384], [2, 4, 8, 16], [0, 0, 0, 0], [0, 0, 0, 0]]
    restored = client.put("/api/game", json=restorable_state(board, won=True, keep_playing=True)).get_json()
    assert restored["board"] == board


BAD_STATES = {
    "bool cell": restorable_state([[True, 0, 0, 0]] + [[0] * 4] * 3),
    "three": restorable_state([[3, 0, 0, 0]] + [[0] * 4] * 3),
    "too big": restorable_state([[262144, 0, 0, 0]] + [[0] * 4] * 3),
    "one": restorable_state([[1, 2, 0, 0]] + [[0] * 4] * 3),
    "float cell": restorable_state([[2.0, 0, 0, 0]] + [[0] * 4] * 3),
    "string cell": restorable_state([["2", 0, 0, 0]] + [[0] * 4] * 3),
    "five rows": restorable_state([[0] * 4] * 5),
    "short row": restorable_state([[0] * 3] + [[0] * 4] * 3),
    "negative score": restorable_state(NEAR_WIN, score=-4),
    "float score": restorable_state(NEAR_WIN, score=4.0),
    "bool score": restorable_state(NEAR_WIN, score=False),
    "string flag": restorable_state(NEAR_WIN, won="yes"),
    "int flag": restorable_state(NEAR_WIN, keep_playing=1),
    "missing score": {k: v for k, v in restorable_state(NEAR_WIN).items() if k != "score"},
    "extra field": restorable_state(NEAR_WIN, cheat=True),
    "not an object": [NEAR_WIN],
}


@pytest.mark.parametrize("bad", BAD_STATES.values(), ids=BAD_STATES.keys())
def test_restore_validates_strictly_and_keeps_the_game_on_refusal(client, bad):
    before = client.get("/api/game").get_json()
    response = client.put("/api/game", json=bad)
    assert response.status_code == 400
    assert response.get_json()["error"]["message"]
    after = client.get("/api/game").get_json()
    assert after["board"] == before["board"] and after["score"] == before["score"]


def test_a_move_returns_the_new_state_points_and_animation(client):
    client.put("/api/game", json=restorable_state([[2, 2, 4, 0], [0] * 4, [0] * 4, [0, 0, 0, 8]], score=10, moves=3))
    reply = client.post("/api/game/moves", json={"direction": "left"})
    assert reply.status_code == 200
    body = reply.get_json()
    assert body["moved"] is True and body["gained"] == 4
    assert (body["score"], body["moves"]) == (14, 4)
    slid = {(t["row"], t["col"]): (t["value"], sorted(map(tuple, t["from"]))) for t in body["animation"]["tiles"]}
    assert slid == {(0, 0): (4, [(0, 0), (0, 1)]), (0, 1): (4, [(0, 2)]), (3, 0): (8, [(3, 3)])}
    spawned = body["animation"]["spawned"]
    assert spawned["value"] in (2, 4) and body["board"][spawned["row"]][spawned["col"]] == spawned["value"]
    assert len(tiles(body["board"])) == 4


def test_a_move_that_changes_nothing_is_not_counted(client):
    board = [[2, 4, 0, 0], [0] * 4, [0] * 4, [0] * 4]
    client.put("/api/game", json=restorable_state(board, score=8, moves=2))
    body = client.post("/api/game/moves", json={"direction": "left"}).get_json()
    assert body["moved"] is False and body["gained"] == 0 and body["animation"]["spawned"] is None
    assert (body["board"], body["score"], body["moves"]) == (board, 8, 2)


@pytest.mark.parametrize(
    "body", [{"direction": "north"}, {"direction": "LEFT"}, {"direction": 1}, {}, {"direction": "up", "twice": True}]
)
def test_a_bad_move_is_refused_and_changes_nothing(client, body):
    before = client.put("/api/game", json=restorable_state(NEAR_WIN)).get_json()
    reply = client.post("/api/game/moves", json=body)
    assert reply.status_code == 400
    assert client.get("/api/game").get_json()["board"] == before["board"]


def test_moves_without_a_game_answer_404(client):
    reply = client.post("/api/game/moves", json={"direction": "up"})
    assert reply.status_code == 404
    assert reply.get_json()["error"]["code"] == "no_game"


def test_winning_waits_for_keep_playing(client):
    client.put("/api/game", json=restorable_state(NEAR_WIN))
    won = client.post("/api/game/moves", json={"direction": "left"}).get_json()
    assert won["won"] is True and won["gained"] == 2048 and won["keep_playing"] is False

    refused = client.post("/api/game/moves", json={"direction": "right"})
    assert refused.status_code == 409
    assert refused.get_json()["state"]["board"] == won["board"]

    kept = client.post("/api/game/keep-playing", json={})
    assert kept.status_code == 200 and kept.get_json()["keep_playing"] is True
    onwards = client.post("/api/game/moves", json={"direction": "right"})
    assert onwards.status_code == 200 and onwards.get_json()["won"] is True


def test_keep_playing_before_a_win_is_a_conflict(client):
    client.put("/api/game", json=restorable_state(NEAR_WIN))
    assert client.post("/api/game/keep-playing", json={}).status_code == 409


def test_a_finished_game_refuses_moves_with_its_state(client):
    client.put("/api/game", json=restorable_state(DEAD_BOARD, score=300))
    refused = client.post("/api/game/moves", json={"direction": "up"})
    assert refused.status_code == 409
    assert refused.get_json()["state"] == restorable_state(DEAD_BOARD, score=300, over=True)


def test_a_move_naming_the_current_count_is_applied_once_and_its_retry_changes_nothing(client):
    client.put("/api/game", json=restorable_state([[2, 2, 4, 0], [0] * 4, [0] * 4, [0, 0, 0, 8]], moves=3))
    first = client.post("/api/game/moves", json={"direction": "left", "moves": 3})
    assert first.status_code == 200 and first.get_json()["moves"] == 4
    retried = client.post("/api/game/moves", json={"direction": "left", "moves": 3})  # its answer was lost
    assert retried.status_code == 409
    body = retried.get_json()
    assert body["error"]["code"] == "out_of_sync"
    assert body["state"] == {k: v for k, v in first.get_json().items() if k in body["state"]}
    after = client.get("/api/game").get_json()
    assert after["moves"] == 4 and after["board"] == first.get_json()["board"]


def test_a_move_from_a_board_the_game_has_not_reached_changes_nothing(client):
    before = client.put("/api/game", json=restorable_state(NEAR_WIN, moves=7)).get_json()
    for stale in (6, 8, 0):
        refused = client.post("/api/game/moves", json={"direction": "left", "moves": stale})
        assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "out_of_sync"
        assert refused.get_json()["state"]["moves"] == 7
    extras = {"created": False, "helped": False}  # what GET adds to the state
    assert client.get("/api/game").get_json() | extras == before | extras


def test_a_no_op_move_naming_the_current_count_keeps_the_count(client):
    board = [[2, 4, 0, 0], [0] * 4, [0] * 4, [0] * 4]
    client.put("/api/game", json=restorable_state(board, moves=2))
    body = client.post("/api/game/moves", json={"direction": "left", "moves": 2}).get_json()
    assert body["moved"] is False and body["moves"] == 2
    assert client.post("/api/game/moves", json={"direction": "right", "moves": 2}).get_json()["moves"] == 3


@pytest.mark.parametrize("moves", ["3", -1, 3.0, True, None, 2**53, [3]])
def test_a_move_count_that_is_not_a_count_is_refused(client, moves):
    before = client.put("/api/game", json=restorable_state(NEAR_WIN, moves=3)).get_json()
    reply = client.post("/api/game/moves", json={"direction": "left", "moves": moves})
    assert reply.status_code == 400 and reply.get_json()["error"]["code"] == "invalid_moves"
    assert client.get("/api/game").get_json()["board"] == before["board"]


def test_a_batch_of_moves_plays_like_the_same_moves_one_by_one(app):
    keys = ["left", "up", "left", "left", "right", "down", "down", "up"]
    one_by_one, batched = app.test_client(), app.test_client()
    one_by_one.post("/api/game", json={"seed": 77})
    states = [one_by_one.post("/api/game/moves", json={"direction": d}).get_json() for d in keys]
    batched.post("/api/game", json={"seed": 77})
    answer = batched.post("/api/game/moves", json={"directions": keys, "moves": 0})
    assert answer.status_code == 200
    body = answer.get_json()
    last = states[-1]
    assert {k: body[k] for k in ("board", "score", "moves", "won", "over")} == {
        k: last[k] for k in ("board", "score", "moves", "won", "over")
    }
    assert body["gained"] == sum(s["gained"] for s in states) and body["moved"] is True
    again = batched.post("/api/game/moves", json={"directions": keys, "moves": 0})  # a retry
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "out_of_sync"
    assert batched.get("/api/game").get_json()["moves"] == last["moves"]


def test_a_batch_stops_at_the_win_and_drops_the_rest(client):
    client.put("/api/game", json=restorable_state(NEAR_WIN, moves=5))
    body = client.post("/api/game/moves", json={"directions": ["left", "right", "up"], "moves": 5}).get_json()
    assert body["won"] is True and body["moves"] == 6 and body["board"][0][0] == 2048
    assert client.post("/api/game/moves", json={"directions": ["right"]}).status_code == 409


@pytest.mark.parametrize(
    "body",
    [
        {"directions": []},
        {"directions": ["left"] * 65},
        {"directions": "left"},
        {"directions": ["left", "north"]},
        {"directions": [["left"]]},
        {"directions": ["left"], "direction": "left"},
    ],
)
def test_a_bad_batch_is_refused_and_changes_nothing(client, body):
    before = client.put("/api/game", json=restorable_state(NEAR_WIN)).get_json()
    reply = client.post("/api/game/moves", json=body)
    assert reply.status_code == 400 and reply.get_json()["error"]["message"]
    assert client.get("/api/game").get_json()["board"] == before["board"]


def test_a_repeated_request_gets_its_answer_again_and_plays_nothing_twice(client):
    client.put("/api/game", json=restorable_state([[2, 2, 4, 0], [0] * 4, [0] * 4, [0, 0, 0, 8]], moves=3))
    request = {"directions": ["left", "right"], "moves": 3, "id": "batch-1"}
    first = client.post("/api/game/moves", json=request).get_json()
    repeated = client.post("/api/game/moves", json=request)  # the first answer was lost
    assert repeated.status_code == 200
    body = repeated.get_json()
    assert body["repeated"] is True and body["moved"] is True and body["gained"] == first["gained"] > 0
    assert {k: body[k] for k in ("board", "score", "moves")} == {k: first[k] for k in ("board", "score", "moves")}
    assert client.get("/api/game").get_json()["moves"] == first["moves"] == 5


def test_a_repeat_is_refused_once_the_game_has_moved_on(client):
    client.put("/api/game", json=restorable_state([[2, 2, 4, 0], [0] * 4, [0] * 4, [0, 0, 0, 8]], moves=3))
    request = {"directions": ["left"], "moves": 3, "id": "batch-1"}
    client.post("/api/game/moves", json=request)
    client.post("/api/game/moves", json={"direction": "right"})  # another window played after it
    for refused in (request, request | {"id": "batch-2"}):
        reply = client.post("/api/game/moves", json=refused)
        assert reply.status_code == 409 and reply.get_json()["error"]["code"] == "out_of_sync"
    assert client.get("/api/game").get_json()["moves"] == 5


OPEN_ROW = [[2, 2, 4, 0], [0] * 4, [0] * 4, [0, 0, 0, 8]]


def test_a_batch_sent_after_another_not_yet_answered_is_played_where_that_one_left_the_game(app, client):
    """A page need not wait for an answer to send its next keys: ``after`` names the request before."""
    keys = ["left", "down", "up", "right", "left", "up"]
    client.post("/api/game", json={"seed": 7})
    first = client.post("/api/game/moves", json={"directions": keys[:3], "moves": 0, "id": "one"})
    second = client.post("/api/game/moves", json={"directions": keys[3:], "after": "one", "id": "two"})
    assert first.status_code == second.status_code == 200
    alone = app.test_client()  # the same game, its keys one at a time
    alone.post("/api/game", json={"seed": 7})
    for key in keys:
        expected = alone.post("/api/game/moves", json={"direction": key}).get_json()
    fields = ("board", "score", "moves")
    assert {k: second.get_json()[k] for k in fields} == {k: expected[k] for k in fields}
    again = client.post("/api/game/moves", json={"directions": keys[3:], "after": "one", "id": "two"})  # a retry
    assert again.get_json()["repeated"] is True and again.get_json()["moves"] == expected["moves"]
    assert client.get("/api/game").get_json()["moves"] == expected["moves"]  # played once


def test_a_batch_after_one_that_moved_nothing_is_played_where_that_one_left_the_game(client):
    client.put("/api/game", json=restorable_state([[2, 4, 8, 16], [0] * 4, [0] * 4, [0] * 4], moves=3))
    nothing = client.post("/api/game/moves", json={"directions": ["up"], "moves": 3, "id": "one"}).get_json()
    assert nothing["moved"] is False and nothing["moves"] == 3
    second = client.post("/api/game/moves", json={"directions": ["down"], "after": "one", "id": "two"})
    assert second.status_code == 200 and second.get_json()["moves"] == 4
    again = client.post("/api/game/moves", json={"directions": ["up"], "moves": 3, "id": "one"})  # too late
    assert again.status_code == 409 and client.get("/api/game").get_json()["moves"] == 4


@pytest.mark.parametrize("before", ["nothing", "arrived later", "another window played"])
def test_a_batch_after_a_request_that_did_not_leave_the_game_where_it_is_changes_nothing(client, before):
    client.put("/api/game", json=restorable_state(OPEN_ROW, moves=3))
    if before != "nothing":
        client.post("/api/game/moves", json={"directions": ["left"], "moves": 3, "id": "one"})
    if before == "another window played":
        client.post("/api/game/moves", json={"direction": "down"})
    state = client.get("/api/game").get_json()
    after = "one" if before != "arrived later" else "zero"  # the one it follows has not come yet
    reply = client.post("/api/game/moves", json={"directions": ["up"], "after": after, "id": "two"})
    assert reply.status_code == 409 and reply.get_json()["error"]["code"] == "out_of_sync"
    assert reply.get_json()["state"]["board"] == state["board"] == client.get("/api/game").get_json()["board"]


@pytest.mark.parametrize(
    "body", [{"after": "one"}, {"after": "one", "moves": 3, "id": "two"}, {"after": 5, "id": "two"}]
)
def test_after_takes_the_place_of_moves_and_needs_an_id(client, body):
    client.put("/api/game", json=restorable_state(OPEN_ROW, moves=3))
    client.post("/api/game/moves", json={"directions": ["left"], "moves": 3, "id": "one"})
    reply = client.post("/api/game/moves", json={"directions": ["up"], **body})
    assert reply.status_code == 400 and reply.get_json()["error"]["code"] == "invalid_after"
    assert client.get("/api/game").get_json()["moves"] == 4


@pytest.mark.parametrize("request_id", ["", "x" * 65, "a b", 7, None, ["id"]])
def test_a_request_id_that_is_not_one_is_refused(client, request_id):
    before = client.put("/api/game", json=restorable_state(NEAR_WIN, moves=3)).get_json()
    reply = client.post("/api/game/moves", json={"direction": "left", "moves": 3, "id": request_id})
    assert reply.status_code == 400 and reply.get_json()["error"]["code"] == "invalid_id"
    assert client.get("/api/game").get_json()["board"] == before["board"]


@pytest.mark.parametrize("field", ["score", "moves"])
def test_counters_past_what_a_game_can_reach_are_refused(client, field):
    limit = {"score": CLASSIC.max_score, "moves": CLASSIC.max_moves}[field]
    assert client.put("/api/game", json=restorable_state(NEAR_WIN, **{field: limit})).status_code == 200
    for beyond in (limit + 1, 2**53 - 1):
        refused = client.put("/api/game", json=restorable_state(NEAR_WIN, **{field: beyond}))
        assert refused.status_code == 400 and refused.get_json()["error"]["code"] == "invalid_state"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    score=st.integers(CLASSIC.max_score - 5000, CLASSIC.max_score),
    moves=st.integers(CLASSIC.max_moves - 3, CLASSIC.max_moves),
)
def test_a_game_restored_at_its_counters_bounds_plays_on_and_stays_stored(client, score, moves):
    client.put("/api/game", json=restorable_state(NEAR_WIN, score=score, moves=moves, won=False))
    moved = client.post("/api/game/moves", json={"direction": "left"}).get_json()
    assert moved["moved"] is True and moved["gained"] == 2048
    after = client.get("/api/game").get_json()
    assert after["created"] is False and after["board"] == moved["board"]
    assert after["score"] == min(score + 2048, CLASSIC.max_score) and after["moves"] == min(
        moves + 1, CLASSIC.max_moves
    )


def test_a_batch_is_played_without_drawing_its_animation(client, monkeypatch):
    """The page sends batches and predicts the slides itself: only a single direction is answered with its animation."""

    def refuse(*_args):
        raise AssertionError("a batch built an animation")

    client.put("/api/game", json=restorable_state([[2, 2, 4, 0], [0] * 4, [0] * 4, [0, 0, 0, 8]]))
    monkeypatch.setattr("app.routes.game_api.slide_tiles", refuse)
    body = client.post("/api/game/moves", json={"directions": ["left", "right", "up"]}).get_json()
    assert body["moved"] is True and "animation" not in body


def test_the_game_says_whether_it_used_help_for_the_players_statistics(client):
    client.post("/api/game", json={})
    assert client.get("/api/game").get_json()["helped"] is False
    for direction in ("left", "up", "right", "down"):
        if client.post("/api/game/moves", json={"direction": direction}).get_json()["moved"]:
            break
    assert client.post("/api/game/undo", json={}).status_code == 200
    assert client.get("/api/game").get_json()["helped"] is True
    client.post("/api/game", json={})
    assert client.get("/api/game").get_json()["helped"] is False
