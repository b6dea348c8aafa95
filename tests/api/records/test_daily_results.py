"""The day's results beside the leaderboard: equal scores share a rank, the spread of largest tiles,
the solver's score after as many moves as a player's game, and the archive of revealed days, each
playable again, never ranked. The clock is moved with time-machine (test_daily's ``clock``)."""

import random
from types import SimpleNamespace

import pytest

from app import par as par_module
from app.engine import DIRECTIONS, Game
from app.engine.sliding import move
from tests.support.client_play import save

from .test_daily import REVEALED, TODAY, clock, finish, start  # noqa: F401 (clock: the fixture, autouse)


def ranked_game(app, name, seed, address):
    """A browser's ranked attempt, from its own address, played to its end by ``Random(seed)``'s moves."""
    browser = app.test_client()
    assert start(browser, environ_base={"REMOTE_ADDR": address})["ranked"]
    state = finish(browser, random.Random(seed))
    return save(browser, name), state


def leaderboard(app, day=TODAY):
    return app.test_client().get(f"/api/daily/leaderboard?date={day}").get_json()


def test_equal_scores_share_a_rank_listed_by_name_whoever_finished_first(make_records_app):
    """Three players moving alike get the same game, so the same score: one rank for the three, shown
    the same whatever order they finished in; the next score's rank counts them all."""
    app = make_records_app()
    games = {name: ranked_game(app, name, 5, f"10.0.0.{number}") for number, name in enumerate(["Cleo", "Ann", "Bea"])}
    other_id, other = ranked_game(app, "Dan", 1, "10.0.0.9")
    tied_score = games["Ann"][1]["score"]
    assert other["score"] != tied_score, "Random(1) happens to tie: pick another"
    rows = leaderboard(app)["records"]
    tied = [row for row in rows if row["score"] == tied_score]
    assert [row["name"] for row in tied] == ["Ann", "Bea", "Cleo"]
    (dan,) = [row for row in rows if row["id"] == other_id]
    if other["score"] > tied_score:
        assert dan["rank"] == 1 and {row["rank"] for row in tied} == {2}
    else:
        assert {row["rank"] for row in tied} == {1} and dan["rank"] == 4
    assert [row["rank"] for row in rows] == sorted(row["rank"] for row in rows)


def test_the_spread_counts_the_ranked_games_over_by_largest_tile(make_records_app):
    app = make_records_app()
    tiles = [ranked_game(app, f"P{seed}", seed, f"10.0.1.{seed}")[1] for seed in range(4)]
    practice = app.test_client()
    start(practice, environ_base={"REMOTE_ADDR": "10.0.1.0"})  # that browser's first: ranked, left unplayed
    start(practice, environ_base={"REMOTE_ADDR": "10.0.1.0"})  # its second: practice, not counted
    finish(practice, random.Random(9))
    save(practice, "Practice")
    expected = {}
    for state in tiles:
        largest = str(max(map(max, state["board"])))
        expected[largest] = expected.get(largest, 0) + 1
    assert leaderboard(app)["tiles"] == expected
    assert leaderboard(app, "2026-03-13")["tiles"] == {}


def first_moving(board):
    """A par stand-in that is quick and foreseeable: the first direction that moves the board."""
    return next(direction for direction in DIRECTIONS if move(board, direction)[0] != board)


