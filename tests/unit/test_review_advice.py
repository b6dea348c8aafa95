"""Which of the strategy page's four mistakes a costly move makes."""

from app.engine import pack
from app.review import CORNER, FULL, MERGES, TRAPPED, broken_advice


def test_pulling_the_largest_tile_out_of_its_corner():
    board = pack([[256, 2, 0, 0], [4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    assert broken_advice(board, "right", "up") == CORNER


def test_walling_in_a_small_tile():
    board = pack([[512, 128, 16, 8], [256, 2, 0, 64], [4, 32, 4, 2], [2, 4, 0, 0]])
    assert broken_advice(board, "left", "up") == TRAPPED


def test_chasing_a_merge():
    board = pack([[64, 16, 8, 4], [0, 2, 2, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    assert broken_advice(board, "right", "up") == MERGES


def test_a_careless_move_on_a_nearly_full_board():
    board = pack([[1024, 512, 256, 128], [8, 16, 32, 64], [4, 8, 2, 0], [2, 4, 0, 0]])
    assert broken_advice(board, "down", "left") == FULL


def test_a_move_that_breaks_no_advice():
    board = pack([[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4], [0, 0, 0, 0]])
    assert broken_advice(board, "down", "up") is None
