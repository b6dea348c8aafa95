"""The Dockerfile's CMD and HEALTHCHECK, run here from a copy of what the image copies.

No Docker engine here: these run the same command lines with the image's ENV
(2 workers, the embedded SQLite store, the instance folder in a temporary /data).
"""

import os
import signal
import threading
import time

import pytest

from tests.support import image
from tests.support.client import HttpClient
from tests.support.http_play import game_state, play_move
from tests.support.servers import wait_until

from .conftest import snapshot

pytestmark = pytest.mark.slow


@pytest.fixture
def data(tmp_path):
    """The /data volume."""
    path = tmp_path / "data"
    path.mkdir(mode=0o700)
    return path


def test_game_state_is_shared_by_the_workers(built_image, data):
    with image.server(built_image, data, WEB_CONCURRENCY=2) as server:
        first, second = server.wait_for_workers(2)[:2]
        client = HttpClient(server.url)

        created = client.post("/api/game", json={"seed": 2048})
        assert created.status == 201
        state = game_state(created.json())

        # Pause one worker at a time so that the next requests must land on the other.
        for busy in (second, first, second):
            os.kill(busy, signal.SIGSTOP)
            try:
                seen = client.get("/api/game")
                assert seen.status == 200
                assert seen.json()["created"] is False
                assert game_state(seen.json()) == state, "a worker saw another game"
                state = game_state(play_move(client))
            finally:
                os.kill(busy, signal.SIGCONT)

        assert game_state(client.get("/api/game").json()) == state
        assert state["moves"] == 3
        # The access log (gunicorn's, on stdout) confirms both workers served the game.
        wait_until(lambda: set(image.served_by(server.log())) >= {first, second}, 5,
                   message="both workers in the access log")


def test_instance_folder_is_the_only_place_written(built_image, data, tmp_path):
    before = snapshot(built_image.workdir)
    home, tmp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    tmp.mkdir()
    with image.server(built_image, data, HOME=home, TMPDIR=tmp) as server:
        client = HttpClient(server.url)
        assert client.post("/api/game", json={"seed": 1}).status == 201
        for _ in range(3):
            play_move(client)
    # Read-only root filesystem: the code folder is untouched (no __pycache__, no files),
    # and nothing goes to the home folder (gunicorn's control socket) or the temp folder.
    assert snapshot(built_image.workdir) == before
    assert list(home.iterdir()) == [] and list(tmp.iterdir()) == []
    assert (data / "sessions.sqlite3").stat().st_size > 0, "sessions are stored in the volume"


def test_healthcheck_command_follows_the_server(built_image, data):
    with image.server(built_image, data) as server:
        port = server.port
        assert image.run_healthcheck(built_image, port) == 0
    # The server is gone: nothing answers on that port.
    assert image.run_healthcheck(built_image, port) != 0


@pytest.mark.parametrize(("proxies", "scheme"), [("0", "http"), ("1", "https")])
def test_only_the_app_decides_whom_to_believe_about_the_scheme(built_image, data, proxies, scheme):
    """From 127.0.0.1, gunicorn's own default would believe X-Forwarded-Proto even when the app trusts no proxy.

    A write is accepted only when its Origin is the scheme and host the app sees.
    """
    with image.server(built_image, data, FLASK_TRUSTED_PROXIES=proxies) as server:
        client = HttpClient(server.url)
        claims_https = {"X-Forwarded-Proto": "https"}
        origins = {s: f"{s}://127.0.0.1:{server.port}" for s in ("http", "https")}
        seen, other = origins.pop(scheme), origins.popitem()[1]
        created = client.post("/api/game", json={"seed": 1}, headers={"Origin": seen, **claims_https})
        assert created.status == 201, created.body[:300]
        refused = client.post("/api/game", json={"seed": 1}, headers={"Origin": other, **claims_https})
        assert refused.status == 403 and refused.json()["error"]["code"] == "cross_origin"


def test_sigterm_is_graceful_and_a_restart_keeps_the_games(built_image, data):
    client = HttpClient()
    with image.server(built_image, data) as server:
        client.base_url = server.url
        assert client.post("/api/game", json={"seed": 7}).status == 201
        last = {"state": game_state(client.get("/api/game").json())}
        stop = threading.Event()

        def keep_playing():  # ~30 moves a second (under the rate limit) until the server goes
            for number in range(10_000):
                if stop.is_set():
                    return
                direction = ("left", "up", "right", "down")[number % 4]
                try:
                    resp = client.post("/api/game/moves", json={"direction": direction})
                except OSError:
                    return
                if resp.status != 200:
                    return
                last["state"] = game_state(resp.json())
                time.sleep(0.03)

        player = threading.Thread(target=keep_playing, daemon=True)
        player.start()
        time.sleep(0.5)
        started = time.monotonic()
        server.process.signal(signal.SIGTERM)
        code = server.process.wait(15)
        elapsed = time.monotonic() - started
        stop.set()
        player.join(5)
        assert code == 0, server.process.tail()
        assert elapsed < 7, f"stopping took {elapsed:.1f} s"
        log = server.log()
        assert "Shutting down: Master" in log and "WORKER TIMEOUT" not in log
        assert last["state"]["moves"] > 0

    # No half-written session or game entry left behind: only the store's own files.
    leftovers = [p.name for p in data.iterdir() if p.name.startswith("tmp")]
    assert leftovers == []

    # An upgraded or restarted container with the same volume: same key, same games.
    with image.server(built_image, data) as server:
        client.base_url = server.url
        again = client.get("/api/game")
        assert again.status == 200 and again.json()["created"] is False
        assert game_state(again.json()) == last["state"]
        play_move(client)
