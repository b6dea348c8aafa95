"""Today's game through the API: the same board for everyone, a fair attempt, commit then reveal,
and the day's leaderboard. The clock is moved with time-machine: the day, its end, its seed's reveal.

Each test runs on SQLite and on a real PostgreSQL server (the records' conftest).
"""

import hashlib
import random
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import time_machine

from app.engine import DIRECTIONS, Game, pack
from app.engine.sliding import move
from tests.support.client_play import hall_of_fame, save
from tests.support.foresight import foretelling, foretold_share, state_and_copy
from tests.support.stored_sessions import forget

DAY = datetime(2026, 3, 14, 9, 30, tzinfo=UTC)
TODAY = "2026-03-14"
MIDNIGHT = datetime(2026, 3, 15, tzinfo=UTC)
REVEALED = MIDNIGHT + timedelta(hours=1, seconds=1)  # DAILY_REVEAL_DELAY is an hour


@pytest.fixture(autouse=True)
def clock():
    """Every test starts on the morning of DAY; ``clock.move_to`` moves it."""
    with time_machine.travel(DAY, tick=True) as traveller:
        yield traveller


def start(client, **kwargs):
    reply = client.post("/api/daily", json={}, **kwargs)
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def moving(state, rng):
    """A random direction that moves ``state``'s board, or None when the game is over."""
    board = pack(state["board"])
    choices = [direction for direction in DIRECTIONS if move(board, direction)[0] != board]
    return rng.choice(choices) if choices else None


def step(client, direction, **kwargs):
    """One move: the state after it and the tile it brought (row, col, value)."""
    answer = client.post("/api/game/moves", json={"direction": direction}, **kwargs).get_json()
    spawned = answer["animation"]["spawned"]
    return answer, (spawned["row"], spawned["col"], spawned["value"])


def finish(client, rng):
    """Play the session's day's game to its end (on past 2048)."""
    state = client.get("/api/game").get_json()
    while not state["over"]:
        if state["won"] and not state["keep_playing"]:
            state = client.post("/api/game/keep-playing", json={}).get_json()
        state, _tile = step(client, moving(state, rng))
    return state


def test_the_same_directions_give_the_same_boards_in_two_sessions(make_records_app):
    app = make_records_app()
    one, other = app.test_client(), app.test_client()
    first, second = start(one), start(other)
    assert first["board"] == second["board"] and first["daily"] == second["daily"] == TODAY
    rng = random.Random(7)
    for _ in range(60):
        direction = moving(first, rng)
        if direction is None:
            break
        first, _ = step(one, direction)
        second, _ = step(other, direction)
        assert first["board"] == second["board"] and first["score"] == second["score"]


def fours_shared(one, other, moves, pair):
    """Moves at which two games, each moving its own random way from a different first move, both
    got a 4, and the moves compared. (Games that played the same moves so far get the same tiles.)
    Each ``pair`` moves its own ways: the day's attempts all start on one board, so pairs that moved
    alike would be one sample counted many times."""
    shared = compared = 0
    rng_one, rng_other = random.Random(2 * pair), random.Random(2 * pair + 1)
    while compared < moves:
        one_direction, other_direction = moving(one.state, rng_one), moving(other.state, rng_other)
        while compared == 0 and other_direction == one_direction:
            other_direction = moving(other.state, rng_other)
        if one_direction is None or other_direction is None:
            break
        shared += one.play(one_direction) == other.play(other_direction) == 4
        compared += 1
    return shared, compared


def beyond_chance(pairs):
    """Whether the pairs' shared fours pass what independent draws give (1 % a move) by 4 standard deviations."""
    shared, compared = map(sum, zip(*pairs, strict=True))
    expected = compared * 0.01
    return shared > expected + 4 * (expected * 0.99) ** 0.5, f"{shared} shared fours in {compared} moves"


class Attempt:
    """A day's game through the API; ``play`` answers the value of the tile the move brought."""

    def __init__(self, client):
        self.client, self.state = client, start(client)

    def play(self, direction):
        self.state, (_row, _col, value) = step(self.client, direction)
        return value


