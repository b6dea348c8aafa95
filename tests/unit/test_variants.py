"""The same official rules on every board size, 3x3 to 8x8: each size's bounds, both kernels held to
rules.slide_line, spawns, free invalid moves, the end only when stuck, the goal of each size, and a
game of another size through its history and its stored form."""

import copy
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import (
    CLASSIC,
    DIRECTIONS,
    SIZES,
    VARIANTS,
    Game,
    GameFinished,
    InvalidState,
    kernel_for,
    max_tile,
    pack,
    slide_line,
    slide_tiles,
    spawn,
    start_board,
    symmetries,
    unpack,
    variant_of,
)
from app.engine.board import exponent_grid, from_exponent_grid
from app.engine.general import GeneralKernel
from app.engine.history import Directions, tiles_from_text, tiles_text
from app.games.played import PlayedGame, check_stored

# Other work shares these machines: judge results, not timing.
unhurried = settings(deadline=None)

ALL = list(VARIANTS.values())
by_size = pytest.mark.parametrize("variant", ALL, ids=lambda variant: f"{variant.size}x{variant.size}")
JSON_EXACT = 2**53 - 1


@st.composite
def boards(draw, variant=None):
    """(variant, board): mostly empty cells and small tiles, so that merges are common; sometimes any
    tile of the ladder, sometimes a full board, where games end."""
    variant = variant or draw(st.sampled_from(ALL))
    exponent = draw(
        st.sampled_from(
            [
                st.one_of(st.just(0), st.integers(1, 3)),
                st.one_of(st.just(0), st.integers(1, 3), st.integers(0, variant.max_exponent)),
                st.integers(1, 4),
            ]
        )
    )
    grid = draw(st.lists(st.lists(exponent, min_size=variant.size, max_size=variant.size), min_size=variant.size,
                         max_size=variant.size))  # fmt: skip
    return variant, from_exponent_grid(grid, variant)


directions = st.sampled_from(DIRECTIONS)


def lines_towards(grid, direction):
    """The lines of a square grid, each listed from the edge a move in ``direction`` goes to."""
    if direction in ("up", "down"):
        grid = [list(column) for column in zip(*grid, strict=True)]
    if direction in ("right", "down"):
        grid = [row[::-1] for row in grid]
    return grid


def grid_of_lines(lines, direction):
    """lines_towards undone: the grid the lines were read from."""
    if direction in ("right", "down"):
        lines = [line[::-1] for line in lines]
    if direction in ("up", "down"):
        lines = [list(column) for column in zip(*lines, strict=True)]
    return lines


def empty_grid(variant):
    return [[0] * variant.size for _ in range(variant.size)]


def no_pairs(variant):
    """A full board of 2s and 4s, no two equal neighbours."""
    return [[2 << (r + c) % 2 for c in range(variant.size)] for r in range(variant.size)]


# -- Each size's bounds ------------------------------------------------------------------------------


@by_size
def test_every_bound_of_a_variant_follows_from_its_side(variant):
    assert variant.cells == variant.size**2 and variant.max_exponent == variant.cells + 1
    assert variant.max_tile == 2**variant.max_exponent
    assert 2 ** (variant.cell_bits - 1) <= variant.max_exponent < 2**variant.cell_bits  # the fewest bits that hold it
    assert variant.shifts == tuple(range(0, variant.cell_bits * variant.cells, variant.cell_bits))
    assert variant.goal <= variant.max_tile // 2  # the goal is within reach, below the top of the ladder
    assert all(0 < bound <= JSON_EXACT for bound in (variant.max_score, variant.max_moves, variant.max_directions))
    assert variant_of(variant.size) is variant


@by_size
def test_the_top_of_the_ladder_fits_a_cell_and_two_never_merge(variant):
    grid = empty_grid(variant)
    grid[0][0] = grid[0][1] = variant.max_tile
    grid[-1][0] = 2
    board = pack(grid)
    assert unpack(board, variant) == grid and max_tile(board, variant) == variant.max_tile
    top = variant.max_exponent
    assert slide_line((top, top) + (0,) * (variant.size - 2), top).gained == 0
    assert kernel_for(variant).move(board, "left") == (board, 0)


