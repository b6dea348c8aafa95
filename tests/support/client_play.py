"""Playing and saving games through the test client."""

import random

from app.engine import DIRECTIONS, unpack, variant_of
from app.engine.history import positions, tiles_from_text
from tests.support.http_play import game_state


def _moves(client, rng, enough):
    """Random moves (keeping on past 2048) until ``enough(state)`` or the game's end: the state then."""
    state = client.get("/api/game").get_json()
    while not enough(state) and not state["over"]:
        if state["won"] and not state["keep_playing"]:
            state = client.post("/api/game/keep-playing", json={}).get_json()
        state = client.post("/api/game/moves", json={"direction": rng.choice(DIRECTIONS)}).get_json()
    return game_state(client.get("/api/game").get_json())


def play(client, count, rng=None):
    """Random moves until the session's game has ``count``: the state then. The server picks every
    game's seed, so a game can end first: then a new one is begun, until one lasts that long."""
    rng = rng or random.Random(3)
    for _game in range(50):
        state = _moves(client, rng, lambda state: state["moves"] >= count)
        if state["moves"] >= count:
            return state
        client.post("/api/game", json={})
    raise AssertionError(f"no game of 50 lasted {count} moves")


def save(client, name="Ann"):
    """Save the session's game: a new record (201), or its record brought up to date (200)."""
    reply = client.post("/api/records", json={"name": name})
    assert reply.status_code in (200, 201), reply.get_json()
    return reply.get_json()["id"]


def finish(client, rng=None):
    """Play the session's game to its end (the hall of fame ranks only games that are over)."""
    state = _moves(client, rng or random.Random(3), lambda _state: False)
    assert state["over"]
    return state


def hall_of_fame(client, query=""):
    reply = client.get(f"/api/records{query}")
    assert reply.status_code == 200
    return reply.get_json()["records"]


def boards(record):
    """Every board of a record as the API shows it (``GET /api/records/<id>``), rebuilt from its
    directions and tiles as the replay page does."""
    replay, variant = record["replay"], variant_of(record["size"])
    by_letter = {direction[0]: direction for direction in DIRECTIONS}
    tiles = tiles_from_text(replay["tiles"], variant)
    return [
        unpack(board, variant)
        for board in positions(replay["start"], [by_letter[d] for d in replay["directions"]], tiles, variant)
    ]