class Local:
    """A game of the engine, played the same way (for the control: tiles keyed on the move's number)."""

    def __init__(self, seed):
        self.game = Game.new(seed)
        self.state = self.game.to_state()

    def play(self, direction):
        value = self.game.play(direction).spawned[2]
        self.state = self.game.to_state()
        return value


def test_attempts_that_move_differently_share_no_more_fours_than_chance(make_records_app):
    """Keyed on the moves so far, a different line's tiles tell nothing: two attempts that move their
    own ways both get a 4 at about 1 % of moves (10 % each), as independent draws do. Keyed on the
    move's number, as other games are, they would share far more: the control shows the test can fail."""
    app = make_records_app()
    pairs, moves_each = 8, 150
    attempts = [
        fours_shared(Attempt(app.test_client()), Attempt(app.test_client()), moves_each, pair) for pair in range(pairs)
    ]
    beyond, told = beyond_chance(attempts)
    assert not beyond, told
    control, told = beyond_chance([fours_shared(Local(seed), Local(seed), moves_each, seed) for seed in range(pairs)])
    assert control, f"the control: {told}"


@pytest.mark.parametrize("route", ["/api/game/hint", "/api/game/autoplay", "/api/game/undo"])
def test_hint_auto_play_and_undo_are_refused_in_todays_game(client, route):
    state = start(client)
    state, _ = step(client, moving(state, random.Random(1)))
    reply = client.post(route, json={})
    assert reply.status_code == 409
    assert reply.get_json()["error"]["code"] == "daily_without_help"
    after = client.get("/api/game").get_json()
    assert after["moves"] == state["moves"] == 1 and after["board"] == state["board"] and not after["helped"]


def test_a_browsers_first_attempt_of_the_day_is_ranked_and_the_next_is_practice(client):
    assert client.get("/api/daily").get_json()["next_ranked"] is True
    assert start(client)["ranked"] is True
    assert client.get("/api/daily").get_json()["next_ranked"] is False
    assert start(client)["ranked"] is False
    with time_machine.travel(MIDNIGHT + timedelta(minutes=1), tick=True):  # a new day: a new first attempt
        assert start(client)["ranked"] is True


def test_an_address_has_at_most_its_limit_of_ranked_attempts_a_day(make_records_app):
    app = make_records_app(DAILY_ADDRESS_LIMIT=2)
    browsers = [app.test_client() for _ in range(3)]  # new cookies each: new browsers
    assert [start(browser)["ranked"] for browser in browsers] == [True, True, False]
    elsewhere = app.test_client()
    assert start(elsewhere, environ_base={"REMOTE_ADDR": "127.0.0.2"})["ranked"] is True


def test_new_daily_games_from_one_address_are_rate_limited(make_records_app):
    app = make_records_app(RATELIMIT_ENABLED=True, DAILY_GAME_RATE_LIMIT="2 per minute")
    client = app.test_client()
    start(client)
    start(client)
    refused = client.post("/api/daily", json={})
    assert refused.status_code == 429 and refused.headers["Retry-After"]
    assert client.get("/api/game").get_json()["daily"] == TODAY  # the attempt in play stays


