"""A host finds a record and takes it down with the real ``flask records`` commands: listed by name,
hidden, renamed, deleted, each logged, and what players see follows at once (the hall of fame, the
record's page and API, its review); a backup keeps a hidden record hidden."""

import json
import random

import pytest

from app import create_app, records

from .test_backup_commands import flask, made_game

pytestmark = pytest.mark.slow


@pytest.fixture
def hosted(tmp_path):
    """Three verified, finished records in the hall of fame of an instance folder, and an app on it."""
    instance = tmp_path / "instance"
    app = create_app({"TESTING": True, "INSTANCE_PATH": instance, "RATELIMIT_ENABLED": False})
    rng = random.Random(36)
    with app.app_context():
        ids = [records.save(made_game(rng, number), f"Player {number}")[0].id for number in (1, 2, 4)]
    return app, ids, {"FLASK_INSTANCE_PATH": instance}


def listed(client):
    return [record["id"] for record in client.get("/api/records?limit=100").get_json()["records"]]


def test_a_host_hides_renames_and_deletes_records(hosted, tmp_path):
    app, ids, env = hosted
    client = app.test_client()
    first, second, third = ids
    assert sorted(listed(client)) == sorted(ids)

    found = flask("records", "list", "--name", "player 1", env=env)  # the docs' first step: find the id
    assert found.returncode == 0 and [line.split("\t")[:2] for line in found.stdout.splitlines()] == [
        [first, "Player 1"]]  # fmt: skip
    hidden = flask("records", "hide", "--", first, env=env)
    assert hidden.returncode == 0 and f"record {first} ('Player 1', score" in hidden.stderr
    assert "hidden by the host" in hidden.stderr
    assert first not in listed(client) and first not in client.get("/records").get_data(as_text=True)
    for path in (f"/api/records/{first}", f"/api/records/{first}/review?from=0", f"/api/records/{first}/mistakes"):
        answer = client.get(path)
        assert answer.status_code == 410 and answer.get_json()["error"]["code"] == "record_hidden"
    page = client.get(f"/records/{first}")
    assert page.status_code == 410 and page.mimetype == "text/html"

    backup = tmp_path / "backup.jsonl"
    assert flask("records", "export", str(backup), env=env).returncode == 0
    assert {json.loads(line)["id"]: json.loads(line)["hidden"] for line in backup.read_text().splitlines()} == {
        first: True, second: False, third: False}  # fmt: skip
    elsewhere = tmp_path / "restored"
    assert flask("records", "import", str(backup), env={"FLASK_INSTANCE_PATH": elsewhere}).returncode == 0
    restored = create_app({"TESTING": True, "INSTANCE_PATH": elsewhere}).test_client()
    assert restored.get(f"/api/records/{first}").status_code == 410 and first not in listed(restored)

    assert flask("records", "unhide", "--", first, env=env).returncode == 0
    assert client.get(f"/api/records/{first}").status_code == 200 and first in listed(client)

    renamed = flask("records", "rename", "--", second, "\uff2bind name ", env=env)
    assert renamed.returncode == 0 and "renamed by the host from 'Player 2' to 'Kind name'" in renamed.stderr
    assert client.get(f"/api/records/{second}").get_json()["name"] == "Kind name", "checked as a player's name"
    refused = flask("records", "rename", "--", second, "\u200b", env=env)
    assert refused.returncode == 1 and "name must be" in refused.stderr and "Traceback" not in refused.stderr

    deleted = flask("records", "delete", "--", third, env=env)
    assert deleted.returncode == 0 and f"record {third} ('Player 4', score" in deleted.stderr
    assert client.get(f"/api/records/{third}").status_code == 404 and client.get(f"/records/{third}").status_code == 404
    assert sorted(listed(client)) == sorted([first, second])

    for command in ("hide", "unhide", "delete"):
        unknown = flask("records", command, "--", third, env=env)
        assert unknown.returncode == 1 and f"there is no record '{third}' here" in unknown.stderr
