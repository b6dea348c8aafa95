"""Records of every size: those saved before sizes (migration 0009) are classic 4x4 games, and a
record of another size goes through a backup and its review like any."""

import json
import random

import flask_migrate
from sqlalchemy import text

from app import database
from tests.api.test_sizes import play_to_the_end
from tests.support.client_play import hall_of_fame, save


def test_a_record_saved_before_sizes_is_a_four_by_four_after_the_migration(make_records_app):
    app = make_records_app()
    client = app.test_client()
    client.post("/api/game", json={})
    play_to_the_end(client, random.Random(4))
    record_id = save(client)
    with app.app_context():  # the database as 0.2.0 left it: no size column, the record in it
        flask_migrate.downgrade(directory=str(database.MIGRATIONS), revision="0008")
        columns = database.db.session.execute(text("SELECT * FROM records")).keys()
        assert "size" not in columns and database.db.session.execute(text("SELECT count(*) FROM records")).scalar() == 1
        database.db.session.remove()
        app.extensions.pop("records_schema_ready")
    fresh = make_records_app().test_client()  # a new worker brings the schema up to date
    assert [entry["id"] for entry in hall_of_fame(fresh)] == [record_id]
    assert fresh.get(f"/api/records/{record_id}").get_json()["size"] == 4


def test_a_five_by_five_record_goes_through_a_backup_and_its_review(make_records_app, tmp_path):
    app = make_records_app()
    client = app.test_client()
    client.post("/api/game", json={"size": 5})
    play_to_the_end(client, random.Random(6), batch=32)
    record_id = save(client)
    review = client.get(f"/api/records/{record_id}/review?from=0")
    assert review.status_code == 200
    moves = [entry["best"] for entry in review.get_json()["reviews"]]
    assert moves and all(move in ("up", "down", "left", "right") for move in moves)
    backup = tmp_path / "records.jsonl"
    runner = app.test_cli_runner()
    assert runner.invoke(args=["records", "export", str(backup)]).exit_code == 0
    line = json.loads(backup.read_text().splitlines()[0])
    assert (line["size"], len(line["board"])) == (5, 5)
    other = make_records_app(INSTANCE_PATH=tmp_path / "other")
    result = other.test_cli_runner().invoke(args=["records", "import", str(backup)])
    assert result.exit_code == 0, result.output
    copied = other.test_client().get(f"/api/records/{record_id}").get_json()
    assert copied["size"] == 5 and copied["replay"] == client.get(f"/api/records/{record_id}").get_json()["replay"]
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text(json.dumps(line | {"size": 6}) + "\n")
    refused = make_records_app(INSTANCE_PATH=tmp_path / "third").test_cli_runner()
    assert "line 1" in refused.invoke(args=["records", "import", str(tampered)]).output
