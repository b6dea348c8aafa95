"""A game's record: seed, start and packed directions replay it exactly; verified only when honest."""

import random

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engine import CLASSIC, DIRECTIONS, SIZES, VARIANTS, CannotUndo, Game, InvalidState, kernel_for
from app.engine.game import UNDO_DEPTH
from app.engine.history import Directions, positions, tiles_from_text, tiles_text
from app.games.played import PlayedGame, StoredGame, check_stored


def server_game(variant=CLASSIC, seed=1000):
    """A new game on a seed the server chose, as app/games begins one."""
    return PlayedGame.begin("G" * 16, seed, variant, seed_chosen=False)


def restored(state, seed=3):
    """A game the server took from a state from outside, on a seed of its own."""
    return PlayedGame.from_state(state, seed, id="R" * 16)


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


@pytest.mark.parametrize("letters", ["x", "uxd", "U", 5, None, "u" * (CLASSIC.max_directions + 1)])
def test_bad_letters_are_refused(letters):
    with pytest.raises(InvalidState):
        Directions.from_letters(letters, CLASSIC)


@pytest.mark.parametrize("text", ["", "3", "5:AA==", "1:not base64!", "-1:", None])
def test_bad_stored_directions_are_refused(text):
    with pytest.raises(InvalidState):
        Directions.from_text(text, CLASSIC)


@pytest.mark.parametrize("size", SIZES)
def test_a_server_seeded_game_of_every_size_replays_exactly_and_is_verified(size):
    game = played(server_game(VARIANTS[size]), 300)
    assert len(game.directions) == game.moves > 20
    replayed = Game.replay(game.seed, None, game.directions, VARIANTS[size])
    assert replayed.to_state() == Game.to_state(game)
    assert game.verified
    assert Game.replay(game.seed, None, game.directions, VARIANTS[size]).board == game.board


def test_the_record_survives_the_session_round_trip():
    game = played(server_game(), 50)
    game.hints = 3
    copy = PlayedGame.from_stored(game.to_stored())
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
    game = played(restored(forged), 20)
    assert game.start == forged
    assert Game.replay(game.seed, game.start, game.directions).to_state() == game.to_state()
    assert not game.verified


def test_a_game_on_a_seed_the_client_chose_is_not_verified():
    assert not played(PlayedGame.begin("C" * 16, 42, CLASSIC, seed_chosen=True), 10).verified
    assert played(PlayedGame.begin("C" * 16, 42, CLASSIC, seed_chosen=False), 10).verified


def test_a_board_that_its_moves_do_not_make_is_not_verified():
    game = played(server_game(), 40)
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


def test_a_record_replays_only_on_the_size_it_claims():
    five = {"board": [[2, 0, 0, 0, 0], [0] * 5, [0] * 5, [0] * 5, [0] * 5], "score": 0, "won": False,
            "keep_playing": False, "moves": 0}  # fmt: skip
    game, tiles = PlayedGame.replayed_record(1, five, ["right", "down"], VARIANTS[5], None)
    assert game.variant == VARIANTS[5] and game.moves == 2 and len(tiles) == 2
    with pytest.raises(InvalidState, match="size 4"):
        PlayedGame.replayed_record(1, five, ["right", "down"], CLASSIC, None)


def test_a_days_record_replays_by_its_history_and_any_other_by_its_moves_numbers():
    game = played(PlayedGame.begin("D" * 16, 77, CLASSIC, seed_chosen=False, day="2026-12-05"), 40)
    by_day, _ = PlayedGame.replayed_record(77, None, game.directions, CLASSIC, "2026-12-05")
    assert (by_day.board, by_day.score, by_day.day) == (game.board, game.score, "2026-12-05")
    assert game.verified
    try:  # the same moves on the tiles a plain game on that seed draws
        plain, _ = PlayedGame.replayed_record(77, None, game.directions, CLASSIC, None)
    except InvalidState:  # one of the moves does not move the plain game's board
        return
    assert (plain.board, plain.score) != (game.board, game.score)


@pytest.mark.parametrize(
    "help_given, assisted",
    [({"hints": 1}, True), ({"autoplay": True}, True), ({"undos": 1}, False), ({"restores": 1}, False)],
)
def test_every_kind_of_help_makes_a_game_helped_and_hints_and_autoplay_assisted(help_given, assisted):
    game = server_game()
    assert not game.assisted and not game.helped
    for name, value in help_given.items():
        setattr(game, name, value)
    assert game.helped and game.assisted is assisted
    assert game.verified, "help is counted apart: the game still replays exactly"


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
        {"size": 9},
        {"size": "4"},
        {"size": None},
        {"unknown": 1},
    ],
)  # fmt: skip
def test_a_damaged_copy_is_refused_on_its_way_in(change):
    """What comes back in from outside the store (a sealed copy) is checked before it is read."""
    copy = played(server_game(), 10).to_stored() | change
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
    copy = played(server_game(), 10).to_stored()
    copy["earlier"] = [*copy["earlier"][:-1], position]
    with pytest.raises(InvalidState):
        check_stored(copy)


