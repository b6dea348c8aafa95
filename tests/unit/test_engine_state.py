"""Game states as JSON: exact shape, round trips and strict validation."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import CLASSIC, Game, InvalidState, check_stored, pack
from app.engine.game import OPTIONAL_STORED_KEYS, REQUIRED_STORED_KEYS

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


tile_values = st.one_of(st.just(0), st.integers(1, 17).map(lambda k: 1 << k))
tile_grids = st.lists(st.lists(tile_values, min_size=4, max_size=4), min_size=4, max_size=4).filter(
    lambda grid: any(map(any, grid))
)


@st.composite
def games(draw):
    grid = draw(tile_grids)
    big = max(map(max, grid)) >= 2048
    won = big or draw(st.booleans())
    return Game(
        board=pack(grid),
        score=draw(st.integers(0, CLASSIC.max_score)),
        won=won,
        keep_playing=won and draw(st.booleans()),
        moves=draw(st.integers(0, CLASSIC.max_moves)),
        seed=draw(st.integers(0, 2**63 - 1)),
    )


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner, max_size=5),
    max_leaves=25,
)
json_cells = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3)
near_boards = st.lists(st.lists(json_cells, min_size=3, max_size=5), min_size=3, max_size=5)
near_states = st.fixed_dictionaries(
    {
        "board": near_boards | json_values,
        "score": json_cells,
        "won": json_cells,
        "keep_playing": json_cells,
        "moves": json_cells,
    },
    optional={"over": json_cells, "seed": json_cells},
)

# Stored games with one field damaged: any JSON value in place of one it has, or of an optional one.
STORED_FIELDS = sorted(REQUIRED_STORED_KEYS | OPTIONAL_STORED_KEYS.keys())
near_stored = st.tuples(games(), st.sampled_from(STORED_FIELDS), json_cells | st.lists(json_cells, max_size=6)).map(
    lambda damage: damage[0].to_stored() | {damage[1]: damage[2]}
)


def test_to_state_has_exactly_the_documented_keys():
    game = Game.new(seed=11)
    state = game.to_state()
    assert set(state) == {"board", "score", "won", "over", "keep_playing", "moves"}
    assert [len(row) for row in state["board"]] == [4, 4, 4, 4]
    assert game.to_stored() == {
        **{key: value for key, value in state.items() if key != "over"},
        "board": f"{game.board:x}",
        "seed": 11,
        "seed_chosen": True,
        "start": None,
        "directions": "0:",
        "hints": 0,
        "autoplay": False,
    }
    assert len(json.dumps(game.to_stored())) < 300


@unhurried
@given(games())
def test_states_and_records_round_trip(game):
    restored = Game.from_state(game.to_state(), game.seed)
    assert (restored.to_state(), restored.seed, restored.start) == (game.to_state(), game.seed, game.start_state())
    assert Game.from_stored(game.to_stored()) == game
    assert Game.from_stored(json.loads(json.dumps(game.to_stored()))) == game


def test_a_game_stored_with_its_board_as_rows_reads_back():
    """Sessions and sealed copies kept before the stored board was packed."""
    game = Game.new(seed=11)
    game.play("left")
    before = {**game.to_stored(), "board": game.to_state()["board"], "over": False}
    assert Game.from_stored(before) == game


def test_a_stored_board_that_is_not_a_packed_board_is_refused():
    for board in ["", "xyz", "0", "1" + "0" * 20, "-5"]:
        with pytest.raises(InvalidState, match="stored board"):
            Game.from_stored({**Game.new(seed=11).to_stored(), "board": board})


def test_over_is_recomputed_not_trusted():
    assert Game.from_state(valid_state(over=True), seed=1).over is False
    full = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
    assert Game.from_state(valid_state(board=full, won=False, over=False), seed=1).over is True


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
        (valid_state(board=BOARD[:3]), "4 rows"),
        (valid_state(board=[*BOARD[:3], [0, 0, 2]]), "row 3"),
        (valid_state(board=[*BOARD[:3], [0, 0, 2, 0, 0]]), "row 3"),
        (valid_state(board=[*BOARD[:3], "2000"]), "row 3"),
        (valid_state(board=tuple(BOARD)), "4 rows"),
        (valid_state(board=[[0] * 4] * 4), "at least one tile"),
        (valid_state(score=-1), "score"),
        (valid_state(score=1.5), "score"),
        (valid_state(score=True), "score"),
        (valid_state(score=2**53), "score"),
        (valid_state(score=-(10**5000)), "score"),
        (valid_state(moves=-3), "moves"),
        (valid_state(moves="4"), "moves"),
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


@pytest.mark.parametrize("seed", [-1, 2**63, True, 1.0, "1", None])
def test_bad_seeds_are_refused(seed):
    with pytest.raises(InvalidState, match="seed"):
        Game.from_stored(valid_state(seed=seed))
    if seed is not None:  # without a seed, new() and from_state() draw one
        with pytest.raises(InvalidState, match="seed"):
            Game.from_state(valid_state(), seed=seed)
        with pytest.raises(InvalidState, match="seed"):
            Game.new(seed=seed)


def test_games_without_a_seed_draw_different_ones():
    seeds = {Game.from_state(valid_state()).seed for _ in range(5)} | {Game.new().seed for _ in range(5)}
    assert len(seeds) == 10 and all(0 <= seed < 2**63 for seed in seeds)


def test_a_record_needs_its_seed():
    with pytest.raises(InvalidState, match="missing keys: seed"):
        Game.from_stored(valid_state())
    assert Game.from_stored(valid_state(seed=2**63 - 1)).seed == 2**63 - 1


@unhurried
@given(json_values | near_states | near_stored)
def test_any_json_is_a_game_or_invalid_state(value):
    for parse in (lambda: Game.from_state(value, seed=1), lambda: Game.from_stored(check_stored(value))):
        try:
            game = parse()
        except InvalidState as error:
            assert str(error)
        else:
            assert Game.from_stored(game.to_stored()) == game
            counts = ("board", "score", "moves", "seed", "hints", "undos")
            assert all(type(getattr(game, name)) is int for name in counts)
            assert all(type(getattr(game, name)) is bool for name in ("won", "keep_playing", "autoplay", "ranked"))
            assert all(type(count) is int for _board, count, *_flags, moves in game.earlier for count in (count, moves))
