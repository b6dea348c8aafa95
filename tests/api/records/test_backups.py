"""flask records export and import: a backup restored into a new database gives the same records,
and a line that its replay does not prove is refused with its number.

The records are made in SQLite; each test imports them into SQLite and into a real PostgreSQL server.
"""

import json
import random
import re
import sqlite3

import pytest

from app import backups
from app.database import db
from tests.api.records.helpers import finish, hall_of_fame, play, save
from tests.states import restorable_state


@pytest.fixture
def source(make_app, tmp_path):
    """An app on SQLite holding records of every kind, and their ids, oldest first."""
    app = make_app(INSTANCE_PATH=tmp_path / "source", REVIEW_RANGE=3)
    client = app.test_client()
    ids = []
    for number in range(3):  # over, so ranked in the hall of fame
        client.post("/api/game", json={})
        finish(client, random.Random(number))
        ids.append(save(client, f"Finisher {number}"))
    client.post("/api/game", json={})
    play(client, 25)
    ids.append(save(client, "Still playing"))
    assert client.get(f"/api/records/{ids[-1]}/review?from=0").status_code == 200  # reviews kept
    client.post("/api/game", json={})
    play(client, 12)
    assert client.post("/api/game/undo", json={}).status_code == 200
    assert client.post("/api/game/hint", json={}).status_code == 200
    ids.append(save(client, "Žofie 🎉"))
    client.put("/api/game", json=restorable_state([[2, 0, 0, 0], [0, 4, 0, 0], [0] * 4, [0, 0, 0, 8]], moves=7))
    finish(client)
    ids.append(save(client, "Restored"))
    return app, ids


def run(app, *args, stdin=None):
    """A ``flask records`` command, as the CLI runs it."""
    return app.test_cli_runner().invoke(args=["records", *args], input=stdin)


def exported(app):
    result = run(app, "export", "-")
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def same_records(first, second, ids):
    """Both apps show the same hall of fame (both lists), and each record, review and mistakes alike."""
    one, other = first.test_client(), second.test_client()
    assert hall_of_fame(one) == hall_of_fame(other) and len(hall_of_fame(one)) == 3
    assert hall_of_fame(one, "?unassisted=1") == hall_of_fame(other, "?unassisted=1")
    for record_id in ids:
        for path in ("", "/mistakes"):
            url = f"/api/records/{record_id}{path}"
            reply = other.get(url)
            assert reply.status_code == 200 and reply.get_json() == one.get(url).get_json()
    assert other.get(f"/api/records/{ids[3]}/mistakes").get_json()["analysed"] == 3, "the reviews came along"


def test_a_backup_restored_into_a_new_database_gives_the_same_records(source, make_records_app, tmp_path, monkeypatch):
    app, ids = source
    monkeypatch.setattr("app.backups.BATCH", 4)  # read and committed in batches, the last one short
    backup = tmp_path / "backup.jsonl"
    result = run(app, "export", str(backup))
    assert result.exit_code == 0 and result.stderr == f"exported {len(ids)} records\n"
    lines = [json.loads(line) for line in backup.read_text().splitlines()]
    assert [line["id"] for line in lines] == ids, "oldest first, one line a record"
    assert all(isinstance(line["seed"], int) for line in lines), "the seed, game over or not: a backup is the host's"
    restored = make_records_app(INSTANCE_PATH=tmp_path / "restored")
    result = run(restored, "import", str(backup))
    assert result.exit_code == 0 and result.stderr == f"imported {len(ids)}, skipped 0, refused 0\n"
    same_records(app, restored, ids)
    assert exported(restored) == backup.read_text().splitlines(), "exported again, the same file"


def test_importing_a_backup_again_skips_every_record(source, make_records_app, tmp_path):
    app, ids = source
    backup = "\n".join(exported(app)) + "\n\n"  # blank lines are nothing
    restored = make_records_app(INSTANCE_PATH=tmp_path / "restored")
    assert run(restored, "import", "-", stdin=backup).exit_code == 0
    again = run(restored, "import", "-", stdin=backup)
    assert again.exit_code == 0 and again.stderr == f"imported 0, skipped {len(ids)}, refused 0\n"
    same_records(app, restored, ids)
    line = json.loads(backup.splitlines()[0])
    other = run(restored, "import", "-", stdin=tampered(json.dumps(line), id="A" * 16))  # one record per game
    assert other.exit_code == 1
    refusal = f"line 1: its game {line['game_id']} already has another record here, {ids[0]}"
    assert other.stderr.splitlines()[0] == refusal


