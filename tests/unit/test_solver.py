import json
import math
import random
from time import perf_counter

import pytest
from numba import njit

from app.engine import CLASSIC, DIRECTIONS, GameFinished, empty_cells, pack, spawn, start_board, symmetries, unpack
from app.engine.board import exponent_grid
from app.engine.sliding import SLIDES, valid_moves
from app.solver import NoValidMove, Solver, Weights, layout, search
from app.solver.heuristic import build_table
from app.solver.layout import BITS, TOP
from app.solver.solver import depth_limit


# The search's private pieces, compiled on their own so the tests can call them one at a time.
@njit(cache=True)
def compiled_slide(x, direction):
    return search._slide(x, direction)


@njit(cache=True)
def compiled_evaluate(x, lines):
    return search._evaluate(x, lines)


def from_search(value):
    """The engine's packed board of a board in the search's layout."""
    value &= (1 << 64) - 1
    return sum((value >> (BITS * i) & TOP) << shift for i, shift in enumerate(CLASSIC.shifts))


def evaluate(table, board):
    """Sum of the table over an engine board's rows and columns, in plain Python: the reference."""
    grid = exponent_grid(board, CLASSIC)
    lines = grid + [list(column) for column in zip(*grid, strict=True)]
    return sum(table[sum(min(e, TOP) << (BITS * i) for i, e in enumerate(line))] for line in lines)


@pytest.fixture(scope="module")
def solver():
    """A solver whose machine code is loaded, as a worker's is before its first hint (timings hold alone too)."""
    solver = Solver()
    solver.suggest(MID_GAME[0], budget_ms=1)
    return solver


def random_play_boards(seed: int, games: int = 25) -> list[int]:
    """Every board met while playing random games to the end (mid-game to nearly full)."""
    rng = random.Random(seed)
    boards = []
    for _ in range(games):
        board = start_board(rng, CLASSIC)
        while moves := valid_moves(board):
            boards.append(board)
            board, _, _ = spawn(SLIDES[rng.choice(moves)](board), rng, CLASSIC)
    return boards


BOARDS = random_play_boards(2048)
MID_GAME = random.Random(1).sample(BOARDS, 25)
NEARLY_FULL = [b for b in BOARDS if len(empty_cells(b, CLASSIC)) <= 1][:25]
ONE_MOVE = sorted(
    symmetric
    for board in [b for b in BOARDS if len(valid_moves(b)) == 1]
    + [pack([[2, 0, 0, 0], [4, 0, 0, 0], [8, 0, 0, 0], [16, 0, 0, 0]])]
    + [pack([[2, 4, 8, 16], [4, 8, 16, 32], [0, 0, 0, 0], [0, 0, 0, 0]])]
    for symmetric in symmetries(board, CLASSIC)
)
DEAD = pack([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])


def plain_expectimax(table, loss, board, depth):
    """The textbook recursion, for checking the fast one: every cell, both tiles, no cut."""
    if depth == 0:
        return evaluate(table, board)
    total = 0.0
    cells = empty_cells(board, CLASSIC)
    for r, c in cells:
        for exponent, weight in ((1, 0.9), (2, 0.1)):
            spawned = board | exponent << (5 * (4 * r + c))
            children = [SLIDES[d](spawned) for d in DIRECTIONS if SLIDES[d](spawned) != spawned]
            best = max((plain_expectimax(table, loss, child, depth - 1) for child in children), default=-loss)
            total += weight * best
    return total / len(cells)


def test_samples_cover_each_kind_of_position():
    assert len(MID_GAME) == 25 and len(NEARLY_FULL) == 25 and len(ONE_MOVE) >= 12
    assert all(len(valid_moves(board)) == 1 for board in ONE_MOVE)


@pytest.mark.parametrize("board", MID_GAME + NEARLY_FULL + ONE_MOVE)
def test_suggestion_is_a_valid_move_with_a_score_per_valid_move(solver, board):
    suggestion = solver.suggest(board, budget_ms=10)
    assert SLIDES[suggestion.direction](board) != board
    assert set(suggestion.scores) == set(valid_moves(board))
    assert suggestion.depth >= 1


@pytest.mark.parametrize("board", [b for b in MID_GAME if depth_limit(b) == 3][:5])
def test_with_time_for_every_pass_the_move_is_the_deepest_passs_best(board):
    suggestion = Solver().suggest(board, budget_ms=math.inf)
    assert suggestion.depth == depth_limit(board) + 1
    assert suggestion.scores[suggestion.direction] == max(suggestion.scores.values())


@pytest.mark.parametrize("board", ONE_MOVE)
def test_the_only_valid_move_is_suggested(solver, board):
    assert solver.suggest(board, budget_ms=5).direction == valid_moves(board)[0]


def test_board_without_a_move_raises(solver):
    with pytest.raises(NoValidMove, match="no move"):
        solver.suggest(DEAD)
    assert issubclass(NoValidMove, GameFinished)


def test_small_budget_is_respected(solver):
    for board in NEARLY_FULL[:10] + MID_GAME[:10]:
        assert solver.suggest(board, budget_ms=20).ms < 400


def test_a_budget_spent_before_the_search_began_gets_the_first_look_at_once(solver):
    board = NEARLY_FULL[0]
    suggestion = solver.suggest(board, budget_ms=100, started=perf_counter() - 1)
    assert suggestion.depth == 1 and 1000 <= suggestion.ms < 1100
    assert suggestion.direction in valid_moves(board)


