"""Sessions: unsigned ids any worker can serve, corrupted entries, and overlapping requests of one session."""

import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from flask import request, session
from werkzeug.test import EnvironBuilder, run_wsgi_app

from app import create_app
from app.games import session as games
from app.store.cookies import COOKIE_SENT
from tests.support.session_lock import holding_the_session_of
from tests.support.states import restorable_state
from tests.support.stored_sessions import (
    database,
    drop_entry,
    entry_count,
    expiry,
    has_entry,
    named_game,
    overwrite_every_entry,
    read_entry,
    write_entry,
)
from tests.support.worker_memory import modules_of_a_new_worker

OPEN_BOARD = [[2, 0, 0, 0], [0, 4, 0, 0], [0, 0, 8, 0], [0, 0, 0, 16]]


def test_the_session_cookie_is_the_bare_random_id_the_store_is_keyed_by(app, client):
    """Nothing is signed: guessing a 256-bit id is the only way in, so workers share no key."""
    client.get("/api/game")
    sid = client.get_cookie("session").value
    assert len(sid) >= 43 and "." not in sid
    assert has_entry(app, "session:" + sid)


def test_a_session_cookie_works_on_every_worker_sharing_the_instance(tmp_path):
    one, two = create_app({"INSTANCE_PATH": tmp_path}), create_app({"INSTANCE_PATH": tmp_path})
    client = one.test_client()
    board = client.get("/api/game").get_json()["board"]
    other = two.test_client()
    other.set_cookie("session", client.get_cookie("session").value)
    assert other.get("/api/game").get_json() == {**client.get("/api/game").get_json()}
    assert other.get("/api/game").get_json()["board"] == board


def test_a_worker_on_the_embedded_store_leaves_the_redis_client_unloaded(tmp_path):
    """Only hosts that keep sessions in Redis pay for its client (8 MB a worker)."""
    assert "redis" not in modules_of_a_new_worker(FLASK_INSTANCE_PATH=str(tmp_path))
    assert "redis" in modules_of_a_new_worker(
        FLASK_INSTANCE_PATH=str(tmp_path), FLASK_SESSION_TYPE="redis", FLASK_REDIS_URL="redis://127.0.0.1:1/0"
    )


def test_a_stray_cookie_that_is_not_utf8_leaves_the_game_playable(app, client):
    """A server hands the Cookie header over as latin-1 bytes; a stray cookie of another app on the
    host may hold any of them, and the game's session is still read beside it."""
    client.post("/api/game", json={"seed": 5})
    environ = EnvironBuilder(path="/api/game").get_environ()  # raw: the test client would re-encode the header
    environ["HTTP_COOKIE"] = f"lang=\xe9\xff; session={client.get_cookie('session').value}"
    body, status, _headers = run_wsgi_app(app, environ, buffered=True)
    assert status == "200 OK"
    assert b'"created":false' in b"".join(body)


def test_session_cookie_is_http_only_and_same_site_lax(client):
    cookie = client.get("/api/game").headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_the_cookie_is_sent_when_new_and_again_once_a_tenth_of_its_lifetime_has_passed(make_app):
    client = make_app(PERMANENT_SESSION_LIFETIME=10).test_client()
    created = client.put("/api/game", json=restorable_state(OPEN_BOARD))
    first = client.get_cookie("session")
    assert "Set-Cookie" in created.headers
    moved = client.post("/api/game/moves", json={"direction": "left"})
    assert moved.get_json()["moved"] is True and "Set-Cookie" not in moved.headers
    assert sorted(v.strip() for v in moved.headers["Vary"].split(",")) == ["Accept-Encoding", "Cookie"]
    time.sleep(1.1)
    renewed = client.post("/api/game/moves", json={"direction": "right"})
    assert "Set-Cookie" in renewed.headers
    assert client.get_cookie("session").value == first.value
    assert client.get_cookie("session").expires > first.expires
    assert client.get("/api/game").get_json()["moves"] == 2