def test_each_row_shows_the_solvers_score_after_as_many_moves(make_records_app, clock, monkeypatch):  # noqa: F811
    app = make_records_app()
    record_id, state = ranked_game(app, "Ann", 3, "10.0.2.1")
    assert leaderboard(app)["records"][0]["par"] is None  # no par before the day is revealed and played
    nothing = app.test_client().get(f"/api/daily/par?date={TODAY}&moves=10").get_json()
    assert nothing == {"date": TODAY, "moves": 10, "score": None, "par": None}
    quick = lambda board, _budget: SimpleNamespace(direction=first_moving(board))  # noqa: E731
    monkeypatch.setattr(par_module, "_suggestion", quick)
    clock.move_to(REVEALED)
    played = app.test_cli_runner().invoke(args=["daily", "par", TODAY])
    assert played.exit_code == 0, played.output
    solver = Game.new(int(leaderboard(app)["seed"]), by_history=True)
    after = {0: 0}
    while not solver.over:
        if solver.won and not solver.keep_playing:
            solver.choose_keep_playing()
        solver.play(first_moving(solver.board))
        after[solver.moves] = solver.score
    board = leaderboard(app)
    assert board["par"] == solver.score
    (row,) = board["records"]
    assert row["id"] == record_id and row["moves"] == state["moves"]
    assert row["par"] == after.get(state["moves"], solver.score)  # past the solver's end: its whole game
    for moves in (0, 1, solver.moves // 2, solver.moves, solver.moves + 5):
        beside = app.test_client().get(f"/api/daily/par?date={TODAY}&moves={moves}").get_json()
        assert beside == {"date": TODAY, "moves": moves, "score": after.get(moves, solver.score), "par": solver.score}
    assert app.test_client().get(f"/api/daily/par?date={TODAY}&moves=-1").status_code == 400


def test_the_archive_lists_the_revealed_days_newest_first(make_records_app, clock):  # noqa: F811
    app = make_records_app()
    ranked_game(app, "Ann", 2, "10.0.3.1")
    client = app.test_client()
    assert client.get("/api/daily/archive").get_json()["days"][0]["date"] == "2026-03-13"  # today is not revealed
    clock.move_to(REVEALED)
    days = client.get("/api/daily/archive?limit=3").get_json()["days"]
    assert [day["date"] for day in days] == [TODAY, "2026-03-13", "2026-03-12"]
    assert days[0] == {"date": TODAY, "commitment": leaderboard(app)["commitment"], "seed": leaderboard(app)["seed"],
                       "ranked": 1, "par": None}  # fmt: skip
    assert isinstance(days[1]["seed"], str) and days[1]["ranked"] == 0
    assert client.get("/api/daily/archive?limit=0").status_code == 400


def test_a_revealed_day_is_played_again_on_its_board_and_tiles_never_ranked(make_records_app, clock):  # noqa: F811
    app = make_records_app()
    player = app.test_client()
    assert start(player, environ_base={"REMOTE_ADDR": "10.0.4.1"})["archive"] is False
    ranked = finish(player, random.Random(4))
    ranked_id = save(player, "Ann")
    clock.move_to(REVEALED)
    assert player.get("/api/daily").get_json()["game"]["archive"] is False  # the day's own game, closed now
    again = app.test_client()
    reply = again.post("/api/daily", json={"date": TODAY}, environ_base={"REMOTE_ADDR": "10.0.4.1"})
    assert reply.status_code == 201, reply.get_json()
    started = reply.get_json()
    assert (started["daily"], started["ranked"], started["archive"]) == (TODAY, False, True)
    assert again.get("/api/daily").get_json()["game"]["archive"] is True
    state = finish(again, random.Random(4))  # the same moves as the ranked game: the same tiles
    assert (state["board"], state["score"], state["moves"]) == (ranked["board"], ranked["score"], ranked["moves"])
    shown = again.get(f"/api/records/{save(again, 'Ann again')}").get_json()
    assert (shown["daily"], shown["ranked"], shown["verified"]) == (TODAY, False, False)
    assert [row["id"] for row in leaderboard(app)["records"]] == [ranked_id]


@pytest.mark.parametrize(("date", "status", "code"), [("2026-03-15", 409, "not_revealed"),
                                                      ("2026-03-16", 400, "invalid_date"),
                                                      ("15.3.2026", 400, "invalid_date")])  # fmt: skip
def test_a_day_not_revealed_is_not_played_from_the_archive(client, clock, date, status, code):  # noqa: F811
    clock.move_to(REVEALED)
    reply = client.post("/api/daily", json={"date": date})
    assert reply.status_code == status and reply.get_json()["error"]["code"] == code