def test_a_finished_daily_record_keeps_its_seed_and_moves_secret_until_the_day_is_revealed(client, clock):
    start(client)
    finished = finish(client, random.Random(3))
    record_id = save(client)
    shown = client.get(f"/api/records/{record_id}").get_json()
    assert shown["over"] and shown["daily"] == TODAY and shown["ranked"] and shown["verified"]
    assert shown["replay"] == {"seed": None, "start": None, "directions": None, "tiles": None}
    assert client.get(f"/api/records/{record_id}/review?from=0").get_json()["error"]["code"] == "daily_secret"
    assert client.get(f"/api/records/{record_id}/mistakes").status_code == 409
    board = client.get("/api/daily/leaderboard").get_json()
    assert [row["id"] for row in board["records"]] == [record_id] and board["seed"] is None
    assert board["records"][0]["score"] == finished["score"] and board["par"] is None
    commitment = client.get("/api/daily").get_json()["commitment"]

    clock.move_to(MIDNIGHT + timedelta(minutes=30))  # the next day, before the reveal
    today = client.get("/api/daily").get_json()
    assert today["date"] == "2026-03-15" and today["previous"]["seed"] is None
    assert today["previous"]["reveals_in"] == 30 * 60
    assert client.get(f"/api/records/{record_id}").get_json()["replay"]["seed"] is None

    clock.move_to(REVEALED)
    previous = client.get("/api/daily").get_json()["previous"]
    assert previous["date"] == TODAY and previous["commitment"] == commitment
    assert hashlib.sha256(previous["seed"].encode("ascii")).hexdigest() == commitment
    replay = client.get(f"/api/records/{record_id}").get_json()["replay"]
    assert replay["seed"] == previous["seed"] and replay["start"] is None
    replayed = Game.replay(int(replay["seed"]), None, [{"u": "up", "d": "down", "l": "left", "r": "right"}[letter]
                                                  for letter in replay["directions"]], by_history=True)  # fmt: skip
    assert replayed.to_state()["board"] == finished["board"] and replayed.score == finished["score"]
    assert client.get(f"/api/records/{record_id}").get_json()["verified"]
    yesterday = client.get(f"/api/daily/leaderboard?date={TODAY}").get_json()
    assert [row["id"] for row in yesterday["records"]] == [record_id] and yesterday["seed"] == previous["seed"]
    assert client.get(f"/api/records/{record_id}/mistakes").status_code == 200


def test_a_game_in_play_when_its_day_ends_can_be_finished_ranked_until_its_seed_is_revealed(client, clock):
    state = start(client)
    rng = random.Random(5)
    for _ in range(5):
        state, _ = step(client, moving(state, rng))
    clock.move_to(MIDNIGHT + timedelta(minutes=10))
    assert client.get("/api/daily").get_json()["game"]["daily"] == TODAY
    finish(client, rng)
    record_id = save(client)
    listed = client.get(f"/api/daily/leaderboard?date={TODAY}").get_json()["records"]
    assert [row["id"] for row in listed] == [record_id]
    assert client.get("/api/daily/leaderboard").get_json()["records"] == []  # the new day's is empty


def test_a_game_of_a_revealed_day_moves_no_more(client, clock):
    state = start(client)
    state, _ = step(client, moving(state, random.Random(2)))
    clock.move_to(REVEALED)
    refused = client.post("/api/game/moves", json={"direction": moving(state, random.Random(2))})
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "daily_closed"
    assert client.get("/api/game").get_json()["moves"] == 1
    assert client.post("/api/records", json={"name": "Late"}).status_code == 201  # saved as it is


def copy_of(client):
    state = client.get("/api/game").get_json()
    token = client.get("/api/game/token").get_json()["token"]
    return {key: state[key] for key in ("board", "score", "won", "keep_playing", "moves")} | {"token": token}


def test_a_copy_of_a_ranked_attempt_never_becomes_a_second_ranked_attempt(make_records_app, clock):
    app = make_records_app()
    player, other = app.test_client(), app.test_client()
    state = start(player)
    state, _ = step(player, moving(state, random.Random(4)))
    copy = copy_of(player)
    forked = other.put("/api/game", json=copy).get_json()  # the player's session still holds it: a fork
    assert forked["daily"] == TODAY and forked["ranked"] is False and forked["board"] == state["board"]
    forget(app, player.get_cookie("session").value)  # the server forgets the player's session
    back = player.put("/api/game", json=copy).get_json()
    assert back["daily"] == TODAY and back["ranked"] is False  # practice, on that position
    clock.move_to(REVEALED)
    late = app.test_client().put("/api/game", json=copy).get_json()
    assert "daily" not in late  # its day's seed is known: a copy gives a fork, on tiles of its own


