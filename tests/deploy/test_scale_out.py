"""Scale-out as compose runs it: app processes that share nothing but a real redis-server.

Each app process runs the image's CMD with FLASK_SESSION_TYPE=redis and its own (empty)
instance folder, like the compose replicas.
"""

import os
import subprocess
import time
from contextlib import ExitStack

import psutil
import pytest

from tests.support import compose, image
from tests.support.client import HttpClient
from tests.support.compose_stack import VARIABLES, compose_app_env
from tests.support.http_play import game_state, play_move
from tests.support.servers import redis_server, wait_until

pytestmark = pytest.mark.slow

@pytest.fixture
def redis():
    with redis_server() as server:
        yield server


def replica(stack, built_image, tmp_path, redis, name, **kw):
    instance = tmp_path / name
    return stack.enter_context(
        image.server(built_image, instance, FLASK_SESSION_TYPE="redis", FLASK_REDIS_URL=redis.url,
                     WEB_CONCURRENCY=2, **kw)
    )


def test_replicas_share_games_and_survive_a_killed_one(built_image, tmp_path, redis):
    with ExitStack() as stack:
        one = replica(stack, built_image, tmp_path, redis, "one")
        two = replica(stack, built_image, tmp_path, redis, "two")
        client = HttpClient()

        created = client.post("/api/game", json={"seed": 99}, base_url=one.url)
        assert created.status == 201
        state = game_state(created.json())
        # A balancer without sticky sessions: every request may land on any replica.
        for turn in range(6):
            here, there = (one, two) if turn % 2 else (two, one)
            state = game_state(play_move(client, base_url=here.url))
            seen = client.get("/api/game", base_url=there.url)
            assert seen.status == 200 and seen.json()["created"] is False
            assert game_state(seen.json()) == state
        assert state["moves"] == 6

        # A replica crashes (SIGKILL to its whole process group): the other carries on.
        one.kill()
        seen = client.get("/api/game", base_url=two.url)
        assert seen.status == 200 and seen.json()["created"] is False
        assert game_state(seen.json()) == state
        for _ in range(3):
            state = game_state(play_move(client, base_url=two.url))
        assert state["moves"] == 9
        assert game_state(client.get("/api/game", base_url=two.url).json()) == state

    # Nothing of the game was kept on the replicas' own disks.
    for name in ("one", "two"):
        assert not (tmp_path / name / "sessions").exists()


def assert_store_unavailable(resp):
    assert resp.status == 503, (resp.status, resp.body[:300])
    assert resp.content_type.startswith("application/json"), resp.content_type
    assert resp.json()["error"]["code"] == "store_unavailable"


def test_redis_outage_is_a_503_and_the_app_recovers_by_itself(built_image, tmp_path, redis):
    with ExitStack() as stack:
        app = replica(stack, built_image, tmp_path, redis, "app")
        client = HttpClient(app.url, timeout=10)
        assert client.post("/api/game", json={"seed": 5}).status == 201
        for _ in range(3):
            state = game_state(play_move(client))
        redis.save()  # compose's Redis keeps its data on a volume; here, a dump.rdb
        redis.stop()

        for _ in range(4):  # several requests, so that both workers see the outage
            started = time.monotonic()
            assert_store_unavailable(client.post("/api/game/moves", json={"direction": "left"}))
            assert_store_unavailable(client.get("/api/game"))
            ready = client.get("/readyz")
            assert time.monotonic() - started < 8, "an outage must not hang requests"
            assert ready.status == 503 and "sessions" in ready.json()["failing"]
            assert client.get("/healthz").status == 200, "alive: nothing to restart"
        assert image.run_healthcheck(built_image, app.port) != 0

        redis.start()  # same port, same data
        wait_until(lambda: client.get("/readyz").status == 200, 15, interval=0.2,
                   message="/readyz back to 200 after Redis restarted")
        assert image.run_healthcheck(built_image, app.port) == 0
        for _ in range(4):
            seen = client.get("/api/game")
            assert seen.status == 200 and seen.json()["created"] is False
            assert game_state(seen.json()) == state
        for _ in range(3):
            state = game_state(play_move(client))
        assert state["moves"] == 6


def test_app_started_before_redis_waits_for_it(built_image, tmp_path, redis):
    redis.stop()
    with ExitStack() as stack:
        # It starts and answers, unhealthy, while Redis is still down...
        app = replica(stack, built_image, tmp_path, redis, "app", wait_status=None)
        client = HttpClient(app.url)
        assert client.get("/readyz").status == 503
        assert_store_unavailable(client.post("/api/game", json={"seed": 3}))
        # ...and becomes healthy as soon as Redis answers.
        redis.start()
        wait_until(lambda: client.get("/readyz").status == 200, 15, interval=0.2,
                   message="/readyz 200 once Redis is up")
        assert client.post("/api/game", json={"seed": 3}).status == 201
        play_move(client)


def test_compose_redis_health_check_needs_the_password():
    """compose's health check, run against a Redis that requires the password, as compose's does.

    redis-cli exits 0 even when Redis refuses it (NOAUTH): only a PONG may count as healthy.
    """
    service = compose.load(VARIABLES)["services"]["redis"]
    kind, check = service["healthcheck"]["test"]
    assert kind == "CMD-SHELL" and check.count("redis-cli") == 1
    password = compose.environment(service)["REDISCLI_AUTH"]
    with redis_server(password=password) as server:
        here = check.replace("redis-cli", f"redis-cli -p {server.port}")

        def exit_code(**env):
            return subprocess.run(["sh", "-c", here], env={"PATH": os.environ["PATH"], **env},
                                  capture_output=True, timeout=10, check=False).returncode

        assert exit_code(REDISCLI_AUTH=password) == 0
        assert exit_code() != 0, "without the password"
        assert exit_code(REDISCLI_AUTH="wrong") != 0, "with a wrong password"


def test_a_replica_configured_like_compose_fits_its_memory_limit(built_image, tmp_path):
    """After games and hints, its processes' resident memory (shared pages counted in each) is under 85 % of the limit.

    The rest is for what the container is charged besides: the health check's Python, the tmpfs /data.
    """
    limits = compose.load(VARIABLES)["services"]["app"]["deploy"]["resources"]["limits"]
    number, unit = limits["memory"][:-1], limits["memory"][-1].upper()
    assert unit == "M", limits["memory"]
    with redis_server(password=VARIABLES["REDIS_PASSWORD"]) as redis, ExitStack() as stack:
        env = compose_app_env(redis.port)
        app = stack.enter_context(image.server(built_image, tmp_path / "app", **env))
        workers = app.wait_for_workers(int(env["WEB_CONCURRENCY"]))
        for seed in range(len(workers)):  # each request lands on either worker
            client = HttpClient(app.url)
            assert client.post("/api/game", json={"seed": seed}).status == 201
            for _ in range(20):
                play_move(client)
                assert client.post("/api/game/hint", json={}).status == 200
                time.sleep(0.1)  # hints per session are limited to 10 a second
        processes = [psutil.Process(app.process.pid), *map(psutil.Process, workers)]
        resident = sum(process.memory_info().rss for process in processes) / 2**20
    assert resident < 0.85 * int(number), f"{resident:.0f} MB resident, limit {limits['memory']}"
