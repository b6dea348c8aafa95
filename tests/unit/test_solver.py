import gc
import json
import random
import time

import pytest

from app.engine import (
    DIRECTIONS,
    MOVES,
    GameFinished,
    empty_cells,
    pack,
    spawn,
    start_board,
    transpose,
    unpack,
    valid_moves,
)
from app.solver import NoValidMove, Solver, Weights, bench
from app.solver.heuristic import build_table, evaluate
from app.solver.solver import depth_limit


@pytest.fixture(scope="module")
def solver():
    return Solver()


def random_play_boards(seed: int, games: int = 25) -> list[int]:
    """Every board met while playing random games to the end (mid-game to nearly full)."""
    rng = random.Random(seed)
    boards = []
    for _ in range(games):
        board = start_board(rng)
        while moves := valid_moves(board):
            boards.append(board)
            board, _, _ = spawn(MOVES[rng.choice(moves)](board), rng)
    return boards


def mirror(board: int) -> int:
    return pack([row[::-1] for row in unpack(board)])


def symmetries(board: int) -> set[int]:
    return {board, mirror(board), transpose(board), mirror(transpose(board))}


BOARDS = random_play_boards(2048)
MID_GAME = random.Random(1).sample(BOARDS, 25)
NEARLY_FULL = [b for b in BOARDS if len(empty_cells(b)) <= 1][:25]
ONE_MOVE = sorted(
    symmetric
    for board in [b for b in BOARDS if len(valid_moves(b)) == 1]
    + [pack([[2, 0, 0, 0], [4, 0, 0, 0], [8, 0, 0, 0], [16, 0, 0, 0]])]
    + [pack([[2, 4, 8, 16], [4, 8, 16, 32], [0, 0, 0, 0], [0, 0, 0, 0]])]
    for symmetric in symmetries(board)
)
DEAD = pack([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])


def plain_expectimax(table, loss, board, depth):
    """The textbook recursion, for checking the fast one: every cell, both tiles, no cut."""
    if depth == 0:
        return evaluate(table, board)
    total = 0.0
    cells = empty_cells(board)
    for r, c in cells:
        for exponent, weight in ((1, 0.9), (2, 0.1)):
            spawned = board | exponent << (5 * (4 * r + c))
            children = [MOVES[d](spawned) for d in DIRECTIONS if MOVES[d](spawned) != spawned]
            best = max((plain_expectimax(table, loss, child, depth - 1) for child in children), default=-loss)
            total += weight * best
    return total / len(cells)


def test_samples_cover_each_kind_of_position():
    assert len(MID_GAME) == 25 and len(NEARLY_FULL) == 25 and len(ONE_MOVE) >= 12
    assert all(len(valid_moves(board)) == 1 for board in ONE_MOVE)


@pytest.mark.parametrize("board", MID_GAME + NEARLY_FULL + ONE_MOVE)
def test_suggestion_is_a_valid_move_with_a_score_per_valid_move(solver, board):
    suggestion = solver.suggest(board, budget_ms=10)
    assert MOVES[suggestion.direction](board) != board
    assert set(suggestion.scores) == set(valid_moves(board))
    assert suggestion.scores[suggestion.direction] == max(suggestion.scores.values())
    assert suggestion.depth >= 1


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


def test_bigger_budget_searches_deeper(solver):
    board = MID_GAME[0]
    assert solver.suggest(board, budget_ms=300).depth >= 2


def test_open_boards_are_searched_shallow_and_tight_ones_deeper():
    tiles = [2**k for k in range(1, 13)]
    open_board = pack([tiles[8:12], tiles[4:8], [0] * 4, [0] * 4])
    tight_board = pack([tiles[8:12], tiles[4:8], tiles[0:4], [2, 0, 0, 0]])
    assert depth_limit(pack([[2, 4, 0, 0]] + [[0] * 4] * 3)) == 3
    assert depth_limit(open_board) == 3
    assert depth_limit(tight_board) > 3


