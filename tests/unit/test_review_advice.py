"""Which of the strategy page's four mistakes a costly move makes."""

import pytest

from app.engine import CLASSIC, VARIANTS, pack
from app.review import CORNER, FULL, MERGES, TRAPPED, broken_advice, largest_in_corner, trapped_tiles


def test_pulling_the_largest_tile_out_of_its_corner():
    board = pack([[256, 2, 0, 0], [4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    assert broken_advice(board, "right", "up", CLASSIC) == CORNER


def test_walling_in_a_small_tile():
    board = pack([[512, 128, 16, 8], [256, 2, 0, 64], [4, 32, 4, 2], [2, 4, 0, 0]])
    assert broken_advice(board, "left", "up", CLASSIC) == TRAPPED


def test_chasing_a_merge():
    board = pack([[64, 16, 8, 4], [0, 2, 2, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    assert broken_advice(board, "right", "up", CLASSIC) == MERGES


def test_a_careless_move_on_a_nearly_full_board():
    board = pack([[1024, 512, 256, 128], [8, 16, 32, 64], [4, 8, 2, 0], [2, 4, 0, 0]])
    assert broken_advice(board, "down", "left", CLASSIC) == FULL


def test_a_move_that_breaks_no_advice():
    board = pack([[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4], [0, 0, 0, 0]])
    assert broken_advice(board, "down", "up", CLASSIC) is None


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=lambda variant: f"{variant.size}x{variant.size}")
def test_pulling_the_largest_tile_out_of_its_corner_on_every_size(variant):
    grid = [[0] * variant.size for _ in range(variant.size)]
    grid[0][0], grid[0][1], grid[1][0] = 256, 2, 4
    assert broken_advice(pack(grid), "right", "up", variant) == CORNER
    assert largest_in_corner(pack(grid), variant)


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=lambda variant: f"{variant.size}x{variant.size}")
def test_the_far_corners_of_every_size_are_corners(variant):
    last = variant.size - 1
    for r, c in ((0, last), (last, 0), (last, last)):
        grid = [[2] * variant.size for _ in range(variant.size)]
        grid[r][c] = 64
        assert largest_in_corner(pack(grid), variant)
    grid = [[2] * variant.size for _ in range(variant.size)]
    grid[1][last] = 64
    assert not largest_in_corner(pack(grid), variant)


def test_small_tiles_walled_in_are_counted_up_to_the_edges_of_a_6x6_board():
    variant = VARIANTS[6]
    grid = [[0] * 6 for _ in range(6)]
    grid[2][3], grid[1][3], grid[3][3], grid[2][2], grid[2][4] = 2, 16, 16, 16, 16  # walled in on four sides
    grid[5][5], grid[4][5], grid[5][4] = 4, 32, 64  # walled in its far corner
    grid[0][0], grid[0][1], grid[1][0] = 2, 16, 8  # one neighbour only four times larger: free
    assert trapped_tiles(pack(grid), variant) == 2


def test_a_careless_move_on_a_nearly_full_8x8_board():
    variant = VARIANTS[8]
    grid = [[2 << (r + c) % 2 for c in range(8)] for r in range(8)]
    grid[7][5:] = [0, 0, 0]
    assert broken_advice(pack(grid), "down", "left", variant) == FULL
    grid[6][5:] = [0, 0, 0]  # six cells free: no longer nearly full
    assert broken_advice(pack(grid), "down", "left", variant) is None