def test_bigger_budget_searches_deeper(solver):
    board = MID_GAME[0]
    assert solver.suggest(board, budget_ms=300).depth >= 2


def test_depth_follows_nneonneos_rule_distinct_tiles_less_two_at_least_three():
    tiles = [2**k for k in range(1, 13)]
    open_board = pack([tiles[8:12], tiles[4:8], [0] * 4, [0] * 4])
    tight_board = pack([tiles[8:12], tiles[4:8], tiles[0:4], [2, 0, 0, 0]])
    assert depth_limit(pack([[2, 4, 0, 0]] + [[0] * 4] * 3)) == 3
    assert depth_limit(open_board) == 6
    assert depth_limit(tight_board) == 10


def test_compiled_slides_equal_the_engines_moves():
    top_row = pack([[16384, 16384, 32768, 0]] + [[0] * 4] * 3)
    raised = [b << 20 & (1 << 80) - 1 | top_row for b in BOARDS[::50]]  # the top of the search's layout
    for board in BOARDS[::7] + raised:
        packed = layout.to_search(board)
        assert from_search(packed) == board
        for index, direction in enumerate(DIRECTIONS):
            assert from_search(compiled_slide(packed, index)) == SLIDES[direction](board)


def test_the_search_sees_tiles_above_32768_as_32768():
    board = pack([[65536, 32768, 32768, 4]] + [[0] * 4] * 3)
    assert from_search(layout.to_search(board)) == pack([[32768, 32768, 32768, 4]] + [[0] * 4] * 3)
    merged = from_search(compiled_slide(layout.to_search(board), DIRECTIONS.index("left")))
    assert unpack(merged, CLASSIC)[0] == [32768, 32768, 4, 0]  # 32768 + 32768 stays 32768 in its view


def test_only_moves_the_engine_allows_are_suggested_above_32768(solver):
    """Seen as 32768, a 65536 would merge with its 32768 neighbour: the engine says no."""
    rows = [[65536, 32768, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
    with pytest.raises(NoValidMove):
        solver.suggest(pack(rows))
    rows[3][3] = 0
    suggestion = solver.suggest(pack(rows), budget_ms=5)
    assert set(suggestion.scores) == set(valid_moves(pack(rows))) == {"down", "right"}


def test_compiled_evaluation_equals_the_plain_one():
    table = build_table(Weights())
    for board in BOARDS[::40]:
        assert compiled_evaluate(layout.to_search(board), table) == pytest.approx(evaluate(table, board))


def test_evaluation_is_the_same_for_a_board_turned_and_mirrored():
    table = build_table(Weights())
    for board in MID_GAME:
        for symmetric in symmetries(board, CLASSIC):
            assert evaluate(table, symmetric) == pytest.approx(evaluate(table, board))


def pinned_boards():
    """Depth 1 on every sampled board; depth 2 (slow in plain Python) where few cells are empty."""
    boards = MID_GAME + NEARLY_FULL
    return [(b, 1) for b in boards] + [(b, 2) for b in boards if len(empty_cells(b, CLASSIC)) <= 5]


@pytest.mark.parametrize(("board", "spawns"), pinned_boards())
def test_search_without_cut_equals_plain_expectimax(board, spawns):
    weights = Weights()
    table = build_table(weights)
    scores, _ = Solver(weights, cut=0.0).score(board, spawns)
    for index, direction in enumerate(DIRECTIONS):
        child = SLIDES[direction](board)
        if child == board:
            assert math.isnan(scores[index])
        else:
            assert scores[index] == pytest.approx(plain_expectimax(table, weights.loss, child, spawns))


def test_the_table_answers_a_repeated_search_but_not_a_deeper_one():
    board = MID_GAME[2]
    deeper, _ = Solver(cut=0.0).score(board, 2)
    kept = Solver(cut=0.0)
    kept.score(board, 1)
    assert list(kept.score(board, 2)[0]) == pytest.approx(list(deeper), nan_ok=True)
    visited = kept.state[search.NODES]
    kept.score(board, 2)
    assert kept.state[search.NODES] == visited  # every child answered from the table


def test_a_search_past_its_deadline_is_abandoned():
    tight = Solver()
    board = max(NEARLY_FULL, key=depth_limit)
    scores, finished = tight.score(board, 8, deadline=0.0)
    assert not finished and all(map(math.isnan, scores))
    assert tight.score(board, 1)[1]


def test_a_pass_cut_off_by_the_deadline_keeps_the_moves_it_finished():
    board = next(b for b in MID_GAME if len(valid_moves(b)) >= 3)
    full, _ = Solver().score(board, 1)
    order = [d for d in reversed(range(len(DIRECTIONS))) if not math.isnan(full[d])]
    cut_short = Solver()
    # One spawn deep, each move is one chance node: the clock is next read on the second move's.
    cut_short.state[search.NODES] = search.CLOCK_EVERY - 1
    scores, finished = cut_short.score(board, 1, deadline=0.0, order=order)
    assert not finished
    assert scores[order[0]] == full[order[0]]
    assert all(math.isnan(scores[d]) for d in order[1:])


def test_to_dict_has_the_documented_fields(solver):
    answer = solver.suggest(MID_GAME[1], budget_ms=5).to_dict()
    assert set(answer) == {"direction", "scores", "depth", "ms"}
    json.dumps(answer)