def line_of_tiles(client, directions):
    """Play ``directions`` in the session's day's game, each that still moves it: [(board before,
    direction, tile it brought)]."""
    state, line = client.get("/api/game").get_json(), []
    for direction in directions:
        board = pack(state["board"])
        if move(board, direction)[0] == board:
            continue
        after, tile = step(client, direction)
        line.append((state["board"], direction, tile))
        state = after
    return line


def explore_by_copies(client, steps, rng):
    """A cheat's practice: at each position, every direction tried and taken back by putting the
    sealed copy back, then one played on: {(board, direction): tile} for every try."""
    seen = {}
    for _ in range(steps):
        state, token = state_and_copy(client)
        for direction in DIRECTIONS:
            board = pack(state["board"])
            if move(board, direction)[0] != board:
                seen[(str(state["board"]), direction)] = step(client, direction)[1]
                client.put("/api/game", json=state | {"token": token})
        if (direction := moving(state, rng)) is None:
            break
        seen[(str(state["board"]), direction)] = step(client, direction)[1]
    return seen


def test_a_practice_line_foretells_nothing_of_a_ranked_attempt(make_records_app):
    """Practice starts on the day's board but draws its later tiles from a secret of its own: a ranked
    attempt from a new browser playing the practice's very directions meets tiles it named no more
    often than a guess would (keyed on the day's line, as ranked attempts are, it would name all)."""
    app = make_records_app()
    player = app.test_client()
    first = start(player)
    practice = start(player)
    assert first["ranked"] and not practice["ranked"] and practice["board"] == first["board"]
    rng = random.Random(12)
    line = line_of_tiles(player, [rng.choice(DIRECTIONS) for _ in range(60)])
    ranked = app.test_client()
    assert start(ranked)["ranked"]
    played = line_of_tiles(ranked, [direction for _board, direction, _tile in line])
    hits, at_chance = foretold_share(played, foretelling(line))
    assert len(played) >= 30 and at_chance, f"{hits} of {len(played)} tiles foretold"


def test_practice_explored_by_putting_its_copy_back_foretells_nothing_of_a_ranked_attempt(make_records_app):
    """Every direction tried at every step of a practice, each taken back with its sealed copy: the
    tiles a ranked attempt from a new browser then meets along the explored line are named at chance."""
    app = make_records_app()
    cheat = app.test_client()
    start(cheat)
    assert not start(cheat)["ranked"]
    seen = explore_by_copies(cheat, 25, random.Random(3))
    ranked = app.test_client()
    assert start(ranked)["ranked"]
    rng, played = random.Random(3), []
    for _ in range(25):  # the line the cheat explored, direction for direction
        state = ranked.get("/api/game").get_json()
        if (direction := moving(state, rng)) is None:
            break
        played += line_of_tiles(ranked, [direction])
    hits, at_chance = foretold_share(played, seen)
    assert at_chance, f"{hits} of {len(played)} tiles foretold"


def test_a_fork_of_a_ranked_attempt_is_practice_and_foretells_nothing(make_records_app):
    app = make_records_app()
    player, other = app.test_client(), app.test_client()
    start(player)
    copy = copy_of(player)
    fork = other.put("/api/game", json=copy).get_json()  # the player's session holds the game: a fork
    assert fork["daily"] == TODAY and fork["ranked"] is False
    rng = random.Random(6)
    line = line_of_tiles(other, [rng.choice(DIRECTIONS) for _ in range(60)])
    played = line_of_tiles(player, [direction for _board, direction, _tile in line])
    hits, at_chance = foretold_share(played, foretelling(line))
    assert len(played) >= 30 and at_chance, f"{hits} of {len(played)} tiles foretold"
    assert player.get("/api/game").get_json()["ranked"] is True


