"""What a cheat could know of a game's tiles to come: the tile a move brings, as the API shows it,
and as a seed (revealed by a record) foretells it."""

import math
import random

from app.engine import CLASSIC, DIRECTIONS, Game, empty_cells, pack
from app.engine.sliding import move
from app.engine.spawn import TWO_PROBABILITY

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
    """The tiles a seed (decimal digits, as the API shows it) foretells for a game (as Game.replaying
    draws them), from the position ``start`` and ``directions`` make on: what a player who read the
    seed could know."""

    def __init__(self, seed, start, directions):
        self.game = Game.replay(int(seed), start, directions)

    def tile(self, board, direction):
        """The tile the move from ``board`` would bring: the foretold game is put on that board first."""
        self.game.board = pack(board)
        _gained, tile = self.game.advance(direction)
        return tile


def chance_of_guessing(board, direction):
    """How likely a guess made without any seed names the tile a move brings: a 2 or a 4 on one of
    the cells the slide leaves empty, each drawn as the engine draws them."""
    slid, _gained = move(pack(board), direction)
    return (TWO_PROBABILITY**2 + (1 - TWO_PROBABILITY) ** 2) / len(empty_cells(slid, CLASSIC))


def no_better_than_chance(foretold, chances):
    """Whether ``foretold`` tiles, out of moves guessed with these chances, is what luck gives (within
    three standard deviations, and two more): one who knew the tiles would foretell every one."""
    expected = sum(chances)
    spread = math.sqrt(sum(chance * (1 - chance) for chance in chances))
    return foretold <= expected + 3 * spread + 2


def foretold_share(line, foretold):
    """How many tiles of a ``line`` played [(board before, direction, tile it brought)] a cheat who
    learnt ``foretold`` ({(str(board), direction): tile}) named, and whether that is no more than
    guessing names."""
    hits = sum(foretold.get((str(board), direction)) == tile for board, direction, tile in line)
    return hits, no_better_than_chance(hits, [chance_of_guessing(board, direction) for board, direction, _ in line])


def foretelling(line):
    """What a line played tells of the same line played again: {(str(board), direction): tile}."""
    return {(str(board), direction): tile for board, direction, tile in line}
