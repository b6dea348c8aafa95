"""The official rules, one example at a time."""

import copy
import random

import pytest

from app.engine import (
    CLASSIC,
    DIRECTIONS,
    Game,
    GameFinished,
    UnknownDirection,
    empty_cells,
    max_tile,
    pack,
    slide_line,
    slide_tiles,
    spawn,
    start_board,
    unpack,
)
from app.engine.board import exponent_of
from app.engine.sliding import is_over, move


def slide_values(values, direction="left"):
    """Slide one row of tile values on an otherwise empty board: (row after, gained)."""
    board, gained = move(pack([list(values), [0] * 4, [0] * 4, [0] * 4]), direction)
    return unpack(board, CLASSIC)[0], gained


def game_with(grid, **fields):
    return Game(board=pack(grid), seed=fields.pop("seed", 7), **fields)


# A full board without any equal neighbours.
NO_PAIRS = [
    [2, 4, 2, 4],
    [4, 2, 4, 2],
    [2, 4, 2, 4],
    [4, 2, 4, 2],
]


class TestPacking:
    def test_cell_r_c_lives_at_bit_5_times_4r_plus_c(self):
        grid = [[0] * 4 for _ in range(4)]
        grid[2][1] = 8
        assert pack(grid) == 3 << (5 * (4 * 2 + 1))

    def test_every_tile_of_the_ladder_round_trips(self):
        ladder = [0] + [2**k for k in range(1, 18)]
        grid = [ladder[0:4], ladder[4:8], ladder[8:12], ladder[12:16]]
        assert unpack(pack(grid), CLASSIC) == grid
        grid = [[131072, 65536, 0, 2], [0] * 4, [0] * 4, [0] * 4]
        assert unpack(pack(grid), CLASSIC) == grid

    @pytest.mark.parametrize("value", [1, 3, 6, -2, 0.5, "2", None])
    def test_non_tiles_cannot_be_packed(self, value):
        with pytest.raises(ValueError):
            exponent_of(value)
        grid = [[0] * 4 for _ in range(4)]
        grid[1][2] = value
        with pytest.raises(ValueError):
            pack(grid)

    @pytest.mark.parametrize("value", [262144, 2**32])
    def test_a_tile_beyond_the_classic_ladder_cannot_be_packed_on_the_classic_board(self, value):
        """2**17 tops the classic ladder; a larger tile would spill into the next cell's five bits."""
        with pytest.raises(ValueError):
            pack([[value, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4])

    def test_helpers(self):
        board = pack([[2, 0, 0, 0], [0, 131072, 0, 0], [0] * 4, [0, 0, 0, 4]])
        assert max_tile(board, CLASSIC) == CLASSIC.max_tile == 131072
        assert (0, 0) not in empty_cells(board, CLASSIC)
        assert len(empty_cells(board, CLASSIC)) == 13
        assert max_tile(0, CLASSIC) == 0


class TestSlide:
    def test_tiles_slide_as_far_as_they_go(self):
        assert slide_values([0, 2, 0, 4]) == ([2, 4, 0, 0], 0)
        assert slide_values([0, 2, 0, 4], "right") == ([0, 0, 2, 4], 0)

    def test_a_tile_merges_at_most_once(self):
        assert slide_values([4, 4, 4, 4]) == ([8, 8, 0, 0], 16)
        assert slide_values([4, 4, 4, 4], "right") == ([0, 0, 8, 8], 16)

    def test_pairs_form_from_the_edge_moved_towards(self):
        assert slide_values([4, 4, 4, 0]) == ([8, 4, 0, 0], 8)
        assert slide_values([4, 4, 4, 0], "right") == ([0, 0, 4, 8], 8)

    def test_only_tiles_that_meet_merge(self):
        assert slide_values([2, 2, 4, 0]) == ([4, 4, 0, 0], 4)
        assert slide_values([2, 0, 0, 2]) == ([4, 0, 0, 0], 4)
        assert slide_values([2, 4, 2, 0]) == ([2, 4, 2, 0], 0)

    def test_columns_follow_the_same_rules(self):
        grid = [[4, 0, 0, 0], [4, 0, 0, 0], [4, 0, 0, 0], [0, 0, 0, 0]]
        up, _ = move(pack(grid), "up")
        down, _ = move(pack(grid), "down")
        assert [row[0] for row in unpack(up, CLASSIC)] == [8, 4, 0, 0]
        assert [row[0] for row in unpack(down, CLASSIC)] == [0, 0, 4, 8]

    def test_merging_two_256_scores_512(self):
        assert slide_values([256, 256, 0, 0]) == ([512, 0, 0, 0], 512)

    def test_sliding_alone_scores_nothing(self):
        assert slide_values([0, 0, 0, 131072]) == ([131072, 0, 0, 0], 0)

    def test_the_top_tiles_slide_and_merge(self):
        assert slide_values([65536, 0, 65536, 2]) == ([131072, 2, 0, 0], 131072)
        assert slide_values([0, 131072, 0, 2], "right") == ([0, 0, 131072, 2], 0)

    def test_two_top_tiles_never_merge(self):
        # Documented cap: 2**17 is the end of the ladder (and two cannot occur in play).
        assert slide_line((17, 17, 0, 0), CLASSIC.max_exponent) == ((17, 17, 0, 0), 0, ((0,), (1,), (), ()))
        assert slide_values([131072, 131072, 4, 4]) == ([131072, 131072, 8, 0], 8)

    def test_origins_name_the_source_cells(self):
        slid = slide_line((0, 2, 2, 3), CLASSIC.max_exponent)
        assert slid.cells == (3, 3, 0, 0)
        assert slid.origins == ((1, 2), (3,), (), ())
        assert slid.gained == 8


class TestOver:
    def test_a_full_board_without_equal_neighbours_is_over(self):
        assert is_over(pack(NO_PAIRS))
        assert game_with(NO_PAIRS).over

    @pytest.mark.parametrize("pair", [((0, 0), (0, 1)), ((2, 3), (3, 3))])
    def test_a_full_board_with_one_equal_pair_is_not_over(self, pair):
        grid = [row[:] for row in NO_PAIRS]
        (r1, c1), (r2, c2) = pair
        grid[r1][c1] = grid[r2][c2] = 1024
        assert not empty_cells(pack(grid), CLASSIC)
        assert not is_over(pack(grid))
        assert not game_with(grid).over

    def test_a_board_with_an_empty_cell_is_not_over(self):
        grid = [row[:] for row in NO_PAIRS]
        grid[3][3] = 0
        assert not is_over(pack(grid))


class TestSpawn:
    def test_start_has_two_tiles_of_2_or_4(self):
        for seed in range(50):
            tiles = [v for row in unpack(start_board(random.Random(seed), CLASSIC), CLASSIC) for v in row if v]
            assert len(tiles) == 2
            assert set(tiles) <= {2, 4}

    def test_tiles_are_2_nine_times_in_ten(self):
        rng = random.Random(12345)
        values = [spawn(0, rng, CLASSIC)[2] for _ in range(20_000)]
        assert set(values) == {2, 4}
        assert 0.085 < values.count(4) / len(values) < 0.115

    def test_every_empty_cell_can_get_the_tile(self):
        rng = random.Random(99)
        board = pack([[2, 2, 2, 2], [2, 0, 2, 0], [2, 2, 0, 2], [2, 2, 2, 2]])
        seen = {spawn(board, rng, CLASSIC)[1] for _ in range(200)}
        assert seen == {(1, 1), (1, 3), (2, 2)}

    def test_an_injected_generator_decides_place_and_value(self):
        class Fake:
            def choice(self, cells):
                assert (2, 3) in cells
                return (2, 3)

            def random(self):
                return 0.95  # above 0.9: a 4

        board, where, value = spawn(pack([[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]), Fake(), CLASSIC)
        assert (where, value) == ((2, 3), 4)
        assert unpack(board, CLASSIC)[2][3] == 4 and unpack(board, CLASSIC)[0][0] == 2

    def test_a_full_board_cannot_take_a_tile(self):
        with pytest.raises(ValueError):
            spawn(pack(NO_PAIRS), random.Random(0), CLASSIC)


class TestGame:
    def test_new_game_starts_at_zero_with_two_tiles(self):
        game = Game.new(seed=5)
        assert game.to_state()["score"] == 0 and game.moves == 0
        assert len(empty_cells(game.board, CLASSIC)) == 14
        assert not (game.won or game.over or game.keep_playing)

    def test_seeds_drive_start_and_spawns(self):
        game = Game.new(seed=42)
        assert game.board == start_board(random.Random("42:start"), CLASSIC)
        slid, _ = move(game.board, "left")
        if slid == game.board:
            slid, _ = move(game.board, "right")
            direction = "right"
        else:
            direction = "left"
        outcome = game.play(direction)
        expected, (row, col), value = spawn(slid, random.Random("42:1"), CLASSIC)
        assert game.board == expected
        assert outcome.spawned == (row, col, value)

    def test_same_seed_and_moves_give_the_same_game(self):
        def play(seed):
            game, states = Game.new(seed=seed), []
            for i in range(60):
                if game.over:
                    break
                game.play(DIRECTIONS[i * 7 % 4])
                states.append((game.to_state(), game.directions.to_letters()))
            return states

        assert play(2024) == play(2024)
        assert play(2024) != play(2025)

    def test_a_valid_move_scores_and_spawns_one_tile(self):
        game = game_with([[256, 256, 0, 0], [0] * 4, [0] * 4, [0] * 4], score=10)
        outcome = game.play("left")
        assert outcome.moved and outcome.gained == 512
        assert game.score == 522 and game.moves == 1
        grid = unpack(game.board, CLASSIC)
        assert grid[0][0] == 512
        assert sorted(v for row in grid for v in row if v) in ([2, 512], [4, 512])
        row, col, value = outcome.spawned
        assert grid[row][col] == value

    def test_an_invalid_move_changes_nothing(self):
        grid = [[2, 4, 0, 0], [8, 0, 0, 0], [0] * 4, [0] * 4]
        game = game_with(grid, score=30, moves=3)
        before = copy.deepcopy(game)
        outcome = game.play("left")
        assert not outcome.moved and outcome.gained == 0 and outcome.spawned is None
        assert game == before
        assert game.play("up").moved is False
        assert game == before

    def test_the_slide_lists_every_tile_with_its_sources(self):
        """What the API's animation of one move shows: every tile after the slide, and where it came from."""
        game = game_with([[0, 2, 2, 4], [0] * 4, [0] * 4, [0, 0, 0, 8]])
        assert slide_tiles(game.board, "right", CLASSIC) == [
            {"row": 0, "col": 2, "value": 4, "from": [[0, 2], [0, 1]]},
            {"row": 0, "col": 3, "value": 4, "from": [[0, 3]]},
            {"row": 3, "col": 3, "value": 8, "from": [[3, 3]]},
        ]
        outcome = game.play("right")
        assert outcome.moved and outcome.gained == 4 and outcome.spawned is not None

    def test_unknown_direction_is_refused(self):
        game = Game.new(seed=1)
        for bad in ("sideways", "LEFT", "", None, 3):
            with pytest.raises(UnknownDirection):
                game.play(bad)
        assert game.moves == 0

    def test_reaching_2048_wins_and_waits_for_keep_playing(self):
        game = game_with([[1024, 1024, 0, 0], [2, 0, 0, 0], [0] * 4, [0] * 4], score=100)
        outcome = game.play("left")
        assert outcome.gained == 2048 and game.score == 2148
        assert game.won and game.finished and not game.over
        assert game.to_state()["won"] is True
        before = copy.deepcopy(game)
        with pytest.raises(GameFinished):
            game.play("right")
        assert game == before
        game.choose_keep_playing()
        assert not game.finished
        game.play("right")
        assert game.won and game.keep_playing and game.moves == 2

    def test_play_goes_on_past_2048_and_won_stays(self):
        game = game_with([[2048, 2048, 0, 0], [0] * 4, [0] * 4, [0] * 4], won=True, keep_playing=True)
        game.play("left")
        assert max_tile(game.board, CLASSIC) == 4096 and game.won and not game.finished

    def test_keep_going_needs_a_won_game_that_is_not_over(self):
        with pytest.raises(GameFinished):
            Game.new(seed=3).choose_keep_playing()
        grid = [row[:] for row in NO_PAIRS]
        grid[0][0] = 2048
        finished = game_with(grid, won=True)
        with pytest.raises(GameFinished):
            finished.choose_keep_playing()

    def test_a_game_that_is_over_refuses_moves(self):
        game = game_with(NO_PAIRS, score=60, moves=20)
        for direction in DIRECTIONS:
            with pytest.raises(GameFinished):
                game.play(direction)
        assert game.moves == 20

    def test_a_winning_move_that_fills_the_board_is_won_and_over(self):
        grid = [
            [1024, 1024, 8, 16],
            [2, 4, 2, 8],
            [4, 2, 4, 2],
            [2, 4, 2, 4],
        ]
        for seed in range(5):  # the spawned 2 or 4 ends the game either way
            game = game_with(grid, seed=seed)
            assert not game.over
            game.play("left")
            assert game.won and game.over
            assert game.to_state()["won"] and game.to_state()["over"]
            with pytest.raises(GameFinished):
                game.choose_keep_playing()
