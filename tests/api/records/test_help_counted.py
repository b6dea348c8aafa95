"""Every way back in time, and every way to the server's solver, is counted as help: the hall of fame
ranks the games without it, lists those with it apart with their help named, and a hint asked on a
live game's board from another session marks that game (docs/architecture.md#how-a-verified-game-stays-fair).

Each test runs on SQLite and on a real PostgreSQL server (the records' conftest).
"""

import random

import pytest

from app.assistance import EARLY_MOVES
from app.engine import CLASSIC, DIRECTIONS, pack, symmetries
from app.engine.sliding import move
from tests.support.client_play import finish, hall_of_fame, play, save
from tests.support.foresight import moving_direction, tile_brought

STATE_KEYS = ("board", "score", "won", "keep_playing", "moves")


def state_of(client):
    return {key: value for key, value in client.get("/api/game").get_json().items() if key in STATE_KEYS}


def record(client, record_id):
    return client.get(f"/api/records/{record_id}").get_json()


def search_by_undo(client, rng):
    """A cheat's game: at every position each direction is tried and taken back, then one is played,
    to the game's end. The tiles it saw before committing, out of those it played."""
    seen = played = 0
    while (direction := moving_direction(client, rng)) is not None:
        tried = {}
        for other in DIRECTIONS:
            board = pack(state_of(client)["board"])
            if move(board, other)[0] != board:
                tried[other] = tile_brought(client, other)
                assert client.post("/api/game/undo", json={}).status_code == 200
        seen += tried[direction] == tile_brought(client, direction)
        played += 1
    return seen, played


def test_a_game_searched_by_undo_is_not_ranked_with_games_without_help_and_names_its_help(make_records_app):
    """Undo is five moves deep but may be used without end: trying every direction and taking it back
    shows every tile before it is played. Such a game is listed apart, with its help in words."""
    app = make_records_app()
    cheat, honest = app.test_client(), app.test_client()
    for client in (cheat, honest):
        client.post("/api/game", json={})
    seen, played = search_by_undo(cheat, random.Random(1))
    assert seen == played > 20, "undo showed every tile before it was played"
    finish(honest)
    cheat_id, honest_id = save(cheat, "Cheat"), save(honest, "Honest")
    assert [row["id"] for row in hall_of_fame(honest)] == [honest_id]  # the default: without help
    (listed,) = hall_of_fame(honest, "?helped=1")
    assert listed["id"] == cheat_id and listed["helped"] and listed["help"]["undos"] >= 3 * played
    assert listed["help"] == {"hints": 0, "autoplay": False, "undos": listed["help"]["undos"], "restores": 0}
    assert {row["id"] for row in hall_of_fame(honest, "?without_help=0")} == {cheat_id, honest_id}
    page = honest.get("/records?helped=1").get_data(as_text=True)
    assert "Cheat" in page and f"{listed['help']['undos']:,} moves taken back" in page and "Honest" not in page
    czech = honest.get("/records?helped=1", headers={"Accept-Language": "cs"}).get_data(as_text=True)
    assert "vrácených tahů" in czech
    default = honest.get("/records").get_data(as_text=True)
    assert "Honest" in default and "Cheat" not in default


def test_conflicting_hall_of_fame_lists_are_400(client):
    reply = client.get("/api/records?helped=1&without_help=1")
    assert reply.status_code == 400 and reply.get_json()["error"]["code"] == "invalid_helped"
    assert client.get("/api/records?helped=yes").status_code == 400


def mirror(client, state, board=None, **changed):
    """Put ``state`` (on ``board`` if given) into the session with no sealed copy, as a cheat types it in."""
    typed = state | {"board": board or state["board"]} | changed
    assert client.put("/api/game", json=typed).status_code == 200


def turned(board):
    """The board turned a quarter, as a cheat might type it in to hide it."""
    return [list(row) for row in zip(*board[::-1], strict=True)]


