"""Where records are found: a record shared by its link only is in no list; seeds are written as
decimal strings everywhere (and still read as numbers); a host finds a record with ``flask records list``."""

import json
import random

from tests.support.client_play import finish, hall_of_fame, save

from .test_daily import TODAY, clock, start  # noqa: F401 (clock: the fixture, autouse)
from .test_daily import finish as finish_daily


def share(client, name, **fields):
    reply = client.post("/api/records", json={"name": name, **fields})
    assert reply.status_code in (200, 201), reply.get_json()
    return reply.get_json()["id"]


def test_an_unlisted_record_has_its_page_and_replay_and_is_in_no_list(make_records_app):
    app = make_records_app()
    player = app.test_client()
    finish(player, random.Random(2))
    record_id = share(player, "Quiet", listed=False)
    shown = player.get(f"/api/records/{record_id}").get_json()
    assert shown["listed"] is False and shown["verified"] and shown["replay"]["directions"]
    assert player.get(f"/records/{record_id}").status_code == 200
    for query in ("", "?without_help=0", "?helped=1"):
        assert record_id not in [row["id"] for row in hall_of_fame(player, query)]
    assert record_id not in player.get("/records").get_data(as_text=True)

    daily = app.test_client()
    start(daily)
    finish_daily(daily, random.Random(3))
    daily_id = share(daily, "Quiet daily", listed=False)
    board = daily.get("/api/daily/leaderboard").get_json()
    assert board["records"] == [] and board["tiles"] == {}
    assert daily.get(f"/api/records/{daily_id}").get_json()["ranked"]

    assert share(player, "Loud") == record_id  # saved again, listed: the latest save says
    assert record_id in [row["id"] for row in hall_of_fame(player)]


def test_listed_must_be_true_or_false(client):
    finish(client, random.Random(2))
    reply = client.post("/api/records", json={"name": "Ann", "listed": "no"})
    assert reply.status_code == 400 and reply.get_json()["error"]["code"] == "invalid_listed"


def test_seeds_are_decimal_strings_in_records_and_exports_and_numbers_are_still_read(make_records_app, tmp_path):
    app = make_records_app()
    client = app.test_client()
    finish(client, random.Random(5))
    record_id = save(client)
    seed = client.get(f"/api/records/{record_id}").get_json()["replay"]["seed"]
    assert isinstance(seed, str) and seed.isdigit() and int(seed) >= 2**53  # past what a JS number holds
    exported = app.test_cli_runner().invoke(args=["records", "export", "-"])
    (line,) = exported.stdout.splitlines()
    assert json.loads(line)["seed"] == seed
    as_number = json.dumps({**json.loads(line), "seed": int(seed)})  # as backups wrote it before
    other = make_records_app(INSTANCE_PATH=tmp_path / "other")
    imported = other.test_cli_runner().invoke(args=["records", "import", "-"], input=as_number + "\n")
    assert imported.exit_code == 0, imported.output
    assert other.test_client().get(f"/api/records/{record_id}").get_json()["replay"]["seed"] == seed
    for given in (12345, "12345"):
        assert client.post("/api/game", json={"seed": given}).status_code == 201
    for wrong in ("12a", "-1", " 1", str(2**63)):
        assert client.post("/api/game", json={"seed": wrong}).status_code == 400


def records_command(app, *args):
    """``flask records ...`` in the app's context (as the flask command gives it)."""
    with app.app_context():
        return app.test_cli_runner().invoke(args=["records", *args])


def records_list(app, *args):
    listed = records_command(app, "list", *args)
    assert listed.exit_code == 0, listed.output
    return listed.stdout.splitlines()


def test_a_host_lists_records_to_find_one_by_day_or_name(make_records_app):
    app = make_records_app()
    ids = {}
    for number, name in enumerate(["Ann", "Bea Smith", "bea jones"]):
        player = app.test_client()
        finish(player, random.Random(number))
        ids[name] = save(player, name)
    daily = app.test_client()
    start(daily)
    state = finish_daily(daily, random.Random(1))
    ids["Daily Dee"] = save(daily, "Daily Dee")

    rows = [line.split("\t") for line in records_list(app)]
    assert [row[0] for row in rows] == [ids[name] for name in reversed(ids)]  # newest first
    assert rows[0][1:4] == ["Daily Dee", str(state["score"]), TODAY] and rows[1][3] == "-"
    assert rows[0][4].startswith(TODAY)  # the date saved, in ISO 8601
    assert [line.split("\t")[1] for line in records_list(app, "--name", "BEA")] == ["bea jones", "Bea Smith"]
    assert [line.split("\t")[0] for line in records_list(app, "--day", TODAY)] == [ids["Daily Dee"]]
    assert len(records_list(app, "--limit", "2")) == 2
    (found,) = [json.loads(line) for line in records_list(app, "--json", "--name", "ann")]
    assert found["id"] == ids["Ann"] and set(found) == {"id", "name", "score", "day", "date"}

    assert records_command(app, "hide", ids["Ann"]).exit_code == 0
    assert ids["Ann"] not in "".join(records_list(app))
    assert [line.split("\t")[0] for line in records_list(app, "--hidden")] == [ids["Ann"]]
    refused = records_command(app, "list", "--day", "14.3.2026")
    assert refused.exit_code == 2 and "YYYY-MM-DD" in refused.output
