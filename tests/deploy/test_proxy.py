"""deploy/nginx.conf, run by a real nginx in front of two replicas configured like compose's.

Only loopback: tests.support.compose_stack says how.
"""

import gzip
import re
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from urllib.parse import urlsplit

import pytest

from tests.support import image
from tests.support.client import HttpClient
from tests.support.compose_stack import replicas_behind_nginx
from tests.support.http_play import game_state, play_move
from tests.support.servers import NGINX, listening_sockets, wait_until

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(NGINX is None, reason="nginx is not installed (Debian package nginx, or NGINX=/path/to/nginx)"),
]


def test_proxy_spreads_requests_over_replicas_that_share_redis(built_image, tmp_path):
    with replicas_behind_nginx(built_image, tmp_path, ("one", "two"), gunicorn_args="--reuse-port") as served:
        dns, replicas, proxy, app_port, url = served.dns, served.replicas, served.proxy, served.app_port, served.url
        assert served.env["FLASK_TRUSTED_PROXIES"] == "1"
        client = HttpClient(url)
        # What a browser sends with a write from the game page.
        browser = {"Origin": url, "Sec-Fetch-Site": "same-origin"}

        wait_until(lambda: client.get("/healthz").status == 200 and all(
            image.served_by(r.log(), "/healthz") for r in replicas), 15, message="both replicas behind the proxy")
        assert ("app", 1) in dns.queries, "nginx resolves the app service through the resolver"

        created = client.post("/api/game", json={"seed": 11}, headers=browser)
        assert created.status == 201, created.body[:300]
        for _ in range(12):
            state = game_state(play_move(client, headers=browser))
            assert game_state(client.get("/api/game").json()) == state
        served = [image.served_by(r.log()) for r in replicas]
        assert all(served), f"both replicas serve the game: {[len(s) for s in served]} requests"

        # The proxy replaces forwarded headers: a client cannot pass for another host.
        spoofed = client.post("/api/game", json={"seed": 1},
                              headers={"Origin": "http://evil.example", "X-Forwarded-Host": "evil.example"})
        assert spoofed.status == 403, spoofed.body[:300]
        # Only the names in FLASK_TRUSTED_HOSTS are served (compose's default: localhost, 127.0.0.1).
        assert client.get("/healthz", headers={"Host": f"localhost:{urlsplit(url).port}"}).status == 200
        assert client.get("/", headers={"Host": "evil.example"}).status == 400

        # A replica dies: the game goes on through the other (once the kernel has
        # dropped the dead one's socket, as Docker's DNS drops a dead replica's address).
        # (With --reuse-port each gunicorn worker listens on a socket of its own.)
        sockets = listening_sockets(app_port)
        assert sockets >= 2 and sockets % 2 == 0
        replicas[0].kill()
        wait_until(
            lambda: listening_sockets(app_port) == sockets // 2, 5, message="the killed replica's sockets closed"
        )
        for _ in range(4):
            resp = client.get("/api/game")
            assert resp.status == 200 and game_state(resp.json()) == state, (
                (proxy.prefix / "error.log").read_text()[-1500:]
                + "\n---one\n"
                + replicas[0].process.tail(15)
                + "\n---two\n"
                + replicas[1].process.tail(15)
            )
            state = game_state(play_move(client, headers=browser))
        assert proxy.alive()


@contextmanager
def slow_clients(port, count):
    """Connections that send half a request's headers and then nothing, as a slowloris does."""
    sockets = []
    try:
        for _ in range(count):
            client = socket.create_connection(("127.0.0.1", port), timeout=5)
            client.sendall(b"GET /healthz HTTP/1.1\r\nHost: app\r\n")
            sockets.append(client)
        yield
    finally:
        for client in sockets:
            client.close()