@pytest.mark.parametrize("how", ["exact", "turned, at move 0"])
def test_hints_asked_on_a_live_games_board_from_another_session_mark_it(make_records_app, how):
    """A second session holding the live game's very board, typed in without a sealed copy (or turned,
    with another score and move count), asks the server's solver: the game it mirrors is helped."""
    first, second = make_records_app(), make_records_app()  # two workers of one instance folder
    player, helper = first.test_client(), second.test_client()
    player.post("/api/game", json={})
    play(player, EARLY_MOVES + 5)
    saved = save(player)
    for _ in range(3):
        state = state_of(player)
        if how == "exact":
            mirror(helper, state)
        else:
            mirror(helper, state, turned(state["board"]), score=0, moves=0)
        hinted = helper.post("/api/game/hint", json={})
        assert hinted.status_code == 200
        assert tile_brought(player, moving_direction(player, random.Random(0))) is not None
    shown = record(player, saved)
    assert shown["help"]["hints"] == 3 and shown["helped"], "the game's record is marked at once"
    finish(player)
    assert save(player) == saved
    shown = record(player, saved)
    assert shown["verified"] and shown["helped"] and shown["help"]["hints"] == 3
    assert saved not in [row["id"] for row in hall_of_fame(player)]
    assert saved in [row["id"] for row in hall_of_fame(player, "?helped=1")]


def test_a_review_of_a_live_games_board_typed_into_a_record_marks_the_game(make_records_app):
    """The solver's review is the solver too: a board typed in, one move played, saved and reviewed."""
    app = make_records_app()
    player, helper = app.test_client(), app.test_client()
    player.post("/api/game", json={})
    play(player, EARLY_MOVES + 3)
    saved = save(player)
    mirror(helper, state_of(player))
    assert tile_brought(helper, moving_direction(helper, random.Random(0))) is not None
    typed = save(helper, "Helper")
    reviewed = helper.get(f"/api/records/{typed}/review?from=0")
    assert reviewed.status_code == 200 and reviewed.get_json()["reviews"][0]["best"]
    assert record(player, saved)["help"]["hints"] == 1
    assert record(helper, typed)["help"]["hints"] == 0  # a record's own review is no help to its game


def test_auto_play_asked_on_a_live_games_board_marks_it(make_records_app):
    app = make_records_app()
    player, helper = app.test_client(), app.test_client()
    player.post("/api/game", json={})
    play(player, EARLY_MOVES)
    mirror(helper, state_of(player))
    assert helper.post("/api/game/autoplay", json={}).status_code == 200
    assert record(player, save(player))["help"]["autoplay"] is True


@pytest.mark.slow
def test_hints_asked_on_start_boards_mark_none_of_a_thousand_honest_games(make_app):
    """Honest games share their early boards (two tiles at the start): hints that other players ask
    there mark none of them, wherever they stand; one hint on one of their own boards past the early
    moves marks that game alone (the control: the test can fail)."""
    app = make_app(SOLVER_BUDGET_MS=2)  # the store is what counts here: SQLite alone
    rng = random.Random(7)
    honest = []
    for _ in range(1000):
        client = app.test_client()
        client.post("/api/game", json={})
        play(client, rng.randrange(0, 2 * EARLY_MOVES), rng)
        honest.append(client)
    starts = set()
    for _ in range(300):  # other players' start boards, each in every turn and mirror
        other = app.test_client()
        board = other.post("/api/game", json={}).get_json()["board"]
        starts |= symmetries(pack(board), CLASSIC)
        assert other.post("/api/game/hint", json={}).status_code == 200
    early = [client for client in honest if state_of(client)["moves"] < EARLY_MOVES]
    assert any(pack(state_of(client)["board"]) in starts for client in early), "some honest game stands on one"
    control = next(client for client in honest if state_of(client)["moves"] >= EARLY_MOVES)
    helper = app.test_client()
    mirror(helper, state_of(control))
    assert helper.post("/api/game/hint", json={}).status_code == 200
    marked = [client for client in honest if record(client, save(client))["helped"]]
    assert marked == [control]


def test_the_helped_list_names_each_kind_of_help_on_the_page(make_records_app):
    app = make_records_app()
    client = app.test_client()
    client.post("/api/game", json={})
    play(client, 3)
    assert client.post("/api/game/undo", json={}).status_code == 200
    assert client.post("/api/game/hint", json={}).status_code == 200
    assert client.post("/api/game/autoplay", json={}).status_code == 200
    finish(client)
    record_id = save(client)
    page = client.get("/records?helped=1").get_data(as_text=True)
    assert record_id in page and "1 hint, auto-play, 1 move taken back" in page