@pytest.mark.parametrize(
    "sent",
    [
        lambda settings: "yesterday",
        lambda settings: ["yesterday", settings],
        lambda settings: [time.time() + 3600, settings],  # a clock that ran ahead
        lambda settings: [time.time(), settings.replace("True", "False")],  # sent with other settings
    ],
    ids=["unreadable", "unreadable time", "future time", "other settings"],
)
def test_a_cookie_not_known_to_be_current_is_sent_again(app, client, sent):
    client.get("/api/game")
    store_id = "session:" + client.get_cookie("session").value
    stored = read_entry(app, store_id)
    with app.test_request_context():  # as a request over plain HTTP sees them
        settings = app.session_interface._cookie_settings(app)
    write_entry(app, store_id, stored | {COOKIE_SENT: sent(settings)})
    reply = client.get("/api/game")
    assert reply.status_code == 200 and reply.get_json()["created"] is False
    assert "Set-Cookie" in reply.headers
    assert "Set-Cookie" not in client.get("/api/game").headers


def test_turning_on_secure_cookies_reaches_players_with_their_next_request(make_app):
    client = make_app().test_client()
    client.post("/api/game", json={"seed": 4})
    secure = make_app(SESSION_COOKIE_SECURE=True).test_client()
    secure.set_cookie("session", client.get_cookie("session").value)
    reply = secure.get("/api/game", base_url="https://localhost")
    assert reply.get_json()["created"] is False
    assert "Secure" in reply.headers["Set-Cookie"]


def test_a_session_emptied_of_its_game_is_deleted_with_its_cookie(make_app):
    app = make_app()

    @app.post("/api/forget")  # only the API opens the session
    def forget():
        session.pop("game")
        return {}

    client = app.test_client()
    client.post("/api/game", json={"seed": 5})
    store_id = "session:" + client.get_cookie("session").value
    assert has_entry(app, store_id)
    forgotten = client.post("/api/forget")
    assert "Expires=Thu, 01 Jan 1970" in forgotten.headers["Set-Cookie"]
    assert not has_entry(app, store_id)
    assert client.get_cookie("session") is None


def test_a_corrupted_game_entry_reads_as_no_game(app, client):
    client.put("/api/game", json=restorable_state(OPEN_BOARD, score=8, moves=4))
    overwrite_every_entry(app, b"\x00\x00\x00\x00garbage")
    reply = client.get("/api/game")
    assert reply.status_code == 200 and reply.get_json()["created"] is True


def test_a_corrupted_game_in_a_readable_session_reads_as_no_game(app, client):
    client.get("/api/game")
    store_id = "session:" + client.get_cookie("session").value
    write_entry(app, store_id, {"game": {"board": "not a board", "seed": -1}})
    reply = client.get("/api/game")
    assert reply.status_code == 200 and reply.get_json()["created"] is True


@pytest.mark.parametrize("game", [
    {"id": "AAAAAAAAAAAAAAAA", "seed_chosen": False, "start": None, "moves": 40},  # no board at all
    {"id": "AAAAAAAAAAAAAAAA", "seed_chosen": False, "start": None, "moves": 40, "board": [[2, 0, 0, 0]] * 4},
])  # fmt: skip
def test_a_stored_game_past_its_early_moves_with_no_board_of_todays_form_never_fails_a_request(app, client, game):
    """The board a game stands on is kept beside its session (app/assistance.py): an entry with no
    board, or one an earlier form wrote as rows, reads as no game, never a 500 or a 503."""
    client.get("/api/game")
    store_id = "session:" + client.get_cookie("session").value
    write_entry(app, store_id, {"game": game})
    for _ in range(2):  # the second finds its session's lock let go
        reply = client.get("/api/game")
        assert reply.status_code == 200, reply.get_json()


def test_a_truncated_entry_reads_as_no_session(app, client):
    client.get("/api/game")
    store_id = "session:" + client.get_cookie("session").value
    overwrite_every_entry(app, app.session_interface.serializer.encode(read_entry(app, store_id))[:7])
    reply = client.get("/api/game")
    assert reply.status_code == 200 and reply.get_json()["created"] is True


def clients_sharing_one_session(app, count):
    first = app.test_client()
    first.put("/api/game", json=restorable_state(OPEN_BOARD))
    cookie = first.get_cookie("session").value
    clients = [first]
    for _ in range(count - 1):
        client = app.test_client()
        client.set_cookie("session", cookie)
        clients.append(client)
    return clients


def slow_loads(monkeypatch, seconds, method=None):
    """Widen the read-change-write window so that unsynchronised requests would collide."""
    load = games.load_game

    def slow():
        game = load()
        if method in (None, request.method):
            time.sleep(seconds)
        return game

    monkeypatch.setattr(games, "load_game", slow)


