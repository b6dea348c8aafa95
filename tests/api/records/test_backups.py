"""flask records export and import: a backup restored into a new database gives the same records,
and a line that its replay does not prove is refused with its number.

The records are made in SQLite; each test imports them into SQLite and into a real PostgreSQL server.
"""

import json
import random
import re
import sqlite3

import pytest
from sqlalchemy import select

from app import backups
from app.database import Review, db
from tests.support.client_play import finish, hall_of_fame, play, save
from tests.support.states import restorable_state


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
    assert hall_of_fame(one, "?without_help=0") == hall_of_fame(other, "?without_help=0")
    assert len(hall_of_fame(one, "?without_help=0")) == 3
    for query in ("", "?helped=1"):
        assert hall_of_fame(one, query) == hall_of_fame(other, query)
    for record_id in ids:
        for path in ("", "/mistakes"):
            url = f"/api/records/{record_id}{path}"
            reply, answer = other.get(url), one.get(url).get_json()
            # Where a review goes on ("next") depends on each server's FLASK_REVIEW_RANGE, not on the record.
            assert reply.status_code == 200 and reply.get_json() | {"next": None} == answer | {"next": None}
    assert other.get(f"/api/records/{ids[3]}/mistakes").get_json()["analysed"] == 3, "the reviews came along"


def test_a_backup_restored_into_a_new_database_gives_the_same_records(source, make_records_app, tmp_path, monkeypatch):
    app, ids = source
    monkeypatch.setattr("app.backups.READ_BATCH", 4)  # read in batches, the last one short
    monkeypatch.setattr("app.backups.BATCH", 4)  # and committed in batches
    backup = tmp_path / "backup.jsonl"
    result = run(app, "export", str(backup))
    assert result.exit_code == 0 and result.stderr.splitlines() == [f"exporting the records of {url(app)}",
                                                                    f"exported {len(ids)} records"]  # fmt: skip
    lines = [json.loads(line) for line in backup.read_text().splitlines()]
    assert [line["id"] for line in lines] == ids, "oldest first, one line a record"
    assert all(line["seed"].isdigit() for line in lines), "every seed, in decimal: a backup is the host's"
    restored = make_records_app(INSTANCE_PATH=tmp_path / "restored")
    result = run(restored, "import", str(backup))
    said = [f"importing into the records of {url(restored)}", f"imported {len(ids)}, skipped 0, refused 0"]
    assert result.exit_code == 0 and result.stderr.splitlines() == said
    same_records(app, restored, ids)
    assert exported(restored) == backup.read_text().splitlines(), "exported again, the same file"


def test_importing_a_backup_again_skips_every_record(source, make_records_app, tmp_path):
    app, ids = source
    backup = "\n".join(exported(app)) + "\n\n"  # blank lines are nothing
    restored = make_records_app(INSTANCE_PATH=tmp_path / "restored")
    assert run(restored, "import", "-", stdin=backup).exit_code == 0
    again = run(restored, "import", "-", stdin=backup)
    assert again.exit_code == 0 and again.stderr.endswith(f"\nimported 0, skipped {len(ids)}, refused 0\n")
    same_records(app, restored, ids)
    line = json.loads(backup.splitlines()[0])
    other = run(restored, "import", "-", stdin=tampered(json.dumps(line), id="A" * 16))  # one record per game
    assert other.exit_code == 1
    refusal = f"line 1: its game {line['game_id']} already has another record here, {ids[0]}"
    assert other.stderr.splitlines()[1] == refusal


def url(app):
    with app.app_context():
        return db.engine.url.render_as_string(hide_password=True)


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
    refusals = result.stderr.splitlines()[1:]
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
    assert hall_of_fame(client, "?without_help=0") == []


def test_a_direction_the_board_cannot_take_is_refused(source, make_records_app, tmp_path):
    app, _ids = source
    line = json.loads(exported(app)[0])
    letters = line["directions"]
    # A finished game's board cannot move at all: one more direction, whichever, is no move.
    restored = make_records_app(INSTANCE_PATH=tmp_path / "restored")
    result = run(restored, "import", "-", stdin=tampered(json.dumps(line), directions=letters + "u"))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[1] == f"line 1: move {len(letters) + 1} (up) does not change the board"


def test_an_empty_database_exports_an_empty_file(make_records_app, tmp_path):
    make_records_app(INSTANCE_PATH=tmp_path / "empty")  # the server, at its start, made the database
    empty = make_records_app(INSTANCE_PATH=tmp_path / "empty")  # the command, in a process of its own
    result = run(empty, "export", str(tmp_path / "backup.jsonl"))
    assert result.exit_code == 0 and result.stderr.endswith("\nexported 0 records\n")
    assert (tmp_path / "backup.jsonl").read_text() == "", "a backup of nothing is there, and empty"
    assert run(empty, "import", str(tmp_path / "backup.jsonl")).stderr.endswith("\nimported 0, skipped 0, refused 0\n")


def test_an_export_that_finds_no_records_database_fails_and_writes_nothing(make_records_app, tmp_path):
    """The command made the database it was to read: it is not the server's (another folder, another URL)."""
    nowhere = make_records_app(INSTANCE_PATH=tmp_path / "elsewhere")
    result = run(nowhere, "export", str(tmp_path / "backup.jsonl"))
    assert result.exit_code == 1 and "there is no records database here" in result.stderr
    assert result.stderr.startswith(f"exporting the records of {url(nowhere)}\n")
    assert not (tmp_path / "backup.jsonl").exists()
    if url(nowhere).startswith("sqlite"):
        assert not (tmp_path / "elsewhere" / "records.db").exists(), "nor is an empty database left for the next"


