"""What a cheat could know of a game's tiles to come: the tile a move brings, as the API shows it,
and as a seed (revealed by a record) foretells it."""

import random

from app.engine import DIRECTIONS, Game, move, pack

STATE_KEYS = ("board", "score", "won", "keep_playing", "moves")


def state_and_copy(client):
    """The session's game as the page keeps it: its state, and its sealed copy."""
    state = client.get("/api/game").get_json()
    return {key: state[key] for key in STATE_KEYS}, client.get("/api/game/token").get_json()["token"]


def tile_brought(client, direction):
    """Play ``direction``: the new tile it brought as (row, col, value), or None when nothing moved."""
    answer = client.post("/api/game/moves", json={"direction": direction}).get_json()
    spawned = answer["animation"]["spawned"]
    return None if spawned is None else (spawned["row"], spawned["col"], spawned["value"])


def moving_direction(client, rng):
    """A random direction that moves the session's game (None when none does: the game is over);
    a won game is played on."""
    state = client.get("/api/game").get_json()
    if state["won"] and not state["keep_playing"]:
        client.post("/api/game/keep-playing", json={})
    board = pack(state["board"])
    moving = [direction for direction in DIRECTIONS if move(board, direction)[0] != board]
    return rng.choice(moving) if moving else None


def play_randomly(client, count, seed=4):
    """``count`` random moves (fewer if the game ends): the directions played."""
    rng, played = random.Random(seed), []
    while len(played) < count and (direction := moving_direction(client, rng)) is not None:
        assert tile_brought(client, direction) is not None
        played.append(direction)
    return played


class Foreteller:
    """The tiles a seed foretells for a game (as Game.replaying draws them), from the position
    ``start`` and ``directions`` make on: what a player who read the seed could know."""

    def __init__(self, seed, start, directions):
        self.game = Game.replay(seed, start, directions)

    def tile(self, board, direction):
        """The tile the move from ``board`` would bring: the foretold game is put on that board first."""
        self.game.board = pack(board)
        _gained, tile = self.game.advance(direction)
        return tile