def test_concurrent_moves_of_one_session_are_each_applied_exactly_once(app, monkeypatch):
    slow_loads(monkeypatch, 0.005)
    clients = clients_sharing_one_session(app, 8)
    directions = ["left", "up", "right", "down"]

    def play(index):
        client = clients[index]
        replies = [client.post("/api/game/moves", json={"direction": directions[(index + n) % 4]}) for n in range(6)]
        return [(r.status_code, r.get_json().get("moved")) for r in replies]

    with ThreadPoolExecutor(len(clients)) as pool:
        results = [outcome for outcomes in pool.map(play, range(len(clients))) for outcome in outcomes]

    assert {status for status, _ in results} <= {200, 409}
    applied = sum(1 for status, moved in results if status == 200 and moved)
    final = clients[0].get("/api/game").get_json()
    assert applied > 0
    assert final["moves"] == applied
    spawned = sum(v for row in final["board"] for v in row) - sum(v for row in OPEN_BOARD for v in row)
    assert 2 * applied <= spawned <= 4 * applied  # one 2 or 4 per applied move, none lost


def test_a_read_overlapping_a_move_never_undoes_it(app, monkeypatch):
    """Every request writes its session back (to push its expiry), a slow GET too."""
    assert app.config["SESSION_REFRESH_EACH_REQUEST"]
    reader, mover = clients_sharing_one_session(app, 2)
    slow_loads(monkeypatch, 0.3, method="GET")
    started = threading.Event()

    def slow_read():
        started.set()
        return reader.get("/api/game")

    with ThreadPoolExecutor(1) as pool:
        read = pool.submit(slow_read)
        started.wait()
        time.sleep(0.05)
        moved = mover.post("/api/game/moves", json={"direction": "left"}).get_json()
        read.result()
    assert moved["moved"] is True
    final = mover.get("/api/game").get_json()
    assert final["moves"] == 1 and final["board"] == moved["board"]


def test_a_move_that_waits_too_long_for_its_session_is_refused_and_changes_nothing(make_app):
    app = make_app(SESSION_LOCK_TIMEOUT=0.2)
    client = app.test_client()
    before = client.put("/api/game", json=restorable_state(OPEN_BOARD))
    with holding_the_session_of(app, client):
        refused = client.post("/api/game/moves", json={"direction": "left"})
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "busy"
    assert client.get("/api/game").get_json()["board"] == before.get_json()["board"]
    assert client.post("/api/game/moves", json={"direction": "left"}).get_json()["moved"] is True


def test_static_files_never_wait_for_the_session(make_app):
    app = make_app(SESSION_LOCK_TIMEOUT=0.2)
    client = app.test_client()
    client.get("/api/game")
    with holding_the_session_of(app, client):
        assert client.get("/static/css/style.css").status_code == 200


def test_a_new_game_gets_a_new_session_id_and_the_old_one_opens_nothing(app, client):
    client.put("/api/game", json=restorable_state(OPEN_BOARD, score=8, moves=4))
    old = client.get_cookie("session").value
    started = client.post("/api/game", json={"seed": 9})
    new = client.get_cookie("session").value
    assert started.status_code == 201 and "Set-Cookie" in started.headers and new != old
    assert not has_entry(app, "session:" + old)
    assert client.get("/api/game").get_json()["board"] == started.get_json()["board"]
    thief = app.test_client()
    thief.set_cookie("session", old)
    assert thief.get("/api/game").get_json()["created"] is True


def from_address(app, address):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def test_opening_pages_from_many_addresses_never_pushes_a_played_game_out(make_app):
    """A full store drops the sessions with no move first: the player's verified game stays."""
    app = make_app(SESSION_STORE_LIMIT=30)
    player = app.test_client()
    player.get("/api/game")
    for direction in ("left", "up", "right", "down", "left"):
        player.post("/api/game/moves", json={"direction": direction})
    for number in range(80):
        assert from_address(app, f"127.0.0.{2 + number % 8}").get("/api/game").status_code == 200
    assert entry_count(app) <= 30
    assert player.post("/api/game/moves", json={"direction": "up"}).status_code == 200
    saved = player.post("/api/records", json={"name": "Ann"}).get_json()
    assert player.get(f"/api/records/{saved['id']}").get_json()["verified"]


