"""Today's game scaled out as compose runs it: two app replicas sharing nothing but a real
redis-server (sessions, locks, rate limits) and a real PostgreSQL (records, ranked attempts, par),
each with its own instance folder, as a balancer without sticky sessions sends requests to either.
"""

import random
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from app import create_app
from app.engine import DIRECTIONS, pack
from app.engine.sliding import move
from tests.support.foresight import foretelling, foretold_share
from tests.support.postgres import postgres_server
from tests.support.servers import redis_server

pytestmark = pytest.mark.slow

DAY = datetime(2030, 6, 1, 12, tzinfo=UTC)
PAGE = {"X-Game": "daily"}


@pytest.fixture(scope="module")
def servers():
    with redis_server() as redis, postgres_server() as postgres:
        yield redis, postgres


@pytest.fixture
def replicas(servers, tmp_path):
    redis, postgres = servers
    shared = {
        "SESSION_TYPE": "redis",
        "REDIS_URL": redis.url,
        "SQLALCHEMY_DATABASE_URI": postgres.create_database(f"daily_{tmp_path.name[-12:].lower()}"),
        "SECRET_KEY": "the replicas' shared key",
        "DAILY_ADDRESS_LIMIT": 2,
        "DAILY_GAME_RATE_LIMIT": "3 per minute",
        "API_RATE_LIMIT": "1000 per second",
    }
    return [create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / name, **shared}) for name in ("one", "two")]


COOKIES = ("session", "session-daily", "daily-attempt")  # the game page's, the daily page's, the browser's


class Browser:
    """One browser's daily page (or, with ``page={}``, its game page): its cookies, and every request
    on whichever replica comes next."""

    def __init__(self, replicas, address, turn=0):
        self.clients = [app.test_client() for app in replicas]
        self.turn, self.address = turn, address

    def ask(self, method, path, page=PAGE, **kwargs):
        client = self.clients[self.turn % 2]
        self.turn += 1
        reply = getattr(client, method)(path, headers=page, environ_base={"REMOTE_ADDR": self.address}, **kwargs)
        for other in self.clients:  # the browser's cookie jar is one
            for name in COOKIES:
                if other is not client and (cookie := client.get_cookie(name)) is not None:
                    other.set_cookie(name, cookie.value)
        return reply


def play_to_the_end(browser, seed):
    rng, state = random.Random(seed), browser.ask("get", "/api/daily").get_json()["game"]
    while not state["over"]:
        if state["won"] and not state["keep_playing"]:
            state = browser.ask("post", "/api/game/keep-playing", json={}).get_json()
        board = pack(state["board"])
        direction = rng.choice([d for d in DIRECTIONS if move(board, d)[0] != board])
        body = {"direction": direction, "moves": state["moves"]}
        state = browser.ask("post", "/api/game/moves", json=body).get_json()
    return state


