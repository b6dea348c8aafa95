"""A game's record: seed, start and packed directions replay it exactly; verified only when honest."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engine import DIRECTIONS, Game, InvalidState
from app.engine.record import MAX_DIRECTIONS, Directions


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
    assert list(Directions.from_text(packed.to_text())) == directions
    assert list(Directions.from_letters(packed.to_letters())) == directions
    assert len(packed.packed) == -(-len(directions) // 4)


def test_a_hundred_thousand_moves_take_a_quarter_byte_each():
    directions = Directions()
    for index in range(100_000):
        directions.append(DIRECTIONS[index * 7 % 4])
    assert len(directions.packed) == 25_000
    assert Directions.from_text(directions.to_text()) == directions


@pytest.mark.parametrize("letters", ["x", "uxd", "U", 5, None, "u" * (MAX_DIRECTIONS + 1)])
def test_bad_letters_are_refused(letters):
    with pytest.raises(InvalidState):
        Directions.from_letters(letters)


@pytest.mark.parametrize("text", ["", "3", "5:AA==", "1:not base64!", "-1:", None])
def test_bad_stored_directions_are_refused(text):
    with pytest.raises(InvalidState):
        Directions.from_text(text)


def test_a_server_seeded_game_replays_exactly_and_is_verified():
    game = played(Game.new(), 300)
    assert len(game.directions) == game.moves > 20
    replayed = Game.replay(game.seed, None, game.directions)
    assert replayed.to_state() == game.to_state()
    assert game.verified


def test_the_record_survives_the_session_round_trip():
    game = played(Game.new(), 50)
    game.hints = 3
    copy = Game.from_record(game.to_record())
    assert copy == game
    assert copy.verified and copy.assisted


def test_a_restored_game_replays_from_its_start_but_is_not_verified():
    forged = {"board": [[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0] * 4], "score": 90000, "won": False,
              "keep_playing": False, "moves": 3}
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
    corner = {"board": [[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4], "score": 0, "won": False,
              "keep_playing": False, "moves": 0}
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
    game = Game.from_record(old)
    assert game.start == {key: old[key] for key in ("board", "score", "won", "keep_playing", "moves")}
    assert not game.verified


@pytest.mark.parametrize("change", [{"hints": -1}, {"autoplay": "yes"}, {"seed_chosen": 1}, {"directions": "2:"}])
def test_a_damaged_record_is_refused(change):
    record = played(Game.new(), 10).to_record() | change
    with pytest.raises(InvalidState):
        Game.from_record(record)


def test_a_record_missing_some_keys_is_refused():
    record = Game.new().to_record()
    del record["hints"]
    with pytest.raises(InvalidState):
        Game.from_record(record)