def test_slow_clients_tie_up_neither_the_proxy_nor_the_app(built_image, tmp_path):
    """nginx reads each request whole before it passes it on, and so does each replica's worker
    (app/worker.py) for a client that reaches it straight."""
    with replicas_behind_nginx(built_image, tmp_path, ("app",)) as served:
        workers = int(served.env["WEB_CONCURRENCY"])
        through_proxy = HttpClient(served.url, timeout=3)
        direct = HttpClient(f"http://127.0.0.1:{served.app_port}", timeout=3)

        with slow_clients(urlsplit(served.url).port, 10 * workers):
            assert through_proxy.get("/healthz").status == 200
            assert through_proxy.post("/api/game", json={"seed": 3}).status == 201
        with slow_clients(served.app_port, 10 * workers):
            assert direct.get("/healthz").status == 200
            assert direct.post("/api/game", json={"seed": 3}).status == 201


def test_the_proxy_compresses_what_the_app_sends(built_image, tmp_path):
    """In compose nginx compresses, once, in C; the replicas (told so by compose.yaml) do not."""
    with replicas_behind_nginx(built_image, tmp_path, ("app",)) as served:
        client = HttpClient(served.url)
        direct = HttpClient(f"http://127.0.0.1:{served.app_port}")
        browser = {"Accept-Encoding": "gzip, deflate, br, zstd"}
        page = client.get("/", headers={"Accept-Encoding": "identity"}).body
        css = re.search(rb'href="(/static/css/style\.css\?v=\w+)"', page).group(1).decode()
        for url in ("/", css):
            plain = client.get(url, headers={"Accept-Encoding": "identity"})
            packed = client.get(url, headers=browser)
            assert "content-encoding" not in plain.headers
            assert packed.headers.get("content-encoding") == "gzip", url
            assert gzip.decompress(packed.body) == plain.body, url
            assert len(packed.body) < len(plain.body) / 2, url
            assert "content-encoding" not in direct.get(url, headers=browser).headers, "the replica leaves it to nginx"
        assert client.get(css, headers=browser).headers["cache-control"] == "max-age=31536000, immutable"
        # The API's answers of a few hundred bytes go as they are, as from the app alone.
        assert client.post("/api/game", json={"seed": 5}, headers=browser).status == 201
        moved = client.post("/api/game/moves", json={"direction": "left"}, headers=browser)
        assert moved.status == 200 and "content-encoding" not in moved.headers


def refused_by_nginx(response):
    """nginx's own 429 (its HTML page); the app answers its API in JSON, its 429s included."""
    return response.status == 429 and not response.content_type.startswith("application/json")


def test_the_proxy_turns_a_flood_away_but_not_play(built_image, tmp_path):
    """deploy/nginx.conf: 100 API requests at once from one address, then 50 a second; the rest get 429."""
    with replicas_behind_nginx(built_image, tmp_path, ("app",)) as served:
        page = HttpClient(served.url).get("/")
        files = sorted(set(re.findall(r'(/static/[^"?]+\?v=\w+)', page.body.decode())))
        assert len(files) >= 10

        def ask_once(source, path):
            return HttpClient(served.url, source=source).get(path)

        # A flood from one address: 400 API requests, as fast as 8 connections send them.
        started = time.monotonic()
        with ThreadPoolExecutor(8) as pool:
            flood = list(pool.map(ask_once, ["127.0.0.3"] * 400, ["/api/game"] * 400))
        elapsed = time.monotonic() - started
        refused = sum(map(refused_by_nginx, flood))
        assert 400 - refused <= 101 + 50 * elapsed + 5, f"{400 - refused} reached the app in {elapsed:.2f} s"
        assert refused >= 200

        # Meanwhile the limit is per address: a first visit's files, all at once, from another...
        with ThreadPoolExecutor(len(files)) as pool:
            visit = list(pool.map(ask_once, ["127.0.0.4"] * len(files), files))
        assert [response.status for response in visit] == [200] * len(files)
        # ...and a player at a brisk 30 requests a second for 5 s (past the burst), from a third.
        player = HttpClient(served.url, source="127.0.0.2")
        assert player.post("/api/game", json={"seed": 9}).status == 201
        started = time.monotonic()
        for number in range(150):
            time.sleep(max(0.0, started + number / 30 - time.monotonic()))
            answer = player.get("/api/game")
            assert answer.status == 200, (number, answer.status, answer.body[:200])
