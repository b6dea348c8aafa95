"""Game states as JSON and games as a session stores them: exact shape, round trips and strict validation."""

import json

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import CLASSIC, SIZES, VARIANTS, Game, InvalidState, pack
from app.games.played import PlayedGame, StoredGame, check_stored

# Other work shares these machines: judge results, not timing.
unhurried = settings(deadline=None)

BOARD = [[2, 0, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 131072]]


def valid_state(**changes):
    state = {"board": [row[:] for row in BOARD], "score": 12, "won": True, "keep_playing": False, "moves": 5}
    state.update(changes)
    return state


def with_cell(value, r=1, c=2):
    board = [row[:] for row in BOARD]
    board[r][c] = value
    return valid_state(board=board)


@st.composite
def tile_grids(draw, variant):
    """A board of ``variant`` with at least one tile, any tile of its ladder on any cell."""
    tile = st.one_of(st.just(0), st.integers(1, variant.max_exponent).map(lambda k: 1 << k))
    row = st.lists(tile, min_size=variant.size, max_size=variant.size)
    return draw(st.lists(row, min_size=variant.size, max_size=variant.size).filter(lambda grid: any(map(any, grid))))


@st.composite
def games(draw):
    """A game of any size within its variant's bounds, with the product's fields set at random."""
    variant = VARIANTS[draw(st.sampled_from(SIZES))]
    grid = draw(tile_grids(variant))
    won = max(map(max, grid)) >= variant.goal or draw(st.booleans())
    return PlayedGame(
        board=pack(grid),
        variant=variant,
        score=draw(st.integers(0, variant.max_score)),
        won=won,
        keep_playing=won and draw(st.booleans()),
        moves=draw(st.integers(0, variant.max_moves)),
        seed=draw(st.integers(0, 2**63 - 1)),
        id=draw(st.none() | st.just("A" * 16)),
        hints=draw(st.integers(0, 1000)),
        autoplay=draw(st.booleans()),
        undos=draw(st.integers(0, 9)),
        seed_shown=draw(st.booleans()),
        day=(day := draw(st.none() | st.just("2026-12-05"))),
        by_history=day is not None,  # a new day's game draws its tiles by its history
    )


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner, max_size=5),
    max_leaves=25,
)
json_cells = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3)
near_boards = st.lists(st.lists(json_cells, min_size=2, max_size=9), min_size=2, max_size=9)
near_states = st.fixed_dictionaries(
    {
        "board": near_boards | json_values,
        "score": json_cells,
        "won": json_cells,
        "keep_playing": json_cells,
        "moves": json_cells,
    },
    optional={"over": json_cells, "seed": json_cells, "size": json_cells, "goal": json_cells},
)

# Stored games with one field damaged: any JSON value in place of one it has, or of an optional one.
STORED_FIELDS = sorted(field.encode_name for field in msgspec.structs.fields(StoredGame))
near_stored = st.tuples(games(), st.sampled_from(STORED_FIELDS), json_cells | st.lists(json_cells, max_size=6)).map(
    lambda damage: damage[0].to_stored() | {damage[1]: damage[2]}
)


def test_to_state_has_exactly_the_documented_keys():
    game = Game.new(seed=11)
    state = game.to_state()
    assert set(state) == {"board", "score", "won", "over", "keep_playing", "moves", "size", "goal"}
    assert [len(row) for row in state["board"]] == [4, 4, 4, 4] and (state["size"], state["goal"]) == (4, 2048)


def test_a_stored_game_leaves_out_what_is_at_its_default_and_stays_small():
    game = PlayedGame.new(seed=11, seed_chosen=True)
    assert game.to_stored() == {
        "board": f"{game.board:x}",
        "score": 0,
        "won": False,
        "keep_playing": False,
        "moves": 0,
        "seed": 11,
        "seed_chosen": True,
        "start": None,
        "directions": "0:",
        "hints": 0,
        "autoplay": False,
    }
    assert len(json.dumps(game.to_stored())) < 300


