"""The data folder holds the server's key and today's seed: it is 0700 and every file the app or its
commands write there is 0600, whatever the umask, and so is a backup written elsewhere."""

import os
import random
import stat

import pytest

from tests.support.client_play import finish, play, save


@pytest.fixture
def open_umask():
    """A umask that takes nothing away: every mode is the app's own choice."""
    before = os.umask(0)
    yield
    os.umask(before)


def modes(folder):
    """Every folder and file under ``folder`` (itself included) with its permission bits."""
    found = {folder: stat.S_IMODE(folder.stat().st_mode)}
    for path in folder.rglob("*"):
        found[path] = stat.S_IMODE(path.lstat().st_mode)
    return found


def loose(folder):
    return {str(path): oct(mode) for path, mode in modes(folder).items()
            if mode != (0o700 if path.is_dir() else 0o600)}  # fmt: skip


def test_a_game_a_record_a_daily_attempt_a_hint_and_an_export_leave_only_private_files(make_app, tmp_path,
                                                                                        open_umask):  # fmt: skip
    app = make_app()
    client = app.test_client()
    client.post("/api/game", json={})
    play(client, 10)
    assert client.post("/api/game/hint", json={}).status_code == 200
    finish(client, random.Random(1))
    save(client)
    assert client.post("/api/daily", json={}, headers={"X-Game": "daily"}).status_code == 201
    backup = tmp_path / "elsewhere" / "records.jsonl"
    backup.parent.mkdir()
    exported = app.test_cli_runner().invoke(args=["records", "export", str(backup)])
    assert exported.exit_code == 0, exported.output
    instance = tmp_path / "instance"
    names = {path.name for path in modes(instance)}
    assert {"records.db", "sessions.sqlite3", "sessions.sqlite3-wal", "secret_key", "solver.lock"} <= names
    assert loose(instance) == {}
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600


def test_files_an_earlier_version_left_open_are_tightened_on_start(make_app, tmp_path, open_umask):
    instance = tmp_path / "instance"
    (instance / "locks").mkdir(parents=True, mode=0o755)
    for name in ("records.db", "secret_key", "locks/0.lock"):
        (instance / name).touch(mode=0o644)
    instance.chmod(0o755)
    make_app()
    assert loose(instance) == {}
