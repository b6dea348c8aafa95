"""Properties of the packed-table moves, checked against the readable rule."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import CLASSIC, DIRECTIONS, pack, slide_line, slide_tiles, symmetries, unpack
from app.engine.board import exponent_grid
from app.engine.sliding import SLIDES, is_over, move, transpose, valid_moves
from app.engine.tables import line_bits

# Other work shares these machines: judge results, not timing.
unhurried = settings(deadline=None)


def grids_of(exponents):
    return st.lists(st.lists(exponents, min_size=4, max_size=4), min_size=4, max_size=4)


# Mostly empty cells and small tiles, so that merges are common; plus full boards,
# where games end.
exponents = st.one_of(st.just(0), st.integers(1, 3), st.integers(0, 17))
grids = grids_of(exponents) | grids_of(st.integers(1, 17))
boards = grids.map(lambda g: pack([[1 << e if e else 0 for e in row] for row in g]))
directions = st.sampled_from(DIRECTIONS)


def reference_move(board: int, direction: str) -> tuple[int, int]:
    """Move computed cell by cell: slide_line on each line of the unpacked grid."""
    grid = exponent_grid(board, CLASSIC)
    if direction in ("up", "down"):
        grid = [list(col) for col in zip(*grid, strict=True)]
    if direction in ("right", "down"):
        grid = [row[::-1] for row in grid]
    slides = [slide_line(tuple(row), CLASSIC.max_exponent) for row in grid]
    result = [list(s.cells) for s in slides]
    if direction in ("right", "down"):
        result = [row[::-1] for row in result]
    if direction in ("up", "down"):
        result = [list(col) for col in zip(*result, strict=True)]
    values = [[1 << e if e else 0 for e in row] for row in result]
    return pack(values), sum(s.gained for s in slides)


def lines_towards(board: int, direction: str) -> list[list[int]]:
    """Lines of a board, each listed from the edge a move in ``direction`` goes to."""
    grid = unpack(board, CLASSIC)
    if direction in ("up", "down"):
        grid = [list(col) for col in zip(*grid, strict=True)]
    if direction in ("right", "down"):
        grid = [row[::-1] for row in grid]
    return grid


def has_equal_neighbours_in_line(line: list[int]) -> bool:
    tiles = [value for value in line if value]
    return any(a == b < 131072 for a, b in itertools.pairwise(tiles))


def mirror(board: int) -> int:
    return pack([row[::-1] for row in unpack(board, CLASSIC)])


def tile_sum(board: int) -> int:
    return sum(map(sum, unpack(board, CLASSIC)))


@unhurried
@given(boards, directions)
def test_table_move_matches_the_readable_rule(board, direction):
    assert move(board, direction) == reference_move(board, direction)
    assert SLIDES[direction](board) == reference_move(board, direction)[0]


def test_every_line_of_the_ladder_moves_and_scores_as_the_rule_says():
    """All 18**4 lines, as a board's first row (left, right) and first column (up, down):
    the row tables give the cells, and the boards' worth the points."""
    for line in itertools.product(range(CLASSIC.max_exponent + 1), repeat=4):
        row, reverse = line_bits(line), line[::-1]
        towards_start, towards_end = slide_line(line, CLASSIC.max_exponent), slide_line(reverse, CLASSIC.max_exponent)
        left = (line_bits(towards_start.cells), towards_start.gained)
        right = (line_bits(towards_end.cells[::-1]), towards_end.gained)
        assert (move(row, "left"), move(row, "right")) == (left, right), line
        column = transpose(row)
        up, down = move(column, "up"), move(column, "down")
        assert (transpose(up[0]), up[1], transpose(down[0]), down[1]) == (*left, *right), line


@unhurried
@given(boards, directions)
def test_animation_tiles_rebuild_the_moved_board(board, direction):
    moved, gained = move(board, direction)
    tiles = slide_tiles(board, direction, CLASSIC)
    grid = [[0] * 4 for _ in range(4)]
    for tile in tiles:
        grid[tile["row"]][tile["col"]] = tile["value"]
        sources = [unpack(board, CLASSIC)[r][c] for r, c in tile["from"]]
        assert sum(sources) == tile["value"]
    assert pack(grid) == moved
    assert gained == sum(t["value"] for t in tiles if len(t["from"]) == 2)


@unhurried
@given(boards, directions)
def test_a_slide_keeps_the_sum_of_tiles(board, direction):
    assert tile_sum(move(board, direction)[0]) == tile_sum(board)


@unhurried
@given(boards)
def test_left_of_mirror_is_mirror_of_right(board):
    assert move(mirror(board), "left") == (mirror(move(board, "right")[0]), move(board, "right")[1])


@unhurried
@given(boards)
def test_transpose_swaps_rows_and_columns(board):
    assert unpack(transpose(board), CLASSIC) == [list(col) for col in zip(*unpack(board, CLASSIC), strict=True)]
    assert transpose(transpose(board)) == board


@unhurried
@given(boards)
def test_a_boards_forms_are_itself_turned_and_mirrored_and_each_has_the_same_forms(board):
    """What a hint asked on a board turned or mirrored counts on (app/games/session.py): the board, its
    mirror and transpose among them, and every form names the same set."""
    forms = symmetries(board, CLASSIC)
    assert {board, mirror(board), transpose(board)} <= forms and len(forms) <= 8
    assert all(symmetries(form, CLASSIC) == forms for form in forms)
    assert {move(form, "left")[1] for form in forms} <= {move(board, direction)[1] for direction in DIRECTIONS}


@unhurried
@given(boards)
def test_vertical_moves_are_transposed_horizontal_moves(board):
    assert SLIDES["up"](board) == transpose(SLIDES["left"](transpose(board)))
    assert SLIDES["down"](board) == transpose(SLIDES["right"](transpose(board)))
    assert move(board, "up")[1] == move(transpose(board), "left")[1]


def tile_count(board: int) -> int:
    return sum(1 for row in unpack(board, CLASSIC) for value in row if value)


@unhurried
@given(boards, directions)
def test_after_a_move_the_same_move_can_only_merge(board, direction):
    # Not "changes nothing": 2 2 4 _ left gives 4 4 _ _, which merges again.
    once, _ = move(board, direction)
    twice, gained = move(once, direction)
    if twice != once:
        assert gained > 0
        assert tile_count(twice) < tile_count(once)
    assert all(line == sorted(line, key=lambda t: not t) for line in lines_towards(once, direction))


@unhurried
@given(boards, directions)
def test_without_equal_neighbours_the_same_move_changes_nothing(board, direction):
    once, _ = move(board, direction)
    if not any(map(has_equal_neighbours_in_line, lines_towards(once, direction))):
        assert move(once, direction) == (once, 0)


def can_move(board):
    """The plain reference: some direction changes the board."""
    return any(move(board, direction)[0] != board for direction in DIRECTIONS)


@unhurried
@given(boards)
def test_over_exactly_when_no_move_is_valid(board):
    if board:  # the empty board is neither over nor movable
        assert is_over(board) == (not can_move(board))
    assert can_move(board) == bool(valid_moves(board))
    assert valid_moves(board) == [d for d in DIRECTIONS if move(board, d)[0] != board]
