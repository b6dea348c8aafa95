"""The embedded store under faults and at its bounds: clean 503s, nothing left behind, idle sessions go."""

import os
import shutil
import signal
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.states import restorable_state
from tests.support.stored_sessions import entry_count

OPEN_BOARD = [[2, 0, 0, 0], [0, 4, 0, 0], [0, 0, 8, 0], [0, 0, 0, 16]]
NOBODY = 65534


def assert_unavailable(reply):
    assert reply.status_code == 503, reply.data
    assert reply.get_json()["error"]["code"] == "store_unavailable"
    assert reply.get_json()["changed"] is False
    assert int(reply.headers["Retry-After"]) > 0


def files_in(folder):
    return sorted(str(path.relative_to(folder)) for path in Path(folder).rglob("*"))


def test_idle_sessions_are_deleted_not_just_ignored(make_app):
    app = make_app(PERMANENT_SESSION_LIFETIME=1)
    for _ in range(5):
        app.test_client().get("/api/game")
    time.sleep(1.2)
    app.test_client().get("/api/game")
    assert entry_count(app) == 1


def test_writes_refused_by_a_full_disk_are_503_and_leave_nothing_behind(make_app):
    app = make_app(PROPAGATE_EXCEPTIONS=False)
    player = app.test_client()
    player.put("/api/game", json=restorable_state(OPEN_BOARD))
    database = app.session_interface._database()  # the test client runs requests on this thread
    (pages,) = database.execute("PRAGMA page_count").fetchone()
    database.execute(f"PRAGMA max_page_count = {pages}")  # as if the disk were full now
    stored, files = entry_count(app), files_in(app.instance_path)
    replies = [app.test_client().get("/api/game") for _ in range(200)]
    refused = [reply for reply in replies if reply.status_code != 200]
    assert refused, "the full store took every new session"
    for reply in refused:
        assert_unavailable(reply)
        assert "Set-Cookie" not in reply.headers
    assert files_in(app.instance_path) == files
    assert entry_count(app) == stored + len(replies) - len(refused)


def test_a_vanished_instance_folder_is_503_until_it_is_back(make_app):
    app = make_app(PROPAGATE_EXCEPTIONS=False)
    player = app.test_client()
    player.put("/api/game", json=restorable_state(OPEN_BOARD))
    shutil.rmtree(app.instance_path)
    assert_unavailable(player.post("/api/game/moves", json={"direction": "left"}))
    assert_unavailable(player.get("/api/game"))
    assert_unavailable(app.test_client().get("/api/game"))
    assert app.test_client().get("/readyz").status_code == 503
    assert app.test_client().get("/healthz").status_code == 200  # the process itself is alive
    assert app.test_client().get("/").status_code == 200  # pages do not need the store
    os.makedirs(app.instance_path)
    assert app.test_client().get("/readyz").status_code == 200
    assert player.get("/api/game").get_json()["created"] is True  # the page restores its saved game


@contextmanager
def read_only(folder):
    """``folder`` and its files cannot be written by this process (as root: act as nobody meanwhile)."""
    paths = [Path(folder), *Path(folder).rglob("*")]
    as_root = os.geteuid() == 0
    for path in paths:
        if as_root:
            os.chown(path, NOBODY, NOBODY)
        path.chmod(0o500 if path.is_dir() else 0o400)
    if as_root:
        os.seteuid(NOBODY)
    try:
        yield
    finally:
        if as_root:
            os.seteuid(0)
        for path in paths:
            path.chmod(0o700 if path.is_dir() else 0o600)


@pytest.mark.parametrize("first_use", ["at start", "while running"])
def test_a_read_only_instance_folder_is_503_and_not_ready(make_app, first_use):
    app = make_app(PROPAGATE_EXCEPTIONS=False)
    player = app.test_client()
    player.put("/api/game", json=restorable_state(OPEN_BOARD))
    if first_use == "at start":
        app = make_app(PROPAGATE_EXCEPTIONS=False)  # a fresh worker: it opens the store read-only
    with read_only(app.instance_path):
        assert app.test_client().get("/readyz").status_code == 503
        assert_unavailable(app.test_client().get("/api/game"))
        retry = app.test_client()
        retry.set_cookie("session", player.get_cookie("session").value)
        assert_unavailable(retry.post("/api/game/moves", json={"direction": "left"}))
    assert app.test_client().get("/readyz").status_code == 200
    assert player.get("/api/game").get_json()["moves"] == 0


def test_a_worker_killed_holding_a_session_blocks_it_no_longer(make_app):
    """The kernel lets go of a dead process's flock(): no lease to wait out."""
    app = make_app(SESSION_LOCK_TIMEOUT=0.3)
    player = app.test_client()
    player.put("/api/game", json=restorable_state(OPEN_BOARD))
    store_id = "session:" + player.get_cookie("session").value
    ready, told = os.pipe()
    worker = os.fork()
    if worker == 0:  # the worker: takes the session's lock, then hangs until killed
        held = app.session_interface._lock(store_id)  # noqa: F841 (kept open: the lock lives with it)
        os.write(told, b"1")
        time.sleep(60)
        os._exit(0)
    os.read(ready, 1)
    assert player.post("/api/game/moves", json={"direction": "left"}).status_code == 409
    os.kill(worker, signal.SIGKILL)
    os.waitpid(worker, 0)
    assert player.post("/api/game/moves", json={"direction": "left"}).status_code == 200
