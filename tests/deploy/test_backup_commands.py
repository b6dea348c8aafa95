"""A backup as a host takes it: 1,000 records made in SQLite, written by the real ``flask records
export`` command, read by ``flask records import`` into a real PostgreSQL server; an app on
PostgreSQL then shows the same hall of fame and every record the same, and a tampered line in the
file is refused with its line number. All traffic to 127.0.0.1."""

import json
import random
import string
import subprocess
import sys

import pytest

from app import create_app, records
from app.engine import CLASSIC, DIRECTIONS, VARIANTS, Game
from app.engine.history import Directions
from app.games.played import PlayedGame
from tests.support import image
from tests.support.client_play import boards
from tests.support.postgres import postgres_server
from tests.support.servers import PROJECT_ROOT, server_env
from tests.support.states import restorable_state

pytestmark = pytest.mark.slow
RECORDS = 1000
ID_LETTERS = string.ascii_letters + string.digits + "-_"


@pytest.fixture(scope="module")
def postgres():
    with postgres_server() as server:
        yield server


def flask(*args, env, stdin=None):
    """``flask --app app ARGS`` in a process of its own, run from the checkout as a host runs it."""
    argv = [sys.executable, "-m", "flask", "--app", "app", *args]
    return subprocess.run(argv, env=server_env(env), cwd=PROJECT_ROOT, input=stdin, capture_output=True, text=True,
                          encoding="utf-8", timeout=300)  # fmt: skip


def made_game(rng, number):
    """A game played with random moves by the engine: every kind a record can hold, most of them over,
    some of them on a 3x3 or 5x5 board."""
    if number % 10 == 9:  # put back from a state: replays from there, never verified
        start = restorable_state([[2, 0, 0, 0], [0, 0, 4, 0], [0] * 4, [0, 0, 0, 8]], moves=3)
        game = PlayedGame.from_state(start, rng.getrandbits(63))
    else:
        variant = {3: VARIANTS[3], 6: VARIANTS[5]}.get(number % 17, CLASSIC)
        game = PlayedGame.new(rng.getrandbits(63), variant=variant, seed_chosen=number % 10 == 8)
    game.id = "".join(rng.choices(ID_LETTERS, k=16)) if number % 50 else None
    moves = 10**6 if number % 3 else rng.randrange(5, 60)  # two in three played to the end
    while game.moves < moves and not game.over:
        game.keep_playing = game.won
        game.play(rng.choice(DIRECTIONS))
    if number % 7 == 0 and game.earlier and not game.over:
        game.undo()
    game.hints, game.autoplay = (number % 11 == 0) * 3, number % 13 == 0
    return game


def same_api(source, copy, ids):
    """The hall of fame (every list a player can ask for) and each record, as the API shows them."""
    one, other = source.test_client(), copy.test_client()
    for query in ("?limit=100", "?limit=100&without_help=1", "", "?size=3&without_help=0", "?size=5&limit=100"):
        ranked = one.get(f"/api/records{query}").get_json()
        assert ranked["records"] and other.get(f"/api/records{query}").get_json() == ranked
    for record_id in ids:
        shown = other.get(f"/api/records/{record_id}").get_json()
        assert shown == one.get(f"/api/records/{record_id}").get_json()
        replay = shown["replay"]
        if replay["seed"] is not None:  # over: the seed shows, and replays the game from it
            variant = VARIANTS[shown["size"]]
            directions = Directions.from_letters(replay["directions"], variant)
            game = Game.replay(int(replay["seed"]), replay["start"], directions, variant)
            assert (game.score, game.moves, game.over) == (shown["score"], shown["moves"], True)
            assert boards(shown)[-1] == game.to_state()["board"]


def test_a_thousand_records_go_from_sqlite_to_postgresql_and_a_tampered_line_is_refused(postgres, tmp_path):
    source = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "source", "RATELIMIT_ENABLED": False})
    rng = random.Random(32)
    with source.app_context():
        ids = [records.save(made_game(rng, number), f"Player {number} 🎲")[0].id for number in range(RECORDS)]

    backup = tmp_path / "backup.jsonl"
    exported = flask("records", "export", str(backup), env={"FLASK_INSTANCE_PATH": tmp_path / "source"})
    assert exported.returncode == 0 and exported.stderr.endswith(f"exported {RECORDS} records\n"), exported.stderr
    lines = backup.read_text().splitlines()
    assert len(lines) == RECORDS and {json.loads(line)["id"] for line in lines} == set(ids)

    url = postgres.create_database("restored")
    target = {"FLASK_INSTANCE_PATH": tmp_path / "target", "FLASK_SQLALCHEMY_DATABASE_URI": url}
    imported = flask("records", "import", str(backup), env=target)
    assert imported.returncode == 0, imported.stderr
    assert imported.stderr.endswith(f"imported {RECORDS}, skipped 0, refused 0\n")
    restored = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "target", "SQLALCHEMY_DATABASE_URI": url,
                           "RATELIMIT_ENABLED": False})  # fmt: skip
    same_api(source, restored, ids)

    again = flask("records", "import", "-", env=target, stdin=backup.read_text())  # standard input
    assert again.returncode == 0 and again.stderr.endswith(f"imported 0, skipped {RECORDS}, refused 0\n")

    line = json.loads(lines[499])
    line["score"] += 4
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join([*lines[:499], json.dumps(line), *lines[500:]]) + "\n")
    fresh = {**target, "FLASK_SQLALCHEMY_DATABASE_URI": postgres.create_database("tampered")}
    refused = flask("records", "import", str(tampered), env=fresh)
    assert refused.returncode == 1
    assert refused.stderr.splitlines()[-2:] == [
        f"line 500: score is {line['score']}, its replay gives {line['score'] - 4}",
        f"imported {RECORDS - 1}, skipped 0, refused 1",
    ]


def test_the_documented_commands_run_as_in_the_image(built_image, tmp_path):
    """docs/deployment.md's export and import (``-``: docker exec's pipes), with the image's flask,
    WORKDIR and ENV, the app installed from its wheel: a backup restored there exports the same lines."""
    rng = random.Random(12)
    with create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "source"}).app_context():
        for number in range(30):
            records.save(made_game(rng, number), "Ann")

    def in_image(instance, *args, stdin=None):
        argv = [built_image.bin / "flask", "--app", "app", "records", *args]
        return subprocess.run(argv, env=server_env(image.env(instance)), cwd=built_image.workdir, input=stdin,
                              capture_output=True, text=True, encoding="utf-8", timeout=300)  # fmt: skip

    exported = in_image(tmp_path / "source", "export", "-")
    assert exported.returncode == 0 and exported.stderr.endswith("exported 30 records\n"), exported.stderr
    imported = in_image(tmp_path / "restored", "import", "-", stdin=exported.stdout)
    assert imported.returncode == 0 and imported.stderr.endswith("imported 30, skipped 0, refused 0\n")
    assert in_image(tmp_path / "restored", "export", "-").stdout == exported.stdout