def test_search_equals_plain_expectimax():
    weights = Weights()
    table = build_table(weights)
    fast = Solver(weights, cut=0.0)
    board = next(b for b in MID_GAME if 3 <= len(empty_cells(b)) <= 5)
    for direction in valid_moves(board):
        child = MOVES[direction](board)
        for depth in (0, 1, 2):
            expected = plain_expectimax(table, weights.loss, child, depth)
            assert fast.search.chance(child, depth, 1.0) == pytest.approx(expected)


def test_evaluation_is_the_same_for_mirrored_and_transposed_boards():
    table = build_table(Weights())
    for board in MID_GAME:
        for symmetric in symmetries(board):
            assert evaluate(table, symmetric) == pytest.approx(evaluate(table, board))


def test_caches_stay_bounded_across_moves():
    small = Solver(max_entries=2_000)
    for board in MID_GAME[:8]:
        small.suggest(board, budget_ms=50)
        assert len(small.search.evals) <= 2_000
        assert len(small.search.table) <= 2_000


def test_caches_are_kept_across_moves():
    keeping = Solver()
    keeping.suggest(MID_GAME[0], budget_ms=20)
    assert keeping.search.evals and keeping.search.table


def test_to_dict_has_the_documented_fields(solver):
    answer = solver.suggest(MID_GAME[1], budget_ms=5).to_dict()
    assert set(answer) == {"direction", "scores", "depth", "ms"}
    json.dumps(answer)


def test_tiny_benchmark_writes_the_documented_json(tmp_path, capsys):
    path = tmp_path / "bench.json"
    bench.main(["--games", "2", "--max-moves", "150", "--budget-ms", "5", "--jobs", "2", "--json", str(path)])
    assert "moves per second" in capsys.readouterr().out
    document = json.loads(path.read_text())
    for key in ("date", "command", "budget_ms", "games", "seed", "reached", "score", "ms_per_move", "moves_per_second"):
        assert key in document
    assert set(document["reached"]) == {"2048", "4096", "8192", "16384", "32768"}
    assert set(document["ms_per_move"]) == {"median", "p99"}
    assert [g["seed"] for g in document["per_game"]] == [1, 2]
    for game in document["per_game"]:
        assert set(game) == {"seed", "max_tile", "score", "moves"}
        assert 0 < game["moves"] <= 150


def test_a_hint_does_no_big_work_after_its_deadline_and_pauses_the_collector():
    """Cache trims past the deadline drop a handful of entries; no full GC runs mid-search."""
    limit = 3_000
    solver = Solver(max_entries=limit)
    tight = pack([[2, 4, 8, 16], [256, 128, 64, 32], [512, 1024, 2, 4], [0, 8, 16, 0]])
    solver.suggest(tight, 20)
    search, trims, collecting = solver.search, [], []
    trim, evaluate = search.trim, search.chance

    def recorded_trim(*keep):
        before = len(search.evals) + len(search.table)
        trim(*keep)
        trims.append((time.perf_counter(), before - len(search.evals) - len(search.table)))

    def recorded_chance(*args):
        collecting.append(gc.isenabled())
        return evaluate(*args)

    search.trim, search.chance = recorded_trim, recorded_chance
    deadline = time.perf_counter() + 0.020
    solver.suggest(tight, 20)
    assert trims and all(dropped <= 2 * limit // 8 for _, dropped in trims)
    assert all(dropped <= 300 for at, dropped in trims if at > deadline)
    assert collecting and not any(collecting) and gc.isenabled()


def test_the_web_apps_solver_tables_are_kept_out_of_the_cycle_collectors_walks(tmp_path):
    """A full collection walking a million table entries took longer than a hint's budget."""
    from app import hints
    from app.solver.solver import _tables

    hints.suggest(pack([[2, 4, 0, 0], [0] * 4, [0] * 4, [0] * 4]), 5, tmp_path)
    table = _tables[Weights()]
    assert not any(obj is table for obj in gc.get_objects())
