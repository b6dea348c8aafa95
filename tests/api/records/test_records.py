"""/api/records: saving games, reading them back, the hall of fame, limits and outages.

Every test runs twice: on SQLite in the instance folder (the default) and on a real
PostgreSQL server that the tests start.
"""

import importlib.util
import logging
import random
import re
from datetime import datetime
from types import SimpleNamespace

import pytest
import sqlalchemy
from alembic.script import ScriptDirectory
from itsdangerous import URLSafeSerializer

from app.database import MIGRATIONS, SCHEMA_REVISION, db
from app.engine import DIRECTIONS, Game, InvalidState, pack
from tests.support.client import HttpClient
from tests.support.client_play import boards, finish, hall_of_fame, play, save
from tests.support.http_play import play_move
from tests.support.postgres import postgres_server
from tests.support.servers import PROJECT_ROOT, gunicorn_server
from tests.support.states import restorable_state
from tests.support.worker_memory import modules_of_a_new_worker


def test_a_saved_game_reads_back_with_every_field(client):
    state = play(client, 60)
    reply = client.post("/api/records", json={"name": "  Ann Smith  "})
    assert reply.status_code == 201
    saved = reply.get_json()
    assert saved["url"] == f"/records/{saved['id']}"
    record = client.get(f"/api/records/{saved['id']}").get_json()
    assert record["id"] == saved["id"]
    assert record["name"] == "Ann Smith"
    assert record["score"] == state["score"] and record["moves"] == state["moves"] == 60
    assert record["max_tile"] == max(map(max, state["board"]))
    assert (record["verified"], record["helped"], record["assisted"], record["over"]) == (True, False, False, False)
    assert datetime.fromisoformat(record["created"]).utcoffset().total_seconds() == 0
    replay = record["replay"]
    assert replay["start"] is None and len(replay["directions"]) == 60 and len(replay["tiles"]) == 62
    assert replay["seed"] is None, "the game can still move: its seed would tell every tile to come"
    assert set(record) == {"id", "name", "score", "max_tile", "moves", "verified", "helped", "help", "assisted",
                           "restored", "used_undo", "over", "finished", "created", "daily", "ranked", "listed",
                           "size", "replay"}  # fmt: skip
    assert record["size"] == 4
    assert record["help"] == {"hints": 0, "autoplay": False, "undos": 0, "restores": 0}
    assert (record["daily"], record["ranked"]) == (None, False)  # not a day's game


def test_the_replay_of_a_verified_record_reproduces_the_game(client):
    state = play(client, 150)
    assert boards(client.get(f"/api/records/{save(client)}").get_json())[-1] == state["board"]


def numbers_in(value):
    """Every whole number a player can read in an answer: its numbers, and the digits in its text."""
    if isinstance(value, dict):
        return {n for item in value.items() for part in item for n in numbers_in(part)}
    if isinstance(value, list):
        return {n for item in value for n in numbers_in(item)}
    if isinstance(value, str):
        return {int(digits) for digits in re.findall(r"[0-9]+", value)}
    return {value} if isinstance(value, int) else set()


def test_nothing_a_player_reads_of_a_saved_unfinished_game_tells_its_tiles_to_come(client):
    """The seed decides every tile: no answer of the session, its sealed copy, the record, its
    positions or its review may hold it while the game can still move (nor after a second save)."""
    rng = random.Random(5)
    answers = [client.get("/api/game").get_json()]
    for _ in range(40):
        answers.append(client.post("/api/game/moves", json={"direction": rng.choice(DIRECTIONS)}).get_json())
    token = client.get("/api/game/token").get_json()
    answers += [token, URLSafeSerializer("not the server's key").loads_unsafe(token["token"])[1]]
    for name in ("Ann", "Ann again"):
        saved = client.post("/api/records", json={"name": name}).get_json()
        record = client.get(f"/api/records/{saved['id']}").get_json()
        hint = client.post("/api/game/hint", json={}).get_json()
        answers += [saved, record, client.get("/api/records").get_json(), hint]
        answers += [client.get(f"/api/records/{saved['id']}/{path}").get_json() for path in ("review", "mistakes")]
    state = client.get("/api/game").get_json()
    assert not record["over"] and record["verified"] and not state["over"]
    by_letter = {direction[0]: direction for direction in DIRECTIONS}
    directions = [by_letter[letter] for letter in record["replay"]["directions"]]
    numbers = numbers_in(answers)
    assert len(numbers) > 50
    for seed in numbers:
        if 0 <= seed < 2**63:
            try:
                replayed = Game.replay(seed, None, directions)
            except InvalidState:
                continue
            assert replayed.board != pack(state["board"]), f"{seed} replays the game: it tells every tile to come"