def test_a_stored_game_of_another_size_and_a_days_game_say_so():
    assert PlayedGame.new(seed=11, variant=VARIANTS[6]).to_stored()["size"] == 6
    stored = PlayedGame.new(seed=11, day="2026-12-05", ranked=True).to_stored()
    assert (stored["daily"], stored["ranked"]) == ("2026-12-05", True) and "day" not in stored


@unhurried
@given(games())
def test_states_and_stored_games_round_trip(game):
    state = Game.to_state(game)  # the engine's state: a day's game adds its day, which no state takes
    restored = Game.from_state(state, game.seed)
    assert (restored.to_state(), restored.seed, restored.start) == (state, game.seed, game.start_state())
    assert restored.variant == game.variant
    assert PlayedGame.from_stored(game.to_stored()) == game
    assert PlayedGame.from_stored(json.loads(json.dumps(game.to_stored()))) == game
    assert check_stored(json.loads(json.dumps(game.to_stored()))) == game


@pytest.mark.parametrize("board", ["", "xyz", "0", "1" + "0" * 20, "-5"])
def test_a_stored_board_that_is_not_a_packed_board_is_refused_on_its_way_in(board):
    with pytest.raises(InvalidState):
        check_stored({**PlayedGame.new(seed=11).to_stored(), "board": board})


def test_a_session_entry_that_is_no_stored_game_is_refused():
    """What a session holds is read without a check of each cell, but what is not a stored game at all
    (its board not even hexadecimal) is refused, not a crash."""
    with pytest.raises(InvalidState):
        PlayedGame.from_stored({**PlayedGame.new(seed=11).to_stored(), "board": "xyz"})


@pytest.mark.parametrize("name", ["hints", "restores", "undos"])
def test_a_count_beyond_what_json_carries_exactly_is_refused_on_its_way_in(name):
    """The server's own counts stay within 2**53 - 1, as every count a page reads."""
    stored = PlayedGame.new(seed=11).to_stored()
    assert getattr(check_stored(stored | {name: 2**53 - 1}), name) == 2**53 - 1
    with pytest.raises(InvalidState, match=name):
        check_stored(stored | {name: 2**53})


def test_over_is_recomputed_not_trusted():
    assert Game.from_state(valid_state(over=True), seed=1).over is False
    full = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
    assert Game.from_state(valid_state(board=full, won=False, over=False), seed=1).over is True


THREE = [[2, 0, 0], [0, 0, 0], [0, 0, 4]]