def test_an_export_lets_the_game_save_records_between_its_batches(source, monkeypatch):
    """Each batch is read in a transaction of its own: SQLite's lock is not held while the file is written."""
    app, ids = source
    monkeypatch.setattr("app.backups.READ_BATCH", 2)
    with app.app_context():
        lines = backups.export_lines()
        assert json.loads(next(lines))["id"] == ids[0]
        writer = sqlite3.connect(db.engine.url.database, timeout=0)  # another process: no wait for a lock
        with writer:
            writer.execute("UPDATE records SET name = 'Renamed' WHERE id = ?", (ids[-1],))
        writer.close()
        assert [json.loads(line)["name"] for line in lines][-1] == "Renamed"


def test_hostile_lines_are_each_refused_by_number_and_the_good_ones_go_in(source, make_records_app, tmp_path,
                                                                           monkeypatch):  # fmt: skip
    """What an attacker or a broken editor could put in a backup: each line is refused whole before
    anything of it is written, the command goes on, and no route answers 5xx afterwards."""
    app, ids = source
    monkeypatch.setattr("app.backups.MAX_LINE", 100_000)
    lines = exported(app)
    unfinished = json.loads(lines[3])
    review = unfinished["reviews"][0]

    def with_review(**changes):
        return tampered(lines[3], reviews=[review | changes])

    hostile = {
        with_review(loss=float("nan")): "holds NaN",
        "[" * 200_000: "longer than 100000 bytes",
        "[" * 90_000 + "]" * 9_000: "nested too deeply",
        with_review(scores={"up": float("nan")}): "holds NaN",
        with_review(loss=float("inf")): "holds Infinity",
        lines[3].replace(f'"loss":{json.dumps(review["loss"])}', '"loss":1e400', 1): "a number too large",
        with_review(scores={review["best"]: True}): "a score that is not a finite number",
        with_review(scores={review["best"]: 10**400}): "a score that is not a finite number",
        with_review(best=["up"]): "no scores by direction",
        tampered(lines[3], reviews="all of them"): "reviews must be a list",
        tampered(lines[0], score=str(json.loads(lines[0])["score"])): "score is",
        tampered(lines[0], name=12345): "name",
        tampered(lines[0], directions=123): "directions must be",
        tampered(lines[0], tiles=None): "tiles must be",
        tampered(lines[0], start=[[[[1]]]]): "",
        tampered(lines[0], hints=2**70): "hints must be",
        tampered(lines[0], created=5): "created must be",
        tampered(lines[0], game_id=7): "a game id",
        tampered(lines[0], id=["x"]): "id must be",
    }
    backup = [lines[1], *hostile, lines[2], lines[3]]
    restored = make_records_app(INSTANCE_PATH=tmp_path / "restored")
    result = run(restored, "import", "-", stdin="\n".join(backup) + "\n")
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output[-2000:]
    said = result.stderr.splitlines()[1:]
    assert said[-1] == f"imported 3, skipped 0, refused {len(hostile)}"
    for number, (refusal, why) in enumerate(zip(said[:-1], hostile.values(), strict=True), 2):
        assert refusal.startswith(f"line {number}: ") and why in refusal, refusal
    client = restored.test_client()
    for record_id in ids[1:4]:
        for path in ("", "/review?from=0", "/mistakes"):
            assert client.get(f"/api/records/{record_id}{path}").status_code == 200
        assert client.get(f"/records/{record_id}").status_code == 200
    assert [client.get(f"/api/records/{record_id}").status_code for record_id in (ids[0], *ids[4:])] == [404] * 3


def test_a_line_that_is_not_utf8_is_refused_by_its_number_and_every_other_line_goes_in(source, make_records_app,
                                                                                      tmp_path):  # fmt: skip
    """One undecodable byte, after good lines of the same batch and before another: the lines read
    before it are kept, and so is the one after."""
    app, ids = source
    lines = [line.encode() for line in exported(app)]
    broken = lines[1].replace(b'"name":"', b'"name":"\xff', 1)
    backup = b"\n".join([lines[0], lines[2], broken, lines[3]]) + b"\n"
    restored = make_records_app(INSTANCE_PATH=tmp_path / "restored")
    result = run(restored, "import", "-", stdin=backup)
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output[-2000:]
    said = result.stderr.splitlines()[1:]
    assert len(said) == 2 and said[-1] == "imported 3, skipped 0, refused 1"
    assert said[0].startswith("line 3: not UTF-8 (byte ") and "is 0xff" in said[0], said[0]
    client = restored.test_client()
    assert [client.get(f"/api/records/{record_id}").status_code for record_id in ids[:4]] == [200, 404, 200, 200]


def test_reviews_the_database_holds_unsound_are_analysed_again_never_a_500(source):
    """From before reviews were checked (an old backup's NaN or infinity): the review routes answer."""
    app, ids = source
    record_id = ids[3]  # its first three positions are reviewed
    with app.app_context():
        kept = {review.position: review for review in db.session.scalars(select(Review).filter_by(record_id=record_id))}
        kept[0].loss = float("inf")
        kept[1].scores = {**kept[1].scores, "up": float("nan")}
        kept[2].best = "nowhere"
        db.session.commit()
    client = app.test_client()
    mistakes = client.get(f"/api/records/{record_id}/mistakes")
    assert mistakes.status_code == 200 and all(m["position"] > 2 for m in mistakes.get_json()["mistakes"])
    reviewed = client.get(f"/api/records/{record_id}/review?from=0")
    assert reviewed.status_code == 200
    first = reviewed.get_json()["reviews"][:3]
    assert [review["position"] for review in first] == [0, 1, 2]
    assert all(review["best"] in review["scores"] and review["loss"] < 1e300 for review in first), "analysed again"