def test_a_finished_games_record_shows_the_seed_that_replays_it_exactly(client):
    state = finish(client, random.Random(11))
    assert state["over"]
    replay = client.get(f"/api/records/{save(client)}").get_json()["replay"]
    by_letter = {direction[0]: direction for direction in DIRECTIONS}
    game = Game.replay(int(replay["seed"]), replay["start"], [by_letter[letter] for letter in replay["directions"]])
    assert game.to_state() == state | {"size": 4, "goal": 2048}


def test_a_finished_game_is_saved_as_finished(client):
    rng = random.Random(11)
    state = finish(client, rng)
    assert state["over"]
    record = client.get(f"/api/records/{save(client)}").get_json()
    assert record["over"] and record["verified"] and record["moves"] == state["moves"]


def test_a_forged_state_never_becomes_verified_nor_enters_the_hall_of_fame(client):
    forged = restorable_state(board=[[65536, 32768, 0, 0], [0] * 4, [0] * 4, [0] * 4], score=3_000_000, won=True,
                              keep_playing=True, moves=5000)  # fmt: skip
    assert client.put("/api/game", json=forged).status_code == 200
    play(client, 20)
    record = client.get(f"/api/records/{save(client, 'Mallory')}").get_json()
    assert record["verified"] is False
    assert record["replay"]["start"] == {key: forged[key] for key in ("board", "score", "won", "keep_playing", "moves")}
    assert hall_of_fame(client, "?without_help=0") == []


def test_a_game_on_a_seed_the_client_chose_is_not_verified(client):
    client.post("/api/game", json={"seed": 123})
    play(client, 30)
    record = client.get(f"/api/records/{save(client)}").get_json()
    assert record["verified"] is False and record["replay"]["seed"] is None
    assert hall_of_fame(client, "?without_help=0") == []


def test_restoring_midway_makes_a_verified_game_unverified(client):
    state = play(client, 10)
    client.put("/api/game", json={key: state[key] for key in ("board", "score", "won", "keep_playing", "moves")})
    assert client.get(f"/api/records/{save(client)}").get_json()["verified"] is False


def test_hints_and_autoplay_make_a_game_assisted(make_records_app):
    app = make_records_app()
    solo, hinted, robot = (app.test_client() for _ in range(3))
    for client in (solo, hinted, robot):
        client.post("/api/game", json={})
    assert hinted.post("/api/game/hint", json={}).status_code == 200
    assert robot.post("/api/game/autoplay", json={}).status_code == 200
    ids = {}
    for name, client in (("Solo", solo), ("Hinted", hinted), ("Robot", robot)):
        finish(client, random.Random(name))
        ids[name] = save(client, name)
    assisted = {record["id"]: record["assisted"] for record in hall_of_fame(solo, "?without_help=0")}
    assert assisted == {ids["Solo"]: False, ids["Hinted"]: True, ids["Robot"]: True}
    assert [record["id"] for record in hall_of_fame(solo, "?without_help=1")] == [ids["Solo"]]
    helps = {record["id"]: record["help"] for record in hall_of_fame(solo, "?helped=1")}
    assert helps == {ids["Hinted"]: {"hints": 1, "autoplay": False, "undos": 0, "restores": 0},
                     ids["Robot"]: {"hints": 0, "autoplay": True, "undos": 0, "restores": 0}}  # fmt: skip