def tampered(line, **changes):
    return json.dumps(json.loads(line) | changes)


def test_a_tampered_line_is_refused_with_its_number_and_the_others_go_in(source, make_records_app, tmp_path):
    app, ids = source
    lines = exported(app)
    first, second, _third, unfinished, helped, _restored = (json.loads(line) for line in lines)
    directions = unfinished["directions"]
    swapped = next(letter for letter in "udlr" if letter != directions[-1])
    backup = [
        tampered(lines[0], score=first["score"] + 4),
        "{not json",
        tampered(lines[1], directions=second["directions"][:-1]),
        tampered(lines[2], name=" Admin"),
        tampered(lines[3], directions=directions[:-1] + swapped),
        tampered(lines[4], tiles=("1" if helped["tiles"][0] == "0" else "0") + helped["tiles"][1:]),
        tampered(lines[5], verified=True),
        "[]",
        json.dumps({key: value for key, value in first.items() if key not in ("seed", "tiles")}),
        tampered(lines[5], reviews=[{"position": 10**6, "best": "up", "loss": 0, "scores": {"up": 1}, "mistake": ""}]),
        lines[3],
    ]
    restored = make_records_app(INSTANCE_PATH=tmp_path / "restored")
    result = run(restored, "import", "-", stdin="\n".join(backup))
    assert result.exit_code == 1
    refusals = result.stderr.splitlines()
    assert refusals[-1] == "imported 1, skipped 0, refused 10"
    assert [refusal.split(":")[0] for refusal in refusals[:-1]] == [f"line {n}" for n in range(1, 11)]
    assert refusals[0] == f"line 1: score is {first['score'] + 4}, its replay gives {first['score']}"
    assert refusals[1].startswith("line 2: not JSON")
    assert refusals[2].startswith("line 3: ") and "its replay gives" in refusals[2]
    assert refusals[3] == "line 4: name is not as the server keeps names (in NFKC form, trimmed)"
    assert re.fullmatch(r"line 5: (\w+ is .*, its replay gives .*|move .* does not change the board)", refusals[4])
    assert refusals[5] == "line 6: tiles are not those its replay placed"
    assert refusals[6] == "line 7: verified, yet it does not replay from a new game"
    assert refusals[7] == "line 8: not a JSON object"
    assert refusals[8] == "line 9: missing seed, tiles"
    assert "position" in refusals[9]
    client = restored.test_client()
    assert [client.get(f"/api/records/{record_id}").status_code for record_id in ids] == [404] * 3 + [200] + [404] * 2
    assert hall_of_fame(client) == []


def test_a_direction_the_board_cannot_take_is_refused(source, make_records_app, tmp_path):
    app, _ids = source
    line = json.loads(exported(app)[0])
    letters = line["directions"]
    # A finished game's board cannot move at all: one more direction, whichever, is no move.
    restored = make_records_app(INSTANCE_PATH=tmp_path / "restored")
    result = run(restored, "import", "-", stdin=tampered(json.dumps(line), directions=letters + "u"))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == f"line 1: move {len(letters) + 1} (up) does not change the board"


def test_an_empty_database_exports_an_empty_file(make_records_app, tmp_path):
    empty = make_records_app(INSTANCE_PATH=tmp_path / "empty")
    result = run(empty, "export", str(tmp_path / "backup.jsonl"))
    assert result.exit_code == 0 and result.stderr == "exported 0 records\n"
    assert (tmp_path / "backup.jsonl").read_text() == "", "a backup of nothing is there, and empty"
    assert run(empty, "import", str(tmp_path / "backup.jsonl")).stderr == "imported 0, skipped 0, refused 0\n"


def test_an_export_lets_the_game_save_records_between_its_batches(source, monkeypatch):
    """Each batch is read in a transaction of its own: SQLite's lock is not held while the file is written."""
    app, ids = source
    monkeypatch.setattr("app.backups.BATCH", 2)
    with app.app_context():
        lines = backups.export_lines()
        assert json.loads(next(lines))["id"] == ids[0]
        writer = sqlite3.connect(db.engine.url.database, timeout=0)  # another process: no wait for a lock
        with writer:
            writer.execute("UPDATE records SET name = 'Renamed' WHERE id = ?", (ids[-1],))
        writer.close()
        assert [json.loads(line)["name"] for line in lines][-1] == "Renamed"
