"""One game, one place: help and foresight are counted on the game, whichever session asked.

Each test plays a cheat with several sessions (test clients, some on a second app of the same
instance folder: another worker) against one honest-looking game, and checks that what the cheat
learned either cannot help or leaves its mark on the game's record.
"""

import random
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from app import records
from app.engine import DIRECTIONS
from app.games import session as games
from tests.support.client_play import finish, hall_of_fame, save
from tests.support.foresight import (
    Foreteller,
    chance_of_guessing,
    moving_direction,
    no_better_than_chance,
    play_randomly,
    state_and_copy,
    tile_brought,
)
from tests.support.stored_sessions import expire, forget


def ask_hint(client):
    return client.post("/api/game/hint", json={})


def record(client, record_id):
    return client.get(f"/api/records/{record_id}").get_json()


def without_help(client, record_id):
    return record_id in [row["id"] for row in hall_of_fame(client, "?without_help=1")]


def test_a_second_session_previews_none_of_a_held_games_tiles(make_records_app):
    """Hole 1: a spy puts the player's sealed copy back before each move and plays it there first."""
    app = make_records_app()
    player, spy, rng = app.test_client(), app.test_client(), random.Random(1)
    play_randomly(player, 10)
    foretold, chances = 0, []
    for _ in range(40):
        direction = moving_direction(player, rng)
        if direction is None:
            break
        state, token = state_and_copy(player)
        assert spy.put("/api/game", json={**state, "token": token}).get_json()["board"] == state["board"]
        chances.append(chance_of_guessing(state["board"], direction))
        foretold += tile_brought(spy, direction) == tile_brought(player, direction)
    assert no_better_than_chance(foretold, chances), f"{foretold} of {len(chances)} previews showed the tile to come"
    finish(player)
    player_record = save(player)
    assert record(player, player_record)["verified"] and without_help(player, player_record)
    finish(spy)
    assert not record(spy, save(spy))["verified"], "the spy's game is a fork: a new game, never verified"


@pytest.mark.parametrize("help_asked", ["hint", "autoplay"])
def test_help_asked_through_a_copy_counts_on_the_game_and_on_its_record(make_records_app, help_asked):
    """Hole 2: a helper puts the player's copy back and asks the solver about the player's position."""
    first, second = make_records_app(), make_records_app()  # two workers
    player, helper = first.test_client(), second.test_client()
    play_randomly(player, 10)
    saved = save(player)
    assert not record(player, saved)["assisted"]
    state, token = state_and_copy(player)
    helper.put("/api/game", json={**state, "token": token})
    if help_asked == "hint":
        for _ in range(3):
            direction = ask_hint(helper).get_json()["direction"]
            assert tile_brought(player, direction) is not None  # the player plays the helper's hint
            state, token = state_and_copy(player)
            helper.put("/api/game", json={**state, "token": token})
    else:
        assert helper.post("/api/game/autoplay", json={}).status_code == 200
    assert record(player, saved)["assisted"], "the game's record is marked at once"
    finish(player)
    assert save(player) == saved
    assert record(player, saved)["assisted"] and not without_help(player, saved)
    assert record(player, saved)["verified"], "help does not make a game unverified, only helped"


def test_a_copy_played_to_its_end_elsewhere_tells_nothing_of_the_games_tiles(make_records_app):
    """Hole 3: a second session plays the player's copy to its end and saves it, showing a seed."""
    app = make_records_app()
    player, other = app.test_client(), app.test_client()
    played = play_randomly(player, 10)
    state, token = state_and_copy(player)
    other.put("/api/game", json={**state, "token": token})
    finish(other)
    shown = record(other, save(other))
    replay = shown["replay"]
    assert replay["seed"] is not None
    # The cheat takes the shown seed for the player's game's: the position at the copy, then each move's tile.
    foreteller = Foreteller(replay["seed"], replay["start"], [] if replay["start"] else played)
    rng, foretold, chances = random.Random(2), 0, []
    while len(chances) < 40 and (direction := moving_direction(player, rng)) is not None:
        board = player.get("/api/game").get_json()["board"]
        chances.append(chance_of_guessing(board, direction))
        foretold += foreteller.tile(board, direction) == tile_brought(player, direction)
    assert no_better_than_chance(foretold, chances), f"{foretold} of {len(chances)} tiles foretold by the shown seed"
    assert not shown["verified"], "the other session played a fork"
    finish(player)
    player_record = save(player)
    assert player_record != shown["id"] and record(player, player_record)["verified"]


@pytest.mark.parametrize("where", ["a new session, the game forgotten", "the session that showed the seed"])
def test_once_a_record_shows_its_seed_no_copy_of_the_game_plays_on_verified(make_records_app, where):
    """Hole 4: a copy from move 4, put back after the game's record showed its seed."""
    app = make_records_app()
    player = app.test_client()
    early = play_randomly(player, 4)
    state, token = state_and_copy(player)
    finish(player)
    revealed = record(player, save(player))["replay"]
    assert revealed["seed"] is not None
    if where.startswith("a new session"):
        forget(app, player.get_cookie("session").value)
        thief = app.test_client()
    else:
        thief = player
    reply = thief.put("/api/game", json={**state, "token": token})
    assert reply.status_code == 200 and reply.get_json()["board"] == state["board"]
    foreteller = Foreteller(revealed["seed"], None, early)
    rng, foretold, chances = random.Random(3), 0, []
    while len(chances) < 30 and (direction := moving_direction(thief, rng)) is not None:
        board = thief.get("/api/game").get_json()["board"]
        chances.append(chance_of_guessing(board, direction))
        foretold += foreteller.tile(board, direction) == tile_brought(thief, direction)
    assert len(chances) == 30 and no_better_than_chance(foretold, chances), f"{foretold} of 30 foretold by the seed"
    assert not record(thief, save(thief, "Thief"))["verified"]


