"""Clients that send slowly, stop half-way or never read: the image's command and the README's keep
serving a player, and requests that can never be served are refused with the app's own errors.

gunicorn.conf.py's BufferingWorker reads each request whole before the app sees it; these run it
as a host does (the Dockerfile's CMD and ENV from the image's folder, the README's command from the
checkout), all traffic to 127.0.0.1.
"""

import json
import socket
import time

import pytest

from tests.support import image
from tests.support.client import HttpClient
from tests.support.http_play import game_state
from tests.support.servers import LOOPBACK, free_port, gunicorn_server, readme_command, wait_until
from tests.support.slow_clients import KINDS, SlowConnections

pytestmark = pytest.mark.slow
SLOW = 24


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "data"
    path.mkdir(mode=0o700)
    return path


@pytest.fixture(params=["image", "readme"])
def server(request, data):
    """The image's own command (2 workers), or the README's run from the checkout."""
    if request.param == "image":
        with image.server(request.getfixturevalue("built_image"), data) as running:
            yield running
    else:
        port = free_port()
        with gunicorn_server(argv=readme_command(port), port=port, env={"FLASK_INSTANCE_PATH": data},
                             timeout=image.START_TIMEOUT) as running:  # fmt: skip
            yield running


def test_a_player_is_served_while_dozens_of_connections_dribble_or_stall(server):
    player = HttpClient(server.url, timeout=60)
    assert player.post("/api/game", json={"seed": 3}).status == 201
    with SlowConnections(server.port, SLOW) as held:
        wait_until(lambda: held.open_now == SLOW, 10, message=f"{SLOW} slow connections open")
        states = []
        for number in range(30):
            moved = player.post("/api/game/moves", json={"direction": ("left", "up", "right", "down")[number % 4]})
            assert moved.status == 200, moved.body[:200]
            states.append(game_state(moved.json()))
        assert player.post("/api/game", json={}).status == 201, "a new game starts too"
        # Every answer came while all the slow connections were still held, none of them answered:
        # the sync worker answers another request only once it has let one go (30 s later).
        assert held.open_now == SLOW and held.answers == []
        assert states[-1]["moves"] > 0

        # Held past the time a request has to arrive whole, each is refused as the API refuses.
        wait_until(lambda: {kind for kind, _ in held.answers} == set(KINDS), 30, message="every kind answered")
    for kind, answer in held.answers:
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408 "), (kind, answer[:200])
        assert b"Content-Type: application/json" in head
        assert json.loads(body)["error"]["code"] == "request_timeout"


def raw(port, data, read_answer=True):
    """Send ``data`` on a connection of its own; what the server answered, up to its close."""
    with socket.create_connection((LOOPBACK, port), timeout=30) as sock:
        sock.sendall(data)
        answer = b""
        while read_answer and (chunk := sock.recv(65536)):
            answer += chunk
        return answer


def answered(answer):
    """(status, content type, body) of a raw answer."""
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers.get("Content-Type", ""), body


@pytest.fixture(scope="module")
def checkout_server(tmp_path_factory):
    """gunicorn from the checkout, where gunicorn.conf.py gives it its worker."""
    with gunicorn_server(env={"FLASK_INSTANCE_PATH": tmp_path_factory.mktemp("instance")}) as running:
        yield running


def request(method, target, port, *headers, body=b""):
    head = [f"{method} {target} HTTP/1.1", f"Host: {LOOPBACK}:{port}", *headers]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


@pytest.mark.parametrize(("method", "path"), [("POST", "/api/game/moves"), ("PUT", "/api/game")])
def test_a_chunked_body_with_a_bad_chunk_size_is_a_400_in_json(checkout_server, method, path):
    port = checkout_server.port
    sent = request(method, path, port, "Content-Type: application/json", "Transfer-Encoding: chunked", body=b"zz\r\n")
    status, content_type, body = answered(raw(port, sent))
    assert status == 400 and content_type == "application/json"
    assert json.loads(body)["error"]["code"] == "bad_request"