@pytest.mark.parametrize("first_page", [{"X-Game": "daily"}, {}])
def test_a_browser_has_one_ranked_attempt_whichever_of_its_cookies_asks(client, first_page):
    """The daily page's session and the game page's are two cookies of one browser: one ranked attempt."""
    second_page = {} if first_page else {"X-Game": "daily"}
    assert start(client, headers=first_page)["ranked"] is True
    assert client.get("/api/daily", headers=second_page).get_json()["next_ranked"] is False
    assert start(client, headers=second_page)["ranked"] is False
    assert client.get("/api/game", headers=first_page).get_json()["ranked"] is True  # each page keeps its game


def test_a_ranked_record_is_never_rewritten_by_a_copy_of_its_game_put_back(make_records_app):
    """The move-0 copy of a finished ranked game whose session is gone, put back and saved, makes a
    record of its own: the ranked record stays as it was, ranked, on the leaderboard."""
    app = make_records_app()
    player = app.test_client()
    start(player)
    first_copy = copy_of(player)
    finish(player, random.Random(2))
    record_id = save(player, "Ranked")
    ranked = app.test_client().get(f"/api/records/{record_id}").get_json()
    forget(app, player.get_cookie("session").value)
    back = player.put("/api/game", json=first_copy).get_json()
    assert back["moves"] == 0 and back["ranked"] is False
    other_id = save(player, "Copy")
    assert other_id != record_id
    assert app.test_client().get(f"/api/records/{record_id}").get_json() == ranked
    rows = app.test_client().get("/api/daily/leaderboard").get_json()["records"]
    assert [(row["id"], row["ranked"]) for row in rows] == [(record_id, True)]


HINTER = {"REMOTE_ADDR": "127.0.0.50"}


def typed_in_and_hinted(app, board, address):
    """A board typed into a free game (no sealed copy) and the solver asked about it, from ``address``."""
    helper = app.test_client()
    typed = {"board": board, "score": 0, "won": False, "keep_playing": False, "moves": 0}
    assert helper.put("/api/game", json=typed, environ_base=address).status_code == 200
    assert helper.post("/api/game/hint", json={}, environ_base=address).status_code == 200


def test_ranked_attempts_on_one_line_are_not_marked_by_a_strangers_hint_on_its_board(make_records_app):
    """Ranked attempts that play the same directions stand on the same boards, by design: a hint asked
    there from another address marks neither (else anyone could knock honest players off the board)."""
    app = make_records_app(SOLVER_BUDGET_MS=5)
    rng = random.Random(21)
    line = [rng.choice(DIRECTIONS) for _ in range(60)]
    players = [app.test_client() for _ in range(2)]
    for number, player in enumerate(players):
        start(player, environ_base={"REMOTE_ADDR": f"127.0.0.{60 + number}"})
        played = line_of_tiles(player, line)
    assert len(played) >= 25
    board = players[1].get("/api/game").get_json()["board"]
    assert players[0].get("/api/game").get_json()["board"] == board  # one line, one board
    typed_in_and_hinted(app, board, HINTER)
    for number, player in enumerate(players):
        finish(player, random.Random(number))
        save(player, f"Honest {number}")
    rows = app.test_client().get("/api/daily/leaderboard").get_json()["records"]
    assert [row["helped"] for row in rows] == [False, False]


def test_a_ranked_attempt_that_reaches_a_board_its_address_asked_about_is_marked_when_saved(make_records_app):
    """The scout: one ranked attempt plays a line, the solver is asked about its boards from the same
    address (the scout gone on, so no game stands there), and a second ranked attempt from that address
    follows the line: it is helped, and off the day's leaderboard."""
    app = make_records_app(SOLVER_BUDGET_MS=5)
    address = {"REMOTE_ADDR": "127.0.0.70"}
    scout, attempt = app.test_client(), app.test_client()
    start(scout, environ_base=address)
    rng = random.Random(8)
    line = line_of_tiles(scout, [rng.choice(DIRECTIONS) for _ in range(40)])
    asked = [board for board, _direction, _tile in line[25:28]]
    for board in asked:
        typed_in_and_hinted(app, board, address)
    assert start(attempt, environ_base=address)["ranked"]
    line_of_tiles(attempt, [direction for _board, direction, _tile in line])
    finish(attempt, random.Random(1))
    shown = app.test_client().get(f"/api/records/{save(attempt, 'Follower')}").get_json()
    assert shown["ranked"] and shown["helped"] and shown["help"]["hints"] == len(asked)
    assert app.test_client().get("/api/daily/leaderboard").get_json()["records"] == []