@pytest.mark.parametrize(
    "state, message",
    [
        (with_cell(True), "cell (1, 2)"),
        (with_cell(False), "cell (1, 2)"),
        (with_cell(2.0), "cell (1, 2)"),
        (with_cell(3), "got 3"),
        (with_cell(1), "cell (1, 2)"),
        (with_cell(262144), "got 262144"),
        (with_cell(-2), "cell (1, 2)"),
        (with_cell("2"), "cell (1, 2)"),
        (with_cell(None), "cell (1, 2)"),
        (with_cell(10**5000), "too long to show"),
        (with_cell("x" * 10_000), "cell (1, 2)"),
        (valid_state(board=BOARD[:2]), "3 to 8 rows"),
        (valid_state(board=[[2] * 9] * 9), "3 to 8 rows"),
        (valid_state(board=BOARD[:3]), "row 0 must be a list of 3 cells"),
        (valid_state(board=[*BOARD[:3], [0, 0, 2]]), "row 3"),
        (valid_state(board=[*BOARD[:3], [0, 0, 2, 0, 0]]), "row 3"),
        (valid_state(board=[*BOARD[:3], "2000"]), "row 3"),
        (valid_state(board=tuple(BOARD)), "3 to 8 rows"),
        (valid_state(board=[[0] * 4] * 4), "at least one tile"),
        (valid_state(board=[[2048, 0, 0], [0] * 3, [0] * 3]), "from 2 to 1024, got 2048"),
        (valid_state(board=[[512, 0, 0], [0] * 3, [0] * 3], won=False), "512"),
        (valid_state(board=THREE, size=4), "size must be 3"),
        (valid_state(board=THREE, goal=2048), "goal must be 512"),
        (valid_state(size=6), "size must be 4"),
        (valid_state(score=-1), "score"),
        (valid_state(score=1.5), "score"),
        (valid_state(score=True), "score"),
        (valid_state(score=CLASSIC.max_score + 1), "score"),
        (valid_state(board=THREE, score=VARIANTS[3].max_score + 1), "score"),
        (valid_state(score=-(10**5000)), "score"),
        (valid_state(moves=-3), "moves"),
        (valid_state(moves="4"), "moves"),
        (valid_state(board=THREE, moves=VARIANTS[3].max_moves + 1), "moves"),
        (valid_state(won=1), "won"),
        (valid_state(won=None), "won"),
        (valid_state(keep_playing=0), "keep_playing"),
        (valid_state(won=False, keep_playing=True), "keep_playing"),
        (valid_state(won=False), "2048"),
        (valid_state(over="no"), "over"),
        (valid_state(extra=1), "unexpected keys: 'extra'"),
        (valid_state(seed=1), "unexpected keys: 'seed'"),
        ({"board": BOARD, "score": 0, "won": False, "moves": 0}, "missing keys: keep_playing"),
        ([], "object"),
        (None, "object"),
    ],
)
def test_bad_states_are_refused_with_a_reason(state, message):
    with pytest.raises(InvalidState) as refused:
        Game.from_state(state, seed=1)
    assert message in str(refused.value)
    assert len(str(refused.value)) < 150


@pytest.mark.parametrize("size", SIZES)
def test_a_state_of_every_size_is_taken_with_its_size_and_goal(size):
    variant = VARIANTS[size]
    board = [[0] * size for _ in range(size)]
    board[-1][-1] = variant.max_tile
    state = {"board": board, "score": 4, "won": True, "keep_playing": True, "moves": 3, "size": size}
    game = Game.from_state(state | {"goal": variant.goal, "over": False}, seed=1)
    assert game.variant == variant and game.to_state() == state | {"goal": variant.goal, "over": False}


@pytest.mark.parametrize("seed", [-1, 2**63, True, 1.0, "1", None])
def test_bad_seeds_are_refused(seed):
    with pytest.raises(InvalidState, match="seed"):
        PlayedGame.from_stored(PlayedGame.new(seed=1).to_stored() | {"seed": seed})
    with pytest.raises(InvalidState, match="seed"):
        Game.from_state(valid_state(), seed=seed)
    with pytest.raises(InvalidState, match="seed"):
        Game.new(seed=seed)


def test_a_stored_game_needs_its_seed():
    stored = PlayedGame.new(seed=2**63 - 1).to_stored()
    assert PlayedGame.from_stored(stored).seed == 2**63 - 1
    del stored["seed"]
    with pytest.raises(InvalidState, match="seed"):
        PlayedGame.from_stored(stored)


@unhurried
@given(json_values | near_states | near_stored)
def test_any_json_is_a_game_or_invalid_state(value):
    try:
        game = Game.from_state(value, seed=1)
    except InvalidState as error:
        assert str(error)
    else:
        assert Game.from_state(game.to_state(), seed=1) == game
    try:
        played = check_stored(value)
    except InvalidState as error:
        assert str(error)
    else:
        assert PlayedGame.from_stored(played.to_stored()) == played == check_stored(played.to_stored())
        counts = ("board", "score", "moves", "seed", "hints", "undos", "restores")
        assert all(type(getattr(played, name)) is int for name in counts)
        assert all(type(getattr(played, name)) is bool for name in ("won", "keep_playing", "autoplay", "ranked"))
        assert all(type(count) is int for _board, count, *_flags, moves in played.earlier for count in (count, moves))