def test_a_well_chunked_body_and_one_awaiting_100_continue_reach_the_app_whole(checkout_server):
    """Each body is read by the app: a field it does not take is named in its 400."""
    port = checkout_server.port
    json_body = "Content-Type: application/json"
    chunked = request("POST", "/api/game", port, json_body, "Transfer-Encoding: chunked",
                      body=b'5\r\n{"nop\r\n6\r\ne": 1}\r\n0\r\n\r\n')  # fmt: skip
    status, _, body = answered(raw(port, chunked))
    assert status == 400 and json.loads(body)["error"]["message"] == "unexpected field: nope"
    good = request("POST", "/api/game", port, json_body, "Transfer-Encoding: chunked", body=b"2\r\n{}\r\n0\r\n\r\n")
    assert answered(raw(port, good))[0] == 201

    # A client that waits for "100 Continue" before its body (curl does for large ones) gets it, once.
    with socket.create_connection((LOOPBACK, port), timeout=30) as sock:
        sock.sendall(request("POST", "/api/game", port, json_body, "Expect: 100-continue", "Content-Length: 11"))
        assert sock.recv(1024) == b"HTTP/1.1 100 Continue\r\n\r\n"
        sock.sendall(b'{"nope": 1}')
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    status, _, body = answered(answer)
    assert status == 400 and json.loads(body)["error"]["message"] == "unexpected field: nope"
    assert b"100 Continue" not in answer


LONG_HEADERS = [f"X-Filler-{number}: {'a' * 8000}" for number in range(10)]  # 80 KB of them
MANY_HEADERS = [f"X-Filler-{number}: a" for number in range(120)]  # gunicorn takes 100


@pytest.mark.parametrize(
    ("path", "headers", "status", "code"),
    [
        ("/api/" + "a" * 5000, [], 414, "request_uri_too_long"),
        ("/api/game", LONG_HEADERS, 431, "request_header_fields_too_large"),
        ("/api/game", MANY_HEADERS, 431, "request_header_fields_too_large"),
    ],
)
def test_requests_too_large_for_the_server_are_refused_in_json_under_the_api(checkout_server, path, headers, status,
                                                                              code):  # fmt: skip
    port = checkout_server.port
    status_seen, content_type, body = answered(raw(port, request("GET", path, port, *headers)))
    assert (status_seen, content_type) == (status, "application/json")
    assert json.loads(body)["error"]["code"] == code


def test_a_refusal_outside_the_api_is_plain_text(checkout_server):
    port = checkout_server.port
    status, content_type, body = answered(raw(port, request("GET", "/" + "a" * 5000, port)))
    assert status == 414 and content_type.startswith("text/plain") and b"Request Line is too large" in body


def test_a_body_larger_than_any_the_app_takes_is_refused_before_it_arrives(checkout_server):
    port = checkout_server.port
    sent = request("POST", "/api/game", port, "Content-Type: application/json", "Content-Length: 10000000", body=b"{")
    status, content_type, body = answered(raw(port, sent))
    assert (status, content_type) == (413, "application/json")
    assert json.loads(body)["error"]["code"] == "request_entity_too_large"


def played_within(url, seconds, moves=30):
    """A player on 127.0.0.1 makes ``moves`` moves at a fast human's pace (the API's rate limit is the
    address's), each answered within ``seconds`` (else the test fails)."""
    player = HttpClient(url, timeout=seconds)
    assert player.post("/api/game", json={}).status == 201
    for number in range(moves):
        assert player.post("/api/game/moves", json={"direction": DIRECTIONS[number % 4]}).status == 200
        time.sleep(0.05)


DIRECTIONS = ("left", "up", "right", "down")