def test_the_daily_pages_game_has_a_session_of_its_own(client):
    """The daily page's requests say X-Game: daily: the game in progress on the game page stays put."""
    page = {"X-Game": "daily"}
    client.post("/api/game", json={})
    normal, _ = step(client, moving(client.get("/api/game").get_json(), random.Random(1)))
    daily = start(client, headers=page)
    daily, _ = step(client, moving(daily, random.Random(2)), headers=page)
    assert client.get("/api/game").get_json()["board"] == normal["board"]
    assert client.get("/api/game", headers=page).get_json()["board"] == daily["board"]
    assert client.get("/api/daily", headers=page).get_json()["game"]["daily"] == TODAY
    assert client.get("/api/daily").get_json()["game"] is None


def test_the_hall_of_fame_leaves_the_days_games_to_the_days_leaderboard(client):
    start(client)
    finish(client, random.Random(6))
    record_id = save(client)
    assert record_id not in [row["id"] for row in hall_of_fame(client, "?without_help=0")]
    assert record_id in [row["id"] for row in client.get("/api/daily/leaderboard").get_json()["records"]]


def test_practice_games_are_not_on_the_leaderboard_and_the_best_score_leads(make_records_app):
    app = make_records_app()
    for seed in range(3):
        browser = app.test_client()
        assert start(browser)["ranked"]
        finish(browser, random.Random(seed))
        save(browser, f"Player {seed}")
    practice = app.test_client()
    start(practice)
    start(practice)  # its second: practice
    finish(practice, random.Random(9))
    practice_id = save(practice, "Practice")
    rows = app.test_client().get("/api/daily/leaderboard").get_json()["records"]
    assert practice_id not in [row["id"] for row in rows] and len(rows) == 3
    assert [row["score"] for row in rows] == sorted((row["score"] for row in rows), reverse=True)
    assert all(row["ranked"] and row["over"] and {"max_tile", "moves"} <= row.keys() for row in rows)


@pytest.mark.parametrize("query", ["?date=2026-3-14", "?date=2026-03-15", "?date=soon", "?limit=0"])
def test_a_leaderboard_of_no_such_day_is_refused(client, query):
    assert client.get(f"/api/daily/leaderboard{query}").status_code == 400


def par(app, *args):
    return app.test_cli_runner().invoke(args=["daily", "par", *args])


def test_the_solvers_par_waits_for_the_reveal_and_then_shows_beside_the_leaderboard(make_records_app, clock,
                                                                                    monkeypatch):  # fmt: skip
    """While it plays it says how far it is: in a log (no terminal) a line every LOG_EVERY seconds,
    here every move (moves, score, largest tile, time left)."""
    monkeypatch.setattr("app.par.Progress.LOG_EVERY", 0.0)
    app = make_records_app()
    refused = par(app, TODAY)
    assert refused.exit_code != 0 and "seed is revealed" in refused.output
    clock.move_to(REVEALED)
    played = par(app, "--budget-ms", "1")  # yesterday's, by default
    assert played.exit_code == 0, played.output
    board = app.test_client().get(f"/api/daily/leaderboard?date={TODAY}").get_json()
    assert board["par"] > 0 and f"par of {TODAY}: {board['par']} points" in played.stdout
    assert app.test_client().get("/api/daily/leaderboard").get_json()["par"] is None  # today has none
    said = played.stderr.splitlines()
    assert said[0] == f"playing the game of {TODAY} with the solver, 1 ms a move" and "\r" not in played.stderr
    form = re.compile(r"[\d,]+ moves, [\d,]+ points, largest tile [\d,]+; \d+ moves a second, about \d+ min left"
                      r" in a game of usual length")  # fmt: skip
    assert len(said) > 100 and all(form.fullmatch(line) for line in said[1:]), said[1:3]