def test_when_only_played_games_are_left_the_longest_idle_goes_first(make_app):
    """Idle times told apart to a hundredth of the session lifetime (30 days: some 7 hours): a day here."""
    app = make_app(SESSION_STORE_LIMIT=3)
    players = [app.test_client() for _ in range(3)]
    start = datetime.now(UTC)
    for day, player in enumerate(players):
        with time_machine.travel(start + timedelta(days=day)):
            player.get("/api/game")
            player.post("/api/game/moves", json={"direction": "left"})
            player.post("/api/game/moves", json={"direction": "right"})
    with time_machine.travel(start + timedelta(days=3)):
        players[0].get("/api/game")  # the first player comes back: the second is now idle longest
        app.test_client().get("/api/game")
        statuses = [player.post("/api/game/moves", json={"direction": "up"}).status_code for player in players]
    assert statuses == [200, 404, 200]


def test_a_move_leaves_the_expiry_be_until_it_is_a_hundredth_of_a_lifetime_nearer(make_app):
    """So a move writes only its session's data; the session never lives less than its lifetime."""
    app = make_app()
    player = app.test_client()
    start = datetime.now(UTC)
    with time_machine.travel(start, tick=False):
        player.post("/api/game", json={"seed": 3})
        player.post("/api/game/moves", json={"directions": ["left", "right", "up", "down"]})  # played: kept long
        store_id = "session:" + player.get_cookie("session").value
        first = expiry(app, store_id)
    lifetime = app.permanent_session_lifetime.total_seconds()
    assert first == pytest.approx(start.timestamp() + lifetime * 1.01)
    for hours, moved in [(1, False), (7, False), (7.3, True)]:
        with time_machine.travel(start + timedelta(hours=hours), tick=False):
            player.post("/api/game/moves", json={"directions": ["left", "right", "up", "down"]})
            assert expiry(app, store_id) >= time.time() + lifetime
            assert (expiry(app, store_id) != first) is moved


def test_a_move_whose_session_was_made_room_for_while_it_ran_is_still_kept(app, client, monkeypatch):
    """The store may drop a session's row between its read and its write-back: the write puts it back whole."""
    client.post("/api/game", json={"seed": 5})
    store_id = "session:" + client.get_cookie("session").value
    save_game = games.save_game

    def dropped_meanwhile(game):
        save_game(game)
        drop_entry(app, store_id)

    monkeypatch.setattr(games, "save_game", dropped_meanwhile)
    moved = client.post("/api/game/moves", json={"direction": "up"}).get_json()
    monkeypatch.undo()
    assert moved["moved"] and client.get("/api/game").get_json()["board"] == moved["board"]
    assert named_game(app, store_id) == read_entry(app, store_id)["game"]["id"]


def test_a_session_with_no_move_is_kept_a_short_while_only(make_app):
    app = make_app(UNPLAYED_SESSION_LIFETIME=1)
    idle, player = app.test_client(), app.test_client()
    idle.get("/api/game")
    player.get("/api/game")
    player.post("/api/game/moves", json={"direction": "left"})
    player.post("/api/game/moves", json={"direction": "right"})
    time.sleep(1.5)
    assert idle.get("/api/game").get_json()["created"] is True
    assert player.get("/api/game").get_json()["created"] is False


def test_a_store_file_of_the_earlier_layout_keeps_its_sessions(tmp_path):
    """Sessions stored before sessions were ranked (or named their game) are kept, and count as played."""
    first = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path, "RATELIMIT_ENABLED": False})
    client = first.test_client()
    state = client.post("/api/game", json={"seed": 8}).get_json()
    with closing(sqlite3.connect(database(first))) as db, db:
        rows = db.execute("SELECT id, data, expires FROM sessions").fetchall()
        db.executescript(
            "DROP TABLE sessions; PRAGMA user_version = 0; CREATE TABLE sessions"
            " (id TEXT PRIMARY KEY, data BLOB NOT NULL, expires REAL NOT NULL) WITHOUT ROWID;"
        )
        db.executemany("INSERT INTO sessions VALUES (?, ?, ?)", rows)
    again = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path, "RATELIMIT_ENABLED": False}).test_client()
    assert again.get("/readyz").status_code == 200  # the store file is opened, and brought up to date
    with closing(sqlite3.connect(database(first))) as db:
        assert db.execute("SELECT played FROM sessions").fetchall() == [(1,)]
    again.set_cookie("session", client.get_cookie("session").value)
    assert again.get("/api/game").get_json()["board"] == state["board"]
    with closing(sqlite3.connect(database(first))) as db:  # its next write names the game it holds
        assert [len(game) for (game,) in db.execute("SELECT game FROM sessions")] == [16]