def test_without_help_means_one_thing_in_the_filter_and_in_each_record(make_records_app):
    """A record's ``helped`` is what the hall of fame leaves out unless asked (``?helped=1`` lists only
    those, ``?without_help=0`` every game): undo too, not only the solver's help (``assisted``). The
    former names, ``unassisted=1`` and ``finished``, still work."""
    app = make_records_app()
    solo, undoer = app.test_client(), app.test_client()
    for client in (solo, undoer):
        client.post("/api/game", json={})
    play(undoer, 3)
    assert undoer.post("/api/game/undo", json={}).status_code == 200
    ids = {}
    for name, client in (("Solo", solo), ("Undoer", undoer)):
        finish(client, random.Random(name))
        ids[name] = save(client, name)
    listed = {record["id"]: record for record in hall_of_fame(solo, "?without_help=0")}
    assert {ids[name]: listed[ids[name]]["helped"] for name in ids} == {ids["Solo"]: False, ids["Undoer"]: True}
    assert listed[ids["Undoer"]]["assisted"] is False  # no hint or auto-play: the solver did not help
    assert all(record["over"] is record["finished"] is True for record in listed.values())
    current = [record["id"] for record in hall_of_fame(solo, "?without_help=1")]
    assert current == [ids["Solo"]] == [record["id"] for record in hall_of_fame(solo, "?unassisted=1")]
    assert current == [record["id"] for record in hall_of_fame(solo)]
    assert [record["id"] for record in hall_of_fame(solo, "?helped=1")] == [ids["Undoer"]]


def test_the_hall_of_fame_lists_verified_records_best_score_first(make_records_app):
    app = make_records_app()
    scores = {}
    for seed in (5, 40, 20):
        client = app.test_client()
        state = finish(client, random.Random(seed))
        scores[save(client)] = state["score"]
    records = hall_of_fame(app.test_client())
    assert [record["id"] for record in records] == sorted(scores, key=scores.get, reverse=True)
    assert "replay" not in records[0]
    assert len(hall_of_fame(app.test_client(), "?limit=2")) == 2


@pytest.mark.parametrize(
    # Digits of other kinds: superscript two, fullwidth one, circled one.
    "query", ["?limit=0", "?limit=101", "?limit=x", "?limit=-1", "?without_help=yes", "?unassisted=yes",
              "?limit=\u00b2", "?limit=\uff11",
              "?limit=\u2460"],
)
def test_bad_hall_of_fame_queries_are_400(client, query):
    reply = client.get(f"/api/records{query}")
    assert reply.status_code == 400 and reply.get_json()["error"]["code"].startswith("invalid_")


@pytest.mark.parametrize(
    "body",
    [{"name": ""}, {"name": "   "}, {"name": "x" * 25}, {"name": "a\nb"}, {"name": "a\x00"}, {"name": "\u202eevil"},
     {"name": 5}, {"name": None}, {}, {"name": "Ann", "score": 10**9}],
)  # fmt: skip
def test_bad_names_and_bodies_are_400_and_save_nothing(client, body):
    play(client, 3)
    reply = client.post("/api/records", json=body)
    assert reply.status_code == 400
    assert hall_of_fame(client, "?without_help=0") == []


def test_names_are_kept_as_typed_up_to_24_characters(client):
    play(client, 3)
    for name in ("x" * 24, "<b>Žluťoučký kůň</b>", "🐉"):
        assert client.get(f"/api/records/{save(client, name)}").get_json()["name"] == name


@pytest.mark.parametrize(
    "name",
    ["\u3164", "\u2800\u2800", "\u115f\u1160", "Ann\u2028Bo", "Ann\u2029Bo", "e" + "\u0301" * 23, "a\u200db",
     "\u200b", "\u200d\U0001f468"],
    ids=["Hangul filler", "blank Braille", "Hangul fillers", "line separator", "paragraph separator",
         "23 combining marks", "joiner between letters", "zero-width space", "joiner first"],
)
def test_names_that_show_nothing_or_pile_marks_are_400(client, name):
    play(client, 3)
    reply = client.post("/api/records", json={"name": name})
    assert reply.status_code == 400 and reply.get_json()["error"]["code"] == "invalid_name"


