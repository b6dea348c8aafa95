"""The benchmark times the boards it promises: real play plus late-game tiles."""

from app.engine import CLASSIC, empty_cells, max_tile, unpack
from bench.engine import sample_boards


def test_sample_boards_span_early_and_late_game():
    boards = sample_boards(count=400, seed=3)
    assert len(boards) == 400
    assert all(len(empty_cells(board, CLASSIC)) < 16 for board in boards)
    assert all(value <= 131072 for board in boards for row in unpack(board, CLASSIC) for value in row)
    tops = {max_tile(board, CLASSIC) for board in boards}
    assert min(tops) <= 16 and max(tops) >= 16384
