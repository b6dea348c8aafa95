"""A game's record: seed, start and packed directions replay it exactly; verified only when honest."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engine import CLASSIC, DIRECTIONS, CannotUndo, Game, InvalidState, check_stored
from app.engine.game import OPTIONAL_STORED_KEYS, UNDO_DEPTH
from app.engine.history import MAX_DIRECTIONS, Directions, positions, tiles_text
from app.engine.sliding import move


def played(game, count, rng=None):
    """``game`` after up to ``count`` random valid moves (keeping on past 2048)."""
    rng = rng or random.Random(7)
    while game.moves < count and not game.over:
        if game.finished:
            game.choose_keep_playing()
        game.play(rng.choice(DIRECTIONS))
    return game


@given(st.lists(st.sampled_from(DIRECTIONS), max_size=200))
def test_directions_round_trip_packed_and_as_letters(directions):
    packed = Directions()
    for direction in directions:
        packed.append(direction)
    assert list(packed) == directions
    assert list(Directions.from_text(packed.to_text(), CLASSIC)) == directions
    assert list(Directions.from_letters(packed.to_letters(), CLASSIC)) == directions
    assert len(packed.packed) == -(-len(directions) // 4)


def test_a_hundred_thousand_moves_take_a_quarter_byte_each():
    directions = Directions()
    for index in range(100_000):
        directions.append(DIRECTIONS[index * 7 % 4])
    assert len(directions.packed) == 25_000
    assert Directions.from_text(directions.to_text(), CLASSIC) == directions


@pytest.mark.parametrize("letters", ["x", "uxd", "U", 5, None, "u" * (MAX_DIRECTIONS + 1)])
def test_bad_letters_are_refused(letters):
    with pytest.raises(InvalidState):
        Directions.from_letters(letters, CLASSIC)


@pytest.mark.parametrize("text", ["", "3", "5:AA==", "1:not base64!", "-1:", None])
def test_bad_stored_directions_are_refused(text):
    with pytest.raises(InvalidState):
        Directions.from_text(text, CLASSIC)


def test_a_server_seeded_game_replays_exactly_and_is_verified():
    game = played(Game.new(), 300)
    assert len(game.directions) == game.moves > 20
    replayed = Game.replay(game.seed, None, game.directions)
    assert replayed.to_state() == game.to_state()
    assert game.verified


def test_the_record_survives_the_session_round_trip():
    game = played(Game.new(), 50)
    game.hints = 3
    copy = Game.from_stored(game.to_stored())
    assert copy == game
    assert copy.verified and copy.assisted


def test_a_restored_game_replays_from_its_start_but_is_not_verified():
    forged = {
        "board": [[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0] * 4],
        "score": 90000,
        "won": False,
        "keep_playing": False,
        "moves": 3,
    }
    game = played(Game.from_state(forged), 20)
    assert game.start == forged
    assert Game.replay(game.seed, game.start, game.directions).to_state() == game.to_state()
    assert not game.verified


def test_a_game_on_a_seed_the_client_chose_is_not_verified():
    assert not played(Game.new(seed=42), 10).verified
    assert played(Game.new(), 10).verified


def test_a_board_that_its_moves_do_not_make_is_not_verified():
    game = played(Game.new(), 40)
    game.score += 4
    assert not game.verified


def test_a_replay_of_a_move_that_changes_nothing_is_refused():
    corner = {
        "board": [[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4],
        "score": 0,
        "won": False,
        "keep_playing": False,
        "moves": 0,
    }
    assert Game.replay(1, corner, ["right"]).moves == 1
    with pytest.raises(InvalidState):
        Game.replay(1, corner, ["left"])


def test_hints_and_autoplay_make_a_game_assisted():
    game = Game.new()
    assert not game.assisted
    game.autoplay = True
    assert game.assisted


def test_a_game_stored_before_records_replays_from_where_it_is():
    old = {**played(Game.new(), 10).to_state(), "seed": 5}
    game = Game.from_stored(old)
    assert game.start == {key: old[key] for key in ("board", "score", "won", "keep_playing", "moves")}
    assert not game.verified


@pytest.mark.parametrize(
    "change",
    [
        {"hints": -1},
        {"autoplay": "yes"},
        {"seed_chosen": 1},
        {"directions": "2:"},
        {"id": "short"},
        {"id": 5},
        {"fork_of": "short"},
        {"restores": -1},
        {"undos": 1.5},
        {"seed": -1},
        {"daily": "2026-02-30"},
        {"start": {"board": [[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4], "score": 0, "won": False,
                   "keep_playing": True, "moves": 0}},  # kept playing a game it did not win
        {"board": "xyz"},
        {"unknown": 1},
    ],
)  # fmt: skip
def test_a_damaged_copy_is_refused_on_its_way_in(change):
    """What comes back in from outside the store (a sealed copy) is checked before it is read."""
    copy = played(Game.new(), 10).to_stored() | change
    with pytest.raises(InvalidState):
        check_stored(copy)


@pytest.mark.parametrize(
    "position",
    [
        ["18c0", 212, False, False],  # a field short
        ["18c0", 212, False, False, 35, 0],
        ["not hex", 212, False, False, 35],
        ["0", 212, False, False, 35],  # no tile
        ["1" + "0" * 20, 212, False, False, 35],  # more than 16 cells
        [0x18C0, 212, False, False, 35],
        ["18c0", -1, False, False, 35],
        ["18c0", True, False, False, 35],
        ["18c0", 212, 1, False, 35],
        ["18c0", 212, False, None, 35],
        ["18c0", 212, False, False, "35"],
        ["18c0", 212, False, False, CLASSIC.max_moves + 1],
        "18c0",
        None,
    ],
)
def test_a_damaged_position_kept_for_undo_is_refused_on_its_way_in(position):
    copy = played(Game.new(), 10).to_stored()
    copy["earlier"] = [*copy["earlier"][:-1], position]
    with pytest.raises(InvalidState):
        check_stored(copy)


def test_every_stored_game_passes_the_check_and_reads_back():
    game = played(Game.new(), 30)
    game.id, game.fork_of, game.restores, game.undos = "A" * 16, "B" * 16, 2, 1
    assert check_stored(game.to_stored()) == game.to_stored()
    assert Game.from_stored(check_stored(game.to_stored())) == game


def test_a_copy_missing_some_keys_is_refused_on_its_way_in():
    copy = Game.new().to_stored()
    del copy["hints"]
    with pytest.raises(InvalidState):
        check_stored(copy)


def test_the_tiles_a_game_placed_rebuild_every_position_without_the_seed():
    game = played(Game.new(), 300)
    tiles, verified = game.replayed()
    assert verified and len(tiles) == 2 + game.moves
    boards = positions(None, game.directions, tiles, CLASSIC)
    replayed = [position.board for position, _tile in Game.replaying(game.seed, None, game.directions)]
    assert boards == replayed and boards[-1] == game.board
    assert len(tiles_text(tiles, CLASSIC)) == len(tiles) and set(tiles_text(tiles, CLASSIC)) <= set(
        "0123456789abcdefghijklmnopqrstuv"
    )


def test_a_restored_game_records_one_tile_a_move():
    start = {"board": [[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4], "score": 0, "won": False, "keep_playing": False,
             "moves": 7}  # fmt: skip
    game = played(Game.from_state(start), 30)
    tiles, verified = game.replayed()
    assert not verified and len(tiles) == game.moves - 7
    assert positions(start, game.directions, tiles, CLASSIC)[-1] == game.board


def test_moves_past_the_move_count_bound_still_draw_fresh_tiles():
    """A game restored at the highest move count plays on: each move draws its own tile, not the same one."""
    start = {"board": [[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4], "score": 0, "won": False, "keep_playing": False,
             "moves": CLASSIC.max_moves}  # fmt: skip
    game, rng, values = Game.from_state(start, seed=1), random.Random(5), []
    while len(values) < 40 and not game.over:
        outcome = game.play(rng.choice(DIRECTIONS))
        if outcome.moved:
            values.append(outcome.spawned[2])
    assert game.moves == CLASSIC.max_moves and len(values) == 40
    assert 2 in values and 4 in values


def test_a_game_stored_before_games_had_an_id_reads_back():
    game = played(Game.new(), 10)
    game.id, game.restores = "A" * 16, 2
    record = {key: value for key, value in game.to_stored().items() if key not in OPTIONAL_STORED_KEYS}
    game = Game.from_stored(record)
    assert (game.id, game.restores) == (None, 0) and game.verified


@given(st.lists(st.sampled_from(DIRECTIONS), min_size=1, max_size=40), st.integers(1, 40))
def test_directions_taken_off_the_end_leave_the_rest_as_they_were(directions, taken):
    packed = Directions.from_letters("".join(d[0] for d in directions), CLASSIC)
    taken = min(taken, len(directions))
    assert [packed.pop() for _ in range(taken)] == directions[::-1][:taken]
    assert list(packed) == directions[: len(directions) - taken]
    assert packed == Directions.from_letters("".join(d[0] for d in directions[: len(directions) - taken]), CLASSIC)


def test_undo_goes_back_a_move_with_its_randomness_and_stays_verified():
    game = played(Game.new(), 30)
    before, stored_before = game.to_state(), game.to_stored()
    direction = next(d for d in DIRECTIONS if game.play(d).moved)
    after = game.to_state()
    game.undo()
    assert game.to_state() == before and list(game.directions) == list(Game.from_stored(stored_before).directions)
    assert game.play(direction).moved and game.to_state() == after, "the same move brings the same tile"
    assert game.undos == 1 and game.verified


def test_undo_goes_back_at_most_the_last_few_moves_and_not_after_the_seed_was_shown():
    game = played(Game.new(), 30)
    states = []
    for _ in range(UNDO_DEPTH + 2):
        states.append(game.to_state())
        next(d for d in DIRECTIONS if game.play(d).moved)
    for state in reversed(states[-UNDO_DEPTH:]):
        game.undo()
        assert game.to_state() == state
    with pytest.raises(CannotUndo):
        game.undo()
    game.play(next(d for d in DIRECTIONS if move(game.board, d)[0] != game.board))
    copy = Game.from_stored(game.to_stored())
    assert copy == game and copy.undos == UNDO_DEPTH and len(copy.earlier) == 1
    copy.seed_shown = True
    with pytest.raises(CannotUndo):
        copy.undo()