def test_the_classic_bounds_are_those_of_the_classic_game():
    assert (CLASSIC.size, CLASSIC.goal, CLASSIC.max_tile, CLASSIC.cell_bits) == (4, 2048, 131072, 5)
    assert CLASSIC.max_score == sum((k - 1) * 2**k for k in range(2, 18))
    assert (CLASSIC.max_moves, CLASSIC.max_directions) == (131072, 16 * 131072 // 2)


def test_the_goal_is_2048_from_4x4_up_and_512_on_3x3():
    assert {size: variant.goal for size, variant in VARIANTS.items()} == {
        3: 512, 4: 2048, 5: 2048, 6: 2048, 7: 2048, 8: 2048
    }  # fmt: skip
    assert SIZES == (3, 4, 5, 6, 7, 8) and VARIANTS[4] is CLASSIC


@pytest.mark.parametrize("size", [2, 9, 0, -4, "4", 4.0, True, None])
def test_no_other_size_has_a_variant(size):
    with pytest.raises(InvalidState, match="size"):
        variant_of(size)


# -- Both kernels against the readable rule ----------------------------------------------------------


@unhurried
@given(boards(), directions)
def test_the_general_kernel_slides_every_line_as_slide_line_says(variant_board, direction):
    variant, board = variant_board
    top = variant.max_exponent
    slides = [slide_line(tuple(line), top) for line in lines_towards(exponent_grid(board, variant), direction)]
    expected = from_exponent_grid(grid_of_lines([list(s.cells) for s in slides], direction), variant)
    assert GeneralKernel(variant).move(board, direction) == (expected, sum(s.gained for s in slides))


@unhurried
@given(boards(CLASSIC), directions)
def test_the_classic_fast_kernel_plays_as_the_general_kernel_on_4x4(variant_board, direction):
    _, board = variant_board
    fast, general = kernel_for(CLASSIC), GeneralKernel(CLASSIC)
    assert type(fast) is not GeneralKernel, "the classic 4x4 keeps its packed kernel"
    assert fast.move(board, direction) == general.move(board, direction)
    assert fast.valid_moves(board) == general.valid_moves(board)
    assert fast.is_over(board) == general.is_over(board)


@by_size
def test_every_size_but_the_classic_plays_on_the_general_kernel(variant):
    assert isinstance(kernel_for(variant), GeneralKernel) is (variant != CLASSIC)
    assert kernel_for(variant) is kernel_for(variant), "one kernel a variant, its lines kept"


@unhurried
@given(boards())
def test_a_game_is_over_exactly_when_no_move_changes_its_board(variant_board):
    variant, board = variant_board
    kernel = kernel_for(variant)
    moving = [d for d in DIRECTIONS if kernel.move(board, d)[0] != board]
    assert kernel.valid_moves(board) == moving
    if board:  # the empty board is neither over nor movable
        assert kernel.is_over(board) == (not moving)


@unhurried
@given(boards(), directions)
def test_a_move_keeps_the_sum_of_the_tiles_and_scores_its_merges(variant_board, direction):
    variant, board = variant_board
    moved, gained = kernel_for(variant).move(board, direction)
    tiles = slide_tiles(board, direction, variant)
    assert sum(map(sum, unpack(moved, variant))) == sum(map(sum, unpack(board, variant)))
    grid = empty_grid(variant)
    for tile in tiles:
        grid[tile["row"]][tile["col"]] = tile["value"]
        assert sum(unpack(board, variant)[r][c] for r, c in tile["from"]) == tile["value"]
    assert (pack(grid, variant) if tiles else 0) == moved
    assert gained == sum(tile["value"] for tile in tiles if len(tile["from"]) == 2)


@unhurried
@given(boards())
def test_a_move_on_a_board_turned_or_mirrored_is_the_same_move_turned_or_mirrored(variant_board):
    variant, board = variant_board
    move = kernel_for(variant).move
    mirror = from_exponent_grid([row[::-1] for row in exponent_grid(board, variant)], variant)
    mirrored_right = from_exponent_grid([row[::-1] for row in exponent_grid(move(board, "right")[0], variant)], variant)
    assert move(mirror, "left") == (mirrored_right, move(board, "right")[1])
    forms = symmetries(board, variant)
    assert {board, mirror} <= forms and len(forms) <= 8
    assert all(symmetries(form, variant) == forms for form in forms)


# -- Spawns ------------------------------------------------------------------------------------------


@by_size
def test_new_tiles_are_2_nine_times_in_ten_on_any_empty_cell(variant):
    rng = random.Random(variant.size)
    grid = no_pairs(variant)
    free = {(0, 0), (variant.size - 1, variant.size - 1), (1, variant.size - 2)}
    for r, c in free:
        grid[r][c] = 0
    board = pack(grid)
    spawned = [spawn(board, rng, variant) for _ in range(6000)]
    values = Counter(value for _board, _cell, value in spawned)
    cells = Counter(cell for _board, cell, _value in spawned)
    assert set(values) == {2, 4} and 0.08 < values[4] / len(spawned) < 0.12
    assert set(cells) == free and min(cells.values()) > 1700  # about 2000 each: the cell is drawn evenly
    assert all(unpack(after, variant)[r][c] == value for after, (r, c), value in spawned[:50])


@by_size
def test_a_new_game_of_every_size_starts_with_two_tiles_of_2_or_4(variant):
    for seed in range(20):
        tiles = [v for row in unpack(start_board(random.Random(seed), variant), variant) for v in row if v]
        assert len(tiles) == 2 and set(tiles) <= {2, 4}
    state = Game.new(seed=4, variant=variant).to_state()
    assert (state["size"], state["goal"], len(state["board"])) == (variant.size, variant.goal, variant.size)
    assert {len(row) for row in state["board"]} == {variant.size}


@by_size
def test_a_full_board_takes_no_tile(variant):
    with pytest.raises(ValueError):
        spawn(pack(no_pairs(variant)), random.Random(0), variant)


# -- A game's rules on every size ----------------------------------------------------------------------


@by_size
def test_an_invalid_move_is_free(variant):
    """Nothing moves, so nothing changes: no tile, no point, no move counted, no direction kept."""
    grid = empty_grid(variant)
    grid[0][0], grid[1][0], grid[0][1] = 2, 4, 8
    game = Game(board=pack(grid), variant=variant, seed=3, score=40, moves=6)
    before = copy.deepcopy(game)
    for direction in ("left", "up"):
        outcome = game.play(direction)
        assert not outcome.moved and outcome.gained == 0 and outcome.spawned is None
        assert game == before and len(game.directions) == 0
    outcome = game.play("right")
    assert outcome.moved and game.moves == 7 and len(game.directions) == 1
    assert sum(v != 0 for row in unpack(game.board, variant) for v in row) == 4, "a valid move brings one tile"


@by_size
def test_the_game_ends_only_when_no_move_is_left(variant):
    stuck = Game(board=pack(no_pairs(variant)), variant=variant, seed=1, moves=9)
    assert stuck.over and stuck.to_state()["over"]
    for direction in DIRECTIONS:
        with pytest.raises(GameFinished):
            stuck.play(direction)
    assert stuck.moves == 9
    last = variant.size - 1
    one_pair = no_pairs(variant)
    one_pair[last][last] = one_pair[last][last - 1]  # a pair on the board's far edge
    one_empty = no_pairs(variant)
    one_empty[last][0] = 0
    for grid in (one_pair, one_empty):
        game = Game(board=pack(grid), variant=variant, seed=1)
        assert not game.over and kernel_for(variant).valid_moves(game.board)


@by_size
def test_the_goal_of_each_size_wins_and_waits_for_keep_playing(variant):
    grid = empty_grid(variant)
    grid[0][0] = grid[0][1] = variant.goal // 2
    game = Game(board=pack(grid), variant=variant, seed=2)
    short = Game(board=pack([[v // 2 for v in row] for row in grid]), variant=variant, seed=2)
    assert short.play("left").moved and not short.won, "half the goal does not win"
    outcome = game.play("left")
    assert outcome.gained == variant.goal and game.won and game.finished and not game.over
    with pytest.raises(GameFinished, match=str(variant.goal)):
        game.play("right")
    game.choose_keep_playing()
    assert game.play("right").moved and game.won and game.keep_playing


def test_a_3x3_game_is_won_at_512_and_a_5x5_one_is_not():
    three = Game(board=pack([[256, 256, 0], [0, 0, 0], [0, 0, 2]]), variant=VARIANTS[3], seed=1)
    five = Game(board=pack([[256, 256, 0, 0, 0], *[[0] * 5] * 4]), variant=VARIANTS[5], seed=1)
    three.play("left")
    five.play("left")
    assert three.won and three.finished and not five.won


@by_size
def test_random_games_of_every_size_obey_the_rules_to_their_end(variant):
    """A whole game (or its first 600 moves) of random directions: every move slides as the kernel
    says and brings one tile, the score grows by what the moves gained, and the game stops only when
    stuck."""
    rng, game = random.Random(variant.size), Game.new(seed=variant.size, variant=variant)
    kernel, gained = kernel_for(variant), 0
    while game.moves < 600 and not game.over:
        if game.finished:
            game.choose_keep_playing()
        direction, before = rng.choice(DIRECTIONS), game.board
        slid, points = kernel.move(before, direction)
        outcome = game.play(direction)
        assert outcome.moved == (slid != before)
        if outcome.moved:
            row, col, value = outcome.spawned
            assert game.board == pack(
                [[value if (r, c) == (row, col) else v for c, v in enumerate(line)]
                 for r, line in enumerate(unpack(slid, variant))], variant)  # fmt: skip
            assert outcome.gained == points
            gained += points
    assert game.score == gained and len(game.directions) == game.moves > 10
    assert game.over == (not kernel.valid_moves(game.board))
    assert Game.replay(game.seed, None, game.directions, variant).board == game.board


# -- Histories and stored forms of every size ------------------------------------------------------------


@by_size
@unhurried
@given(data=st.data())
def test_tiles_text_round_trips_on_every_size(variant, data):
    codes = bytes(data.draw(st.lists(st.integers(0, 2 * variant.cells - 1), max_size=40)))
    text = tiles_text(codes, variant)
    assert tiles_from_text(text, variant) == codes
    assert len(text) == len(codes) * (1 if variant.size <= 4 else 2)
    assert set(text) <= set("0123456789abcdefghijklmnopqrstuv")


@by_size
def test_tiles_text_of_another_form_is_refused(variant):
    width = 1 if variant.size <= 4 else 2
    texts = ["w" * width, "A" * width, "!" * width, 5, None, b"0" * width]
    if 2 * variant.cells < 32**width:  # a code past the variant's cells, still written in its letters
        texts.append(tiles_text(bytes([2 * variant.cells]), variant))
    if width == 2:
        texts.append("0" * 3)  # half a tile
    for text in texts:
        with pytest.raises(InvalidState):
            tiles_from_text(text, variant)


@by_size
def test_a_games_directions_are_bounded_by_its_variant(variant):
    assert len(Directions.from_letters("u" * 1000, variant)) == 1000
    with pytest.raises(InvalidState):
        Directions.from_bytes(b"", variant.max_directions + 1, variant)


def six_by_six_game():
    """A 6x6 game the server began, played 40 moves with a hint, two moves taken back and forked."""
    game, rng = PlayedGame.begin("S" * 16, 606, VARIANTS[6], seed_chosen=False), random.Random(6)
    while game.moves < 40:
        game.play(rng.choice(kernel_for(game.variant).valid_moves(game.board)))
    game.hints, game.fork_of = 1, "F" * 16
    game.undo()
    game.undo()
    return game


def test_a_6x6_game_round_trips_through_its_stored_form():
    game = six_by_six_game()
    stored = json.loads(json.dumps(game.to_stored()))
    assert stored["size"] == 6 and len(stored["earlier"]) == 3
    copy_ = PlayedGame.from_stored(stored)
    assert copy_ == game and copy_.variant == VARIANTS[6]
    assert check_stored(stored) == game
    assert copy_.verified and copy_.helped and copy_.undos == 2
    assert copy_.to_state() == game.to_state() and copy_.to_state()["size"] == 6
    direction = kernel_for(copy_.variant).valid_moves(copy_.board)[0]
    assert copy_.play(direction) == game.play(direction), "the copy draws the same tiles"


def test_a_6x6_stored_board_claimed_as_4x4_is_refused():
    stored = six_by_six_game().to_stored()
    for size in (4, 3):
        with pytest.raises(InvalidState):
            check_stored(stored | {"size": size})


def test_a_6x6_start_claimed_as_another_size_is_refused():
    game = PlayedGame.from_state(PlayedGame.new(seed=1, variant=VARIANTS[6]).start_state(), 1)
    stored = game.to_stored()
    assert check_stored(stored) == game
    with pytest.raises(InvalidState, match="size"):
        check_stored(stored | {"size": 5, "board": f"{PlayedGame.new(seed=1, variant=VARIANTS[5]).board:x}"})


@by_size
def test_a_stored_board_with_a_tile_beyond_its_ladder_is_refused(variant):
    """A sealed copy's board holds only tiles of its variant's ladder, as a state's does."""
    stored = PlayedGame.new(seed=1, variant=variant).to_stored()
    beyond = f"{variant.cell_mask:x}"  # the first cell's bits all set: 2**(2**cell_bits - 1)
    assert variant.cell_mask > variant.max_exponent
    with pytest.raises(InvalidState):
        check_stored(stored | {"board": beyond, "won": True})
