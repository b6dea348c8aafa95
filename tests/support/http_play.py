"""Playing the game over HTTP with tests.support.client.HttpClient, for the deploy and load tests."""

STATE_KEYS = ("board", "score", "won", "over", "keep_playing", "moves")
DIRECTIONS = ("left", "up", "right", "down")


def game_state(payload):
    """The game part of an API answer (drops "created", "moved", "animation", ...)."""
    return {k: payload[k] for k in STATE_KEYS}


def play_move(client, base_url=None, headers=None):
    """Make one move that changes the board (trying each direction); return the answer's JSON.

    AssertionError if no direction moves or a request fails.
    """
    for direction in DIRECTIONS:
        resp = client.post("/api/game/moves", json={"direction": direction}, base_url=base_url, headers=headers)
        assert resp.status == 200, (resp.status, resp.body[:300])
        body = resp.json()
        if body["moved"]:
            return body
    raise AssertionError("no direction moves this game")