def backup_command(app, *args, stdin=None):
    return app.test_cli_runner().invoke(args=["records", *args], input=stdin)


def test_a_backup_keeps_the_days_records_and_an_import_replays_them_from_the_days_seed(make_app, database, tmp_path,
                                                                                      clock):  # fmt: skip
    key = {"SECRET_KEY": "the same key on both"}
    source = make_app(INSTANCE_PATH=tmp_path / "source", **key)
    player = source.test_client()
    start(player)
    finish(player, random.Random(8))
    record_id = save(player, "Daily Dana")
    exported = backup_command(source, "export", "-")
    assert exported.exit_code == 0, exported.output
    (line,) = exported.stdout.splitlines()

    restored = make_app(INSTANCE_PATH=tmp_path / "restored", **database, **key)
    imported = backup_command(restored, "import", "-", stdin=line + "\n")
    assert imported.exit_code == 0, imported.output
    rows = restored.test_client().get("/api/daily/leaderboard").get_json()["records"]
    assert [(row["id"], row["daily"], row["ranked"]) for row in rows] == [(record_id, TODAY, True)]
    assert restored.test_client().get(f"/api/records/{record_id}").get_json()["replay"]["directions"] is None

    other_key = make_app(INSTANCE_PATH=tmp_path / "other", **database, SECRET_KEY="another key")
    refused = backup_command(other_key, "import", "-", stdin=line + "\n")
    assert refused.exit_code == 1 and f"not this server's seed of {TODAY}" in refused.output
    tampered = line.replace('"day":"2026-03-14"', '"day":"2026-03-13"')
    again = make_app(INSTANCE_PATH=tmp_path / "again", **database, **key)
    assert backup_command(again, "import", "-", stdin=tampered + "\n").exit_code == 1

    clock.move_to(REVEALED)
    assert restored.test_client().get(f"/api/records/{record_id}").get_json()["replay"]["seed"] is not None


def test_a_practice_record_goes_through_a_backup_with_its_day(make_app, database, tmp_path):
    """Practice replays from its start, the day's board, on a seed of its own: the import checks it
    so, and keeps its day; a ranked line edited to replay from a start is refused."""
    key = {"SECRET_KEY": "the same key on both"}
    player = make_app(INSTANCE_PATH=tmp_path / "source", **key).test_client()
    start(player)
    assert start(player)["ranked"] is False
    finish(player, random.Random(4))
    record_id = save(player, "Practice")
    exported = backup_command(player.application, "export", "-")
    (line,) = exported.stdout.splitlines()
    restored = make_app(INSTANCE_PATH=tmp_path / "restored", **database, **key)
    imported = backup_command(restored, "import", "-", stdin=line + "\n")
    assert imported.exit_code == 0, imported.output
    shown = restored.test_client().get(f"/api/records/{record_id}").get_json()
    assert (shown["daily"], shown["ranked"], shown["verified"]) == (TODAY, False, False)
    forged = line.replace('"ranked":false', '"ranked":true').replace(record_id, "A" * 16)
    again = backup_command(restored, "import", "-", stdin=forged + "\n")
    assert again.exit_code == 1 and "ranked, yet not a day's game begun new" in again.output


def test_the_docs_check_of_a_daily_record_by_hand_holds(client, clock):
    """docs/api.md's script, run as it is written, its requests asked of the test client."""
    start(client)
    finish(client, random.Random(11))
    record_id = save(client)
    clock.move_to(REVEALED)
    docs = (Path(__file__).parents[3] / "docs" / "api.md").read_text()
    script = docs.split("**Checking a day's record by hand**")[1].split("```python\n")[1].split("```")[0]
    asked = script.replace("RECORD_ID", record_id).replace(
        'json.load(urllib.request.urlopen("https://game.example.org" + path))', "client.get(path).get_json()"
    )
    assert asked.count("client.get") == 1
    exec(compile(asked, "docs/api.md", "exec"), {"client": client})  # its asserts are the check
