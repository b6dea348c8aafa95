"""The solver of every size but the classic 4x4 (app/solver/general.py): a move that changes the board
whatever the board and the time left, and play clearly better than random moves.

Its games are played with ``budget_ms=0``: the search is then cut off before its first pass, and the
move is the evaluation's best of the boards one move away, the same on any machine however busy. The
search itself is asked with a budget, and only whether its move is one the rules allow."""

import random
from time import perf_counter

import pytest

from app.engine import DIRECTIONS, VARIANTS, Game, GameFinished, kernel_for, max_tile, pack, symmetries, unpack
from app.engine.board import from_exponent_grid
from app.review import largest_in_corner
from app.solver import GeneralSolver, NoValidMove

SIZES = (3, 5, 8)
by_size = pytest.mark.parametrize("variant", [VARIANTS[size] for size in SIZES], ids=lambda v: f"{v.size}x{v.size}")


def random_play_boards(variant, seed, moves=300):
    """Every board met in a game of random moves (its first ``moves``), from the start to nearly full."""
    game, rng, boards = Game.new(seed=seed, variant=variant), random.Random(seed), []
    while not game.over and game.moves < moves:
        if game.finished:
            game.choose_keep_playing()
        boards.append(game.board)
        game.play(rng.choice(kernel_for(variant).valid_moves(game.board)))
    return boards


def sample_boards(variant):
    boards = [board for seed in (1, 2, 3) for board in random_play_boards(variant, seed)]
    nearly_full = sorted(boards, key=lambda board: -sum(1 for row in unpack(board, variant) for v in row if v))
    return random.Random(variant.size).sample(boards, 8) + nearly_full[:4]


def one_move_boards(variant):
    """A full left column of different tiles and nothing else, in each of its turned and mirrored forms:
    only one direction moves each."""
    column = [[2 << r if c == 0 else 0 for c in range(variant.size)] for r in range(variant.size)]
    return sorted(symmetries(pack(column), variant))


def stuck_board(variant):
    return pack([[2 << (r + c) % 2 for c in range(variant.size)] for r in range(variant.size)])


def play(variant, seed, choose, limit):
    """A new game on ``seed`` played by ``choose(board)`` until it is over or ``limit`` moves."""
    game = Game.new(seed=seed, variant=variant)
    while not game.over and game.moves < limit:
        if game.finished:
            game.choose_keep_playing()
        game.play(choose(game.board))
    return game


def random_player(variant, seed):
    rng = random.Random(seed)
    return lambda board: rng.choice(kernel_for(variant).valid_moves(board))


def solver_player(variant):
    solver = GeneralSolver(variant)
    return lambda board: solver.suggest(board, budget_ms=0).direction


@by_size
def test_every_suggestion_changes_the_board_and_rates_each_valid_move(variant):
    solver, kernel = GeneralSolver(variant), kernel_for(variant)
    for board in sample_boards(variant):
        suggestion = solver.suggest(board, budget_ms=10)
        assert kernel.move(board, suggestion.direction)[0] != board
        assert set(suggestion.scores) == set(kernel.valid_moves(board))
        assert suggestion.depth >= 1 and suggestion.direction in DIRECTIONS


@by_size
def test_a_suggestion_with_no_time_left_still_changes_the_board(variant):
    solver, kernel = GeneralSolver(variant), kernel_for(variant)
    for board in sample_boards(variant)[:4]:
        for suggestion in (solver.suggest(board, budget_ms=0), solver.suggest(board, 50, started=perf_counter() - 1)):
            assert kernel.move(board, suggestion.direction)[0] != board and suggestion.depth == 1


@by_size
def test_the_only_valid_move_is_suggested(variant):
    solver, kernel = GeneralSolver(variant), kernel_for(variant)
    boards = one_move_boards(variant)
    assert len(boards) == 8 and all(len(kernel.valid_moves(board)) == 1 for board in boards)
    for board in boards:
        assert solver.suggest(board, budget_ms=5).direction == kernel.valid_moves(board)[0]


@by_size
def test_a_stuck_board_raises_no_valid_move(variant):
    with pytest.raises(NoValidMove, match="no move"):
        GeneralSolver(variant).suggest(stuck_board(variant))
    assert issubclass(NoValidMove, GameFinished)


def test_on_3x3_it_outlasts_random_moves_in_every_game():
    variant = VARIANTS[3]
    games = [
        (play(variant, seed, solver_player(variant), 10**4), play(variant, seed, random_player(variant, seed), 10**4))
        for seed in range(1, 11)
    ]
    assert all(solved.over and by_chance.over for solved, by_chance in games)
    assert all(solved.moves > by_chance.moves and solved.score > by_chance.score for solved, by_chance in games)
    assert sum(solved.moves for solved, _ in games) > 2 * sum(by_chance.moves for _, by_chance in games)
    assert max(max_tile(solved.board, variant) for solved, _ in games) >= 128


def test_on_5x5_it_plays_several_times_as_long_and_builds_2048():
    variant = VARIANTS[5]
    for seed in (1, 2, 3):
        by_chance = play(variant, seed, random_player(variant, seed), 10**5)
        solved = play(variant, seed, solver_player(variant), 2000)
        assert by_chance.over and by_chance.moves < 1000 and max_tile(by_chance.board, variant) <= 512
        assert solved.moves == 2000 and not solved.over, "still playing at twice the random game's length"
        assert max_tile(solved.board, variant) >= 2048 and solved.won


def test_on_8x8_it_keeps_its_largest_tile_in_a_corner_as_random_moves_do_not():
    """An 8x8 game lasts too long to play to its end here; over its first 600 moves the solver plays
    as the strategy page advises, its largest tile in a corner, where random moves leave it anywhere."""
    variant = VARIANTS[8]
    for seed in (1, 2):
        shares = []
        for choose in (solver_player(variant), random_player(variant, seed)):
            cornered, game = [], Game.new(seed=seed, variant=variant)
            while game.moves < 600 and not game.over:
                game.play(choose(game.board))
                cornered.append(largest_in_corner(game.board, variant))
            shares.append(sum(cornered[100:]) / len(cornered[100:]))
        solver_share, random_share = shares
        assert solver_share > 0.8 > 0.2 > random_share


def test_the_evaluation_stays_the_same_once_the_kept_lines_are_dropped():
    """The line values a solver keeps are dropped when there are too many: a board seen after that
    is valued as a fresh solver values it. Each board here shares most of its lines with the one
    before it and brings new ones, as in play, well past the number kept."""
    variant = VARIANTS[8]
    kept, rng = GeneralSolver(variant), random.Random(8)
    exponents = [[rng.randint(0, 6) for _ in range(8)] for _ in range(8)]
    for step in range(1500):
        exponents[step % 8] = [rng.randint(0, 6) for _ in range(8)]  # one row (and every column) changes
        board = from_exponent_grid(exponents, variant)
        assert kept.evaluate(board) == pytest.approx(GeneralSolver(variant).evaluate(board)), step
