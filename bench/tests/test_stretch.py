"""The stretch benchmark plays every start, spawn seed and cut-off it promises, from the right positions."""

import json

import pytest

from app.engine import CLASSIC, Game, max_tile
from bench import solver as solver_bench
from bench import stretch


@pytest.fixture(scope="module")
def stored_run(tmp_path_factory):
    path = tmp_path_factory.mktemp("run") / "run.json"
    solver_bench.main(["--games", "2", "--seed", "5", "--max-moves", "120", "--budget-ms", "2", "--json", str(path)])
    return path


def test_a_start_is_the_first_position_of_a_stored_game_that_holds_the_tile(stored_run):
    games = json.loads(stored_run.read_text())["per_game"]
    starts = stretch.start_positions(games, 32)
    assert [seed for seed, _ in starts] == [5, 6]
    for (seed, state), stored in zip(starts, games, strict=True):
        there = solver_bench.replay(seed, stored["directions"][: state["moves"]])
        before = solver_bench.replay(seed, stored["directions"][: state["moves"] - 1])
        assert there.to_state() == state
        assert max_tile(there.board, CLASSIC) >= 32 > max_tile(before.board, CLASSIC)


def test_games_that_never_held_the_tile_give_no_start(stored_run):
    assert stretch.start_positions(json.loads(stored_run.read_text())["per_game"], 65536) == []


def test_each_trial_is_played_with_every_cut_off_on_the_same_spawns(stored_run, tmp_path, capsys):
    path = tmp_path / "stretch.json"
    summary = stretch.main([
        "--games", str(stored_run), "--budget-ms", "2", "--cuts", "1e-4,1e-2", "--spawns", "2",
        "--from-tile", "32", "--to-tile", "128", "--json", str(path),
    ])  # fmt: skip
    document = json.loads(path.read_text())
    assert document["starts"] == [5, 6] and document["command"].startswith("python -m bench.stretch --games")
    assert document["cuts"] == summary and set(summary) == {"0.0001", "0.01"}
    pairs = {cut: sorted((t["start"], t["spawn_seed"]) for t in document["trials"] if t["cut"] == float(cut))
             for cut in summary}  # fmt: skip
    assert pairs["0.0001"] == pairs["0.01"] == [(5, 5000), (5, 5001), (6, 6000), (6, 6001)]
    for cut, result in summary.items():
        assert result["trials"] == 4 and result["ms_per_move"] > 0
        assert result["lost"] == sum(not t["reached"] for t in document["trials"] if t["cut"] == float(cut))
    assert "cut 0.01: lost" in capsys.readouterr().out


def test_a_trial_ends_at_the_tile_and_replays_from_its_start(stored_run):
    games = json.loads(stored_run.read_text())["per_game"]
    (seed, state), _ = stretch.start_positions(games, 32)
    played = stretch.trial(seed, state, 30, 1e-4, 2, 128)
    assert played["reached"] and played["moves"] == len(played["directions"]) > 0
    replayed = stretch.replay(seed, 30, played["directions"], games, from_tile=32)
    assert max_tile(replayed.board, CLASSIC) == 128 and replayed.moves == state["moves"] + played["moves"]


def test_a_trial_on_a_lost_board_is_lost_at_once():
    checkerboard = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
    lost = Game.new(seed=3).to_state() | {"board": checkerboard, "over": True}
    assert stretch.trial(3, lost, 30, 1e-4, 2, 64) | {"seconds": 0} == {
        "start": 3, "spawn_seed": 30, "cut": 1e-4, "reached": False, "moves": 0, "seconds": 0, "directions": "",
    }  # fmt: skip