@pytest.mark.parametrize(("kind", "count"), [("chunk flood", 16), ("idle", 600)])
def test_a_player_is_served_while_one_address_floods_the_server(checkout_server, kind, count):
    """From 127.0.0.2: chunked bodies of 30,000 one-byte chunks (gunicorn's parser, run again on every
    arrival, froze both workers: moves took 7 s), or 600 connections that send nothing, opened again as
    they close (a worker stopped accepting at 250: moves took 10 s). Each move is answered at once."""
    with SlowConnections(checkout_server.port, count, kinds=(kind,), source="127.0.0.2") as flood:
        wait_until(lambda: flood.opened >= count, 30, message=f"{count} connections of the flood open")
        played_within(checkout_server.url, seconds=2)
    if kind == "chunk flood":
        refused = [answer for _kind, answer in flood.answers if answer.startswith(b"HTTP/1.1 ")]
        assert refused and all(answer.startswith(b"HTTP/1.1 413 ") for answer in refused), refused[:1]


def from_client(address, proxied):
    """How a request from ``address`` reaches the server: (the loopback address it comes from, its
    headers); behind a trusted proxy it comes from the proxy (127.0.0.1), which says whom it forwards for."""
    return ("127.0.0.1", [f"X-Forwarded-For: {address}"]) if proxied else (address, [])


def connected(port, client, body_of):
    """A connection from ``client`` (from_client) that sends a request of ``body_of`` (headers, body)."""
    source, headers = client
    sock = socket.create_connection((LOOPBACK, port), timeout=30, source_address=(source, 0))
    more, body = body_of
    sock.sendall(request("POST", "/api/game", port, "Content-Type: application/json", *more, *headers, body=body))
    return sock


STALLED = (["Content-Length: 100"], b"{")  # a body that never ends: the connection is held
WHOLE = (["Content-Length: 2"], b"{}")


@pytest.mark.parametrize("proxied", [False, True])
def test_an_address_past_its_share_of_connections_is_answered_503_and_others_are_served(tmp_path, proxied):
    """Two connections an address at most (one worker, FLASK_CONNECTIONS_PER_ADDRESS=2): the third, once
    it sends its request, is answered 503 with Retry-After; another address is served. Behind a trusted
    proxy every connection comes from the proxy, and each is counted by the client it forwards for."""
    env = {"FLASK_INSTANCE_PATH": tmp_path / "data", "FLASK_CONNECTIONS_PER_ADDRESS": "2",
           "FLASK_TRUSTED_PROXIES": "1" if proxied else "0"}  # fmt: skip
    with gunicorn_server(env=env, args=["--workers", "1"]) as server:
        crowd = from_client("127.0.0.9", proxied)
        held = [connected(server.port, crowd, STALLED) for _ in range(2)]
        try:
            with connected(server.port, crowd, WHOLE) as third:
                answer = b""
                while chunk := third.recv(65536):
                    answer += chunk
            status, content_type, body = answered(answer)
            assert (status, content_type) == (503, "application/json") and b"\r\nRetry-After: 1\r\n" in answer
            assert "holds 2 connections" in json.loads(body)["error"]["message"]
            with connected(server.port, from_client("127.0.0.8", proxied), WHOLE) as other:
                assert other.recv(65536).startswith(b"HTTP/1.1 201 ")
        finally:
            for sock in held:
                sock.close()


@pytest.mark.parametrize("coding", ["chunked", "identity, chunked", "CHUNKED"])
def test_a_chunked_body_in_more_chunks_than_any_client_sends_is_refused_413(checkout_server, coding):
    """However its Transfer-Encoding is spelt, a body gunicorn reads as chunked is followed chunk by chunk."""
    port = checkout_server.port
    body = b"1\r\n \r\n" * 300 + b"0\r\n\r\n"
    sent = request("POST", "/api/game", port, "Content-Type: application/json", f"Transfer-Encoding: {coding}",
                   body=body)  # fmt: skip
    status, content_type, answer = answered(raw(port, sent))
    assert (status, content_type) == (413, "application/json") and b"chunks" in answer