def test_saves_of_one_game_from_several_sessions_and_workers_at_once_all_land(make_records_app):
    """Hole 5: the player's session on two workers, and two copies of its game, all saving at once."""
    first, second = make_records_app(), make_records_app()
    player = first.test_client()
    play_randomly(player, 20)
    state, token = state_and_copy(player)
    same_session = second.test_client()
    same_session.set_cookie("session", player.get_cookie("session").value)
    copies = [app.test_client() for app in (first, second)]
    for copy in copies:
        copy.put("/api/game", json={**state, "token": token})
    clients = [player, same_session, *copies]
    for _ in range(3):
        start = threading.Barrier(len(clients))

        def saving(client, start=start):
            start.wait()
            return client.post("/api/records", json={"name": "Ann"})

        with ThreadPoolExecutor(len(clients)) as pool:
            replies = list(pool.map(saving, clients))
        assert [reply.status_code in (200, 201) for reply in replies] == [True] * len(clients)
        ids = [reply.get_json()["id"] for reply in replies]
        assert ids[0] == ids[1] and len(set(ids)) == 3, "the player's game has one record; each copy is its own game"
    assert record(player, ids[0])["verified"] and not any(record(player, i)["verified"] for i in ids[2:])


def test_saves_racing_on_one_game_land_on_its_one_record(make_records_app):
    """However two saves of one game meet (two workers, one record database), both land on one record."""
    apps = [make_records_app(), make_records_app()]
    with apps[0].app_context():
        game = games.new_game()
    for direction in DIRECTIONS * 3:
        game.play(direction)
    start = threading.Barrier(2)

    def saving(app):
        with app.app_context():
            start.wait()
            saved, _created = records.save(game, "Ann")
            return saved.id

    with ThreadPoolExecutor(2) as pool:
        ids = list(pool.map(saving, apps))
    assert ids[0] == ids[1]
    client = apps[0].test_client()
    assert record(client, ids[0])["moves"] == game.moves


def test_a_link_from_another_site_changes_no_game(make_records_app):
    """Hole 6: a page elsewhere links (or points an image) at the hint: the cookie goes with a GET."""
    client = make_records_app().test_client()
    play_randomly(client, 3)
    elsewhere = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}
    for method in ("GET", "POST"):
        reply = client.open("/api/game/hint", method=method, headers=elsewhere, json={} if method == "POST" else None)
        assert reply.status_code == 403 and reply.get_json()["error"]["code"] == "cross_site"
    assert client.get("/api/game", headers=elsewhere).status_code == 403
    assert client.get("/api/game").get_json()["helped"] is False
    assert ask_hint(client).status_code == 200
    assert client.get("/api/game").get_json()["helped"] is True


def test_a_forgotten_game_comes_back_in_one_session_only(make_records_app):
    """A game whose session the server forgot comes back from its copy, verified, in the first
    session that asks; any later copy put back elsewhere is a fork."""
    app = make_records_app()
    player = app.test_client()
    play_randomly(player, 10)
    state, token = state_and_copy(player)
    forget(app, player.get_cookie("session").value)
    back, late = app.test_client(), app.test_client()
    for client in (back, late):
        client.put("/api/game", json={**state, "token": token})
    for client in (back, late):
        finish(client)
    assert record(back, save(back))["verified"] and not record(late, save(late))["verified"]


def test_a_session_whose_game_is_held_elsewhere_is_refused_and_forgotten(make_records_app, monkeypatch):
    """Should two restores of a forgotten game cross (both asked before either was written), the
    second one's write is refused, its session forgotten, and the first keeps the game."""
    app = make_records_app(PROPAGATE_EXCEPTIONS=False)  # the refusal comes after the route, as in production
    player = app.test_client()
    play_randomly(player, 10)
    state, token = state_and_copy(player)
    forget(app, player.get_cookie("session").value)
    first, second = app.test_client(), app.test_client()
    assert first.put("/api/game", json={**state, "token": token}).status_code == 200
    monkeypatch.setattr(games.store, "held_elsewhere", lambda _game_id: False)  # as if both asked at once
    refused = second.put("/api/game", json={**state, "token": token})
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "game_elsewhere"
    assert second.get("/api/game").get_json()["created"] is True, "the refused session was forgotten"
    monkeypatch.undo()
    assert second.put("/api/game", json={**state, "token": token}).status_code == 200  # now a fork
    assert tile_brought(first, moving_direction(first, random.Random(5))) is not None
    finish(first)
    assert record(first, save(first))["verified"]


def test_the_game_a_record_replays_is_the_one_its_session_played(make_records_app):
    """A fork replays from the position it was put back at: its record never claims the game it came from."""
    app = make_records_app()
    player, other = app.test_client(), app.test_client()
    play_randomly(player, 8)
    state, token = state_and_copy(player)
    other.put("/api/game", json={**state, "token": token})
    play_randomly(other, 5, seed=9)
    replay = record(other, save(other))["replay"]
    assert replay["start"] == state and len(replay["directions"]) == 5


def test_a_session_expired_but_not_yet_cleared_holds_its_game_no_longer(make_records_app):
    """The store clears expired sessions only now and then: an expired one that still names the game
    neither keeps its copy from coming back as the game, nor blocks the write of the one it came back in."""
    app = make_records_app()
    player = app.test_client()
    play_randomly(player, 10)
    state, token = state_and_copy(player)
    expire(app, player.get_cookie("session").value)
    back = app.test_client()
    assert back.put("/api/game", json={**state, "token": token}).status_code == 200
    assert tile_brought(back, moving_direction(back, random.Random(7))) is not None
    finish(back)
    assert record(back, save(back))["verified"]