def test_every_stored_game_passes_the_check_and_reads_back():
    game = played(server_game(), 30)
    game.id, game.fork_of, game.restores, game.undos = "A" * 16, "B" * 16, 2, 1
    assert check_stored(game.to_stored()) == game == PlayedGame.from_stored(game.to_stored())


def test_a_copy_missing_some_keys_is_refused_on_its_way_in():
    copy = server_game().to_stored()
    del copy["hints"]
    with pytest.raises(InvalidState):
        check_stored(copy)


@pytest.mark.parametrize("size", SIZES)
def test_the_tiles_a_game_placed_rebuild_every_position_without_the_seed(size):
    variant = VARIANTS[size]
    game = played(server_game(variant), 300)
    tiles, verified = game.replayed()
    assert verified and len(tiles) == 2 + game.moves
    boards = positions(None, game.directions, tiles, variant)
    replayed = [position.board for position, _tile in Game.replaying(game.seed, None, game.directions, variant)]
    assert boards == replayed and boards[-1] == game.board
    text = tiles_text(tiles, variant)
    assert len(text) == len(tiles) * (1 if size <= 4 else 2) and set(text) <= set("0123456789abcdefghijklmnopqrstuv")
    assert tiles_from_text(text, variant) == tiles


def test_a_restored_game_records_one_tile_a_move():
    start = {"board": [[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4], "score": 0, "won": False, "keep_playing": False,
             "moves": 7}  # fmt: skip
    game = played(restored(start), 30)
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


def test_a_game_stored_before_games_had_an_id_or_a_size_reads_back_as_a_classic_game_without_them():
    game = played(server_game(), 10)
    game.id, game.restores = "A" * 16, 2
    defaulted = {field.encode_name for field in msgspec.structs.fields(StoredGame) if not field.required}
    assert {"id", "restores", "undos", "earlier", "size", "daily"} <= defaulted
    record = {key: value for key, value in game.to_stored().items() if key not in defaulted}
    game = PlayedGame.from_stored(record)
    assert (game.id, game.restores, game.variant) == (None, 0, CLASSIC) and game.verified


@given(st.lists(st.sampled_from(DIRECTIONS), min_size=1, max_size=40), st.integers(1, 40))
def test_directions_taken_off_the_end_leave_the_rest_as_they_were(directions, taken):
    packed = Directions.from_letters("".join(d[0] for d in directions), CLASSIC)
    taken = min(taken, len(directions))
    assert [packed.pop() for _ in range(taken)] == directions[::-1][:taken]
    assert list(packed) == directions[: len(directions) - taken]
    assert packed == Directions.from_letters("".join(d[0] for d in directions[: len(directions) - taken]), CLASSIC)


@pytest.mark.parametrize("size", [3, 4, 7])
def test_undo_goes_back_a_move_with_its_randomness_and_stays_verified(size):
    game = played(server_game(VARIANTS[size]), 12)
    assert not game.over
    before, stored_before = game.to_state(), game.to_stored()
    direction = next(d for d in DIRECTIONS if game.play(d).moved)
    after = game.to_state()
    game.undo()
    assert game.to_state() == before and game.directions == PlayedGame.from_stored(stored_before).directions
    assert game.play(direction).moved and game.to_state() == after, "the same move brings the same tile"
    assert game.undos == 1 and game.verified


def test_undo_goes_back_at_most_the_last_few_moves_and_not_after_the_seed_was_shown():
    game = played(server_game(), 30)
    states = []
    for _ in range(UNDO_DEPTH + 2):
        states.append(game.to_state())
        next(d for d in DIRECTIONS if game.play(d).moved)
    for state in reversed(states[-UNDO_DEPTH:]):
        game.undo()
        assert game.to_state() == state
    with pytest.raises(CannotUndo):
        game.undo()
    game.play(kernel_for(game.variant).valid_moves(game.board)[0])
    copy = PlayedGame.from_stored(game.to_stored())
    assert copy == game and copy.undos == UNDO_DEPTH and len(copy.earlier) == 1
    copy.seed_shown = True
    with pytest.raises(CannotUndo):
        copy.undo()