def test_todays_game_on_two_replicas_with_redis_and_postgresql(replicas):
    with time_machine.travel(DAY, tick=True) as clock:
        first = Browser(replicas, "127.0.0.10")
        started = first.ask("post", "/api/daily", json={})
        assert started.status_code == 201 and started.get_json()["ranked"]
        finished = play_to_the_end(first, 1)  # every move on the other replica from the one before
        saved = first.ask("post", "/api/records", json={"name": "Replicated"})
        assert saved.status_code == 201
        for app in replicas:
            board = app.test_client().get("/api/daily/leaderboard").get_json()
            assert [(row["name"], row["score"]) for row in board["records"]] == [("Replicated", finished["score"])]
        assert first.ask("get", "/api/daily").get_json()["next_ranked"] is False  # the browser's first is played

        # The address's ranked attempts are counted in the shared database, its new games in Redis.
        second, third = Browser(replicas, "127.0.0.10", turn=1), Browser(replicas, "127.0.0.10")
        assert second.ask("post", "/api/daily", json={}).get_json()["ranked"] is True  # on the other replica
        assert third.ask("post", "/api/daily", json={}).get_json()["ranked"] is False  # the limit is 2
        refused = Browser(replicas, "127.0.0.10", turn=1).ask("post", "/api/daily", json={})
        assert refused.status_code == 429  # the fourth new game this minute, counted over both replicas
        assert Browser(replicas, "127.0.0.11").ask("post", "/api/daily", json={}).get_json()["ranked"]

        # The same board for everyone, whichever replica: both replicas derive the day's seed alike.
        commitments = {app.test_client().get("/api/daily").get_json()["commitment"] for app in replicas}
        assert len(commitments) == 1

        clock.move_to(DAY.replace(hour=0) + timedelta(days=1, hours=1, seconds=1))
        for app in replicas:
            previous = app.test_client().get("/api/daily").get_json()["previous"]
            assert previous["seed"] is not None and previous["commitment"] in commitments
        played = replicas[0].test_cli_runner().invoke(args=["daily", "par", "--budget-ms", "1"])
        assert played.exit_code == 0, played.output
        par = replicas[1].test_client().get("/api/daily/leaderboard?date=2030-06-01").get_json()["par"]
        assert par is not None and par > 0


def tiles_along(browser, directions, page=PAGE):
    """Each direction that moves the browser's game, played: [(board before, direction, tile it brought)]."""
    line = []
    for direction in directions:
        state = browser.ask("get", "/api/game", page=page).get_json()
        board = pack(state["board"])
        if move(board, direction)[0] != board:
            spawned = browser.ask("post", "/api/game/moves", page=page, json={"direction": direction}).get_json()
            line.append((state["board"], direction, tuple(spawned["animation"]["spawned"].values())))
    return line


def test_fair_play_on_two_replicas_with_redis_and_postgresql(replicas):
    """One ranked attempt a browser whichever of its cookies asks, practice on tiles of its own, and a
    hint asked on a ranked game's board, from its address, on the game page of the other replica
    taking it off the board (a stranger's hint there counts on no ranked attempt: tests/api)."""
    with time_machine.travel(DAY, tick=True):
        browser = Browser(replicas, "127.0.0.20")
        assert browser.ask("post", "/api/daily", json={}).get_json()["ranked"] is True
        practice = browser.ask("post", "/api/daily", page={}, json={})  # the game page's cookie, the other replica
        assert practice.status_code == 201 and practice.get_json()["ranked"] is False
        rng = random.Random(4)
        line = [rng.choice(DIRECTIONS) for _ in range(40)]
        practised = tiles_along(browser, line, page={})
        ranked = tiles_along(Browser(replicas, "127.0.0.21"), [direction for _, direction, _ in practised])
        hits, at_chance = foretold_share(ranked, foretelling(practised))
        assert at_chance, f"{hits} of {len(ranked)} tiles the practice foretold"

        player, helper = Browser(replicas, "127.0.0.22"), Browser(replicas, "127.0.0.22", turn=1)
        assert player.ask("post", "/api/daily", json={}).get_json()["ranked"] is True
        tiles_along(player, [rng.choice(DIRECTIONS) for _ in range(60)])
        state = player.ask("get", "/api/game").get_json()
        assert state["moves"] >= 20
        typed = {key: state[key] for key in ("board", "score", "won", "keep_playing", "moves")}
        assert helper.ask("put", "/api/game", page={}, json=typed).status_code == 200
        assert helper.ask("post", "/api/game/hint", page={}, json={}).status_code == 200
        finished = play_to_the_end(player, 5)
        record_id = player.ask("post", "/api/records", json={"name": "Hinted"}).get_json()["id"]
        shown = player.ask("get", f"/api/records/{record_id}").get_json()
        assert shown["ranked"] and shown["helped"] and shown["score"] == finished["score"]
        for app in replicas:
            listed = app.test_client().get("/api/daily/leaderboard").get_json()["records"]
            assert record_id not in [row["id"] for row in listed]