def test_names_are_read_in_their_compatibility_form_and_whole_emoji_sequences_are_kept(client):
    play(client, 3)
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
    flag, keycap, wave = "\U0001f3f3\ufe0f\u200d\U0001f308", "1\ufe0f\u20e3", "\U0001f44b\U0001f3fd"
    for name in (family, flag, keycap, wave, "Ti\u1ebfng Vi\u1ec7t"):
        assert client.get(f"/api/records/{save(client, name)}").get_json()["name"] == name
    fullwidth = "\uff41\uff44\uff4d\uff49\uff4e"
    assert client.get(f"/api/records/{save(client, fullwidth)}").get_json()["name"] == "admin"


def test_saving_without_a_game_is_404(client):
    reply = client.post("/api/records", json={"name": "Ann"})
    assert reply.status_code == 404 and reply.get_json()["error"]["code"] == "no_game"


@pytest.mark.parametrize("record_id", ["AAAAAAAAAAAAAAAA", "short", "x" * 200, "AAAAAAAAAAAAAAA'"])
def test_unknown_records_are_404(client, record_id):
    reply = client.get(f"/api/records/{record_id}")
    assert reply.status_code == 404 and reply.get_json()["error"]["code"] == "no_record"


def test_record_ids_are_random_and_unguessable(client):
    ids = []
    for _ in range(20):
        client.post("/api/game", json={})
        play(client, 2)
        ids.append(save(client))
    assert len(set(ids)) == 20
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{16}", record_id) for record_id in ids)  # 96 random bits


def test_saves_are_limited_per_session_and_per_address(make_records_app):
    limits = {"RECORD_SESSION_LIMIT": "2 per minute", "RECORD_ADDRESS_LIMIT": "3 per minute",
              "API_RATE_LIMIT": "10000 per second"}  # fmt: skip
    app = make_records_app(RATELIMIT_ENABLED=True, **limits)
    first, second = app.test_client(), app.test_client()
    for player in (first, second):
        finish(player)
    assert [first.post("/api/records", json={"name": "A"}).status_code for _ in range(3)] == [201, 200, 429]
    assert [second.post("/api/records", json={"name": "B"}).status_code for _ in range(2)] == [201, 429]
    refused = second.post("/api/records", json={"name": "B"})
    assert refused.get_json()["error"]["code"] == "too_many_requests" and "Retry-After" in refused.headers
    assert len(hall_of_fame(first, "?without_help=0")) == 2  # one record per game


def server_env(database, tmp_path):
    """The environment of a server on ``database`` with its instance folder in ``tmp_path``."""
    return {"FLASK_INSTANCE_PATH": str(tmp_path / "instance")} | {f"FLASK_{k}": v for k, v in database.items()}


def test_a_record_survives_a_restart_of_the_server(database, tmp_path):
    """Two gunicorn workers migrate the same fresh database at start; a restart keeps the record."""
    env = server_env(database, tmp_path) | {"WEB_CONCURRENCY": "2"}
    with gunicorn_server(env=env) as server:
        client = HttpClient(server.url)
        assert client.get("/api/game").status == 200
        for _ in range(3):
            play_move(client)
        saved = client.post("/api/records", json={"name": "Ann"})
        assert saved.status == 201, saved.body
    with gunicorn_server(env=env) as server:
        record = HttpClient(server.url).get(f"/api/records/{saved.json()['id']}")
        assert record.status == 200 and record.json()["moves"] == 3


def test_a_worker_on_an_up_to_date_database_leaves_alembic_unloaded(database, tmp_path):
    """Alembic is loaded to migrate, not to check: a worker whose schema is current saves its 12 MB."""
    env = server_env(database, tmp_path)
    assert "alembic" in modules_of_a_new_worker(**env)  # the first: it creates the tables
    assert "alembic" not in modules_of_a_new_worker(**env)


def test_gunicorn_makes_the_schema_before_its_workers_start(database, tmp_path, monkeypatch):
    """gunicorn.conf.py's hook migrates in a process of its own, so no worker has to (and keep Alembic)."""
    env = server_env(database, tmp_path)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    gunicorn_settings().on_starting(SimpleNamespace(log=logging.getLogger("gunicorn.error")))
    assert "alembic" not in modules_of_a_new_worker(**env)


def test_the_revision_the_app_checks_for_is_the_newest_migration():
    assert ScriptDirectory(str(MIGRATIONS)).get_current_head() == SCHEMA_REVISION


def test_flask_db_works_on_a_database_that_needed_no_migration(make_records_app):
    """``flask db`` loads Flask-Migrate itself when the app had no migration to run."""
    make_records_app()
    app = make_records_app()
    cli = app.test_cli_runner()
    with app.app_context():
        assert cli.invoke(args=["db", "downgrade", "base"]).exit_code == 0
        assert not sqlalchemy.inspect(db.engine).has_table("records")
        assert cli.invoke(args=["db", "upgrade"]).exit_code == 0
        assert sqlalchemy.inspect(db.engine).has_table("records")


def gunicorn_settings():
    spec = importlib.util.spec_from_file_location("gunicorn_settings", PROJECT_ROOT / "gunicorn.conf.py")
    settings = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(settings)
    return settings


def test_with_the_database_down_records_are_503_and_the_game_plays_on(make_app, tmp_path):
    app = make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path}/missing/folder/records.db")
    client = app.test_client()
    play(client, 2)
    for reply in (client.post("/api/records", json={"name": "Ann"}), client.get("/api/records"),
                  client.get("/api/records/AAAAAAAAAAAAAAAA")):  # fmt: skip
        assert reply.status_code == 503
        assert reply.get_json()["error"]["code"] == "records_unavailable" and int(reply.headers["Retry-After"]) > 0
    moved = client.post("/api/game/moves", json={"directions": list(DIRECTIONS)})
    assert moved.status_code == 200 and moved.get_json()["moves"] > 2


def test_postgresql_going_down_and_up_again(make_app, tmp_path):
    """Started while PostgreSQL is down, the app plays on; once it is up the schema is made and records work."""
    with postgres_server() as server:
        url = server.create_database("records")
        server.stop()
        app = make_app(SQLALCHEMY_DATABASE_URI=url)
        client = app.test_client()
        play(client, 4)
        refused = client.post("/api/records", json={"name": "Ann"})
        assert refused.status_code == 503 and "Retry-After" in refused.headers
        server.start()
        record_id = save(client)
        server.stop()
        assert client.get(f"/api/records/{record_id}").status_code == 503
        assert client.post("/api/game/moves", json={"directions": list(DIRECTIONS)}).status_code == 200
        server.start()
        assert client.get(f"/api/records/{record_id}").get_json()["moves"] == 4


def test_the_password_in_pgpassword_reaches_postgresql_whatever_its_characters(make_app, postgres, monkeypatch):
    """compose gives the app the database password as PGPASSWORD (libpq reads it): no URL escaping."""
    password = "p@ss:w/rd?#%"
    admin = sqlalchemy.create_engine(postgres.url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sqlalchemy.text(f"CREATE ROLE player LOGIN PASSWORD '{password}'"))
        connection.execute(sqlalchemy.text("CREATE DATABASE player_records OWNER player"))
    admin.dispose()
    postgres.require_password("player")
    url = f"postgresql+psycopg://player@127.0.0.1:{postgres.port}/player_records"

    monkeypatch.setenv("PGPASSWORD", "not" + password)
    refused = make_app(SQLALCHEMY_DATABASE_URI=url).test_client()
    play(refused, 3)
    assert refused.post("/api/records", json={"name": "Ann"}).status_code == 503

    monkeypatch.setenv("PGPASSWORD", password)
    client = make_app(SQLALCHEMY_DATABASE_URI=url).test_client()
    play(client, 3)
    assert client.get(f"/api/records/{save(client)}").get_json()["moves"] == 3
