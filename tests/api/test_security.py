"""Safe by default: headers, cookies, cross-site refusal, rate limits, bounded storage."""

import time

import pytest

from app import limits
from app.engine import Game
from tests.support.states import restorable_state
from tests.support.stored_sessions import entry_count

LIVE_BOARD = [[2, 0, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]


@pytest.mark.parametrize("path", ["/", "/api/game", "/healthz", "/api/missing", "/missing"])
def test_every_response_carries_the_security_headers(client, path):
    headers = client.get(path).headers
    csp = headers["Content-Security-Policy"]
    for directive in [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    ]:
        assert directive in csp
    assert "unsafe-inline" not in csp
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] and headers["Permissions-Policy"]
    assert "Strict-Transport-Security" not in headers


def test_tls_configuration_adds_hsts_and_secure_cookies(make_app):
    client = make_app(SESSION_COOKIE_SECURE=True).test_client()
    reply = client.get("/api/game", base_url="https://localhost")
    assert "max-age=" in reply.headers["Strict-Transport-Security"]
    assert "Secure" in reply.headers["Set-Cookie"]


def test_writes_from_another_site_are_refused_and_change_nothing(client):
    before = client.put("/api/game", json=restorable_state(LIVE_BOARD)).get_json()
    foreign = client.post("/api/game/moves", json={"direction": "right"}, headers={"Origin": "https://evil.example"})
    assert foreign.status_code == 403 and foreign.get_json()["error"]["code"] == "cross_origin"
    fetch_meta = client.post("/api/game", json={}, headers={"Sec-Fetch-Site": "cross-site"})
    assert fetch_meta.status_code == 403
    assert client.get("/api/game").get_json()["board"] == before["board"]


def test_same_origin_writes_pass_with_or_without_an_origin_header(client):
    client.put("/api/game", json=restorable_state(LIVE_BOARD))
    same = client.post(
        "/api/game/moves",
        json={"direction": "right"},
        headers={"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"},
    )
    bare = client.post("/api/game/moves", json={"direction": "left"})
    assert same.status_code == 200 and bare.status_code == 200
    assert bare.get_json()["moves"] == 2


def test_rate_limit_answers_429_json_with_retry_after(make_app):
    client = make_app(RATELIMIT_ENABLED=True, API_RATE_LIMIT="3 per minute").test_client()
    statuses = [client.get("/api/game").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    limited = client.get("/api/game")
    assert limited.get_json()["error"]["code"] == "too_many_requests"
    assert int(limited.headers["Retry-After"]) > 0
    assert client.get("/healthz").status_code == 200  # only the API is limited


def test_rate_limits_can_be_switched_off(make_app):
    client = make_app(RATELIMIT_ENABLED=False, API_RATE_LIMIT="3 per minute").test_client()
    assert {client.get("/api/game").status_code for _ in range(10)} == {200}


def test_sessions_expire_after_the_idle_time(make_app):
    client = make_app(PERMANENT_SESSION_LIFETIME=2).test_client()
    client.get("/api/game")
    time.sleep(1)
    assert client.get("/api/game").get_json()["created"] is False
    time.sleep(3.2)
    assert client.get("/api/game").get_json()["created"] is True


def test_the_embedded_store_stays_bounded_under_a_session_flood(make_app):
    app = make_app(SESSION_STORE_LIMIT=40)
    for _ in range(150):
        app.test_client().get("/api/game")
    assert entry_count(app) <= 45


def test_a_crash_is_a_plain_500_without_a_stack_trace(make_app, monkeypatch):
    app = make_app(TESTING=False)  # as in production: the error is answered, not raised in the test
    client = app.test_client()
    client.get("/api/game")

    def broken(self, direction):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(Game, "play", broken)
    reply = client.post("/api/game/moves", json={"direction": "up"})
    assert reply.status_code == 500 and reply.get_json()["error"]["code"] == "internal_server_error"
    assert b"secret internals" not in reply.data and b"Traceback" not in reply.data


def test_page_routes_answer_405_with_a_small_html_page(client):
    reply = client.post("/")
    assert reply.status_code == 405 and reply.mimetype == "text/html"


def test_the_api_rate_limit_counts_a_client_across_routes(make_app):
    client = make_app(RATELIMIT_ENABLED=True, API_RATE_LIMIT="4 per minute").test_client()
    replies = [
        client.get("/api/game"),
        client.post("/api/game/moves", json={"direction": "left"}),
        client.post("/api/game", json={}),
        client.put("/api/game", json=restorable_state(LIVE_BOARD)),
        client.post("/api/game/hint", json={}),
    ]
    assert [reply.status_code for reply in replies[:4]] == [200, 200, 201, 200]
    assert replies[4].status_code == 429 and int(replies[4].headers["Retry-After"]) > 0


def test_new_sessions_per_client_address_are_limited(make_app):
    app = make_app(RATELIMIT_ENABLED=True, NEW_SESSION_RATE_LIMIT="3 per minute")
    players = [app.test_client() for _ in range(4)]
    assert players[3].post("/api/game/hint", json={}).status_code == 404  # no session made: not counted
    assert [player.get("/api/game").status_code for player in players[:3]] == [200, 200, 200]
    refused = players[3].get("/api/game")
    assert refused.status_code == 429 and refused.get_json()["error"]["code"] == "too_many_requests"
    assert int(refused.headers["Retry-After"]) > 0 and "Set-Cookie" not in refused.headers
    assert entry_count(app) == 3
    assert players[0].post("/api/game/moves", json={"direction": "left"}).status_code == 200


def test_new_sessions_over_every_address_have_a_last_line(make_app):
    app = make_app(RATELIMIT_ENABLED=True, NEW_SESSION_GLOBAL_LIMIT="3 per minute")
    addresses = [f"127.0.0.{n}" for n in range(2, 6)]
    players = [app.test_client() for _ in addresses]
    for player, address in zip(players, addresses, strict=True):
        player.environ_base["REMOTE_ADDR"] = address
    assert [player.get("/api/game").status_code for player in players[:3]] == [200, 200, 200]
    refused = players[3].get("/api/game")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert players[0].post("/api/game/moves", json={"direction": "left"}).status_code == 200  # sessions play on


@pytest.mark.parametrize(
    ("addresses", "same"),
    [
        (["2001:db8::1", "2001:db8::ffff:1"], True),  # one /64: one network, counted as one client
        (["2001:db8::1", "2001:db8:0:1::1"], False),
        (["::ffff:127.0.0.2", "127.0.0.2"], True),  # an IPv4 address written as IPv6 is that address
        (["127.0.0.2", "127.0.0.3"], False),
    ],
)
def test_limits_count_an_ipv6_network_by_its_slash_64(app, addresses, same):
    """Documentation addresses (RFC 3849): no request leaves the process."""
    keys = set()
    for address in addresses:
        with app.test_request_context(environ_base={"REMOTE_ADDR": address}):
            keys.add(limits.client_address())
    assert (len(keys) == 1) is same


def test_hsts_is_sent_only_on_https_answers(make_app):
    client = make_app(SESSION_COOKIE_SECURE=True).test_client()
    assert "Strict-Transport-Security" not in client.get("/").headers
    assert "max-age=" in client.get("/", base_url="https://localhost").headers["Strict-Transport-Security"]


def test_a_write_from_the_same_host_over_another_scheme_is_refused(client):
    before = client.put("/api/game", json=restorable_state(LIVE_BOARD)).get_json()
    other_scheme = client.post("/api/game/moves", json={"direction": "right"}, headers={"Origin": "https://localhost"})
    assert other_scheme.status_code == 403 and other_scheme.get_json()["error"]["code"] == "cross_origin"
    assert client.get("/api/game").get_json()["board"] == before["board"]


def test_behind_a_trusted_proxy_the_forwarded_scheme_is_compared(make_app):
    client = make_app(TRUSTED_PROXIES=1).test_client()
    client.put("/api/game", json=restorable_state(LIVE_BOARD))
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.4"}
    same = client.post("/api/game/moves", json={"direction": "right"}, headers=forwarded | {"Origin": "https://localhost"})
    downgraded = client.post("/api/game/moves", json={"direction": "left"}, headers=forwarded | {"Origin": "http://localhost"})
    assert same.status_code == 200 and downgraded.status_code == 403


@pytest.mark.parametrize("host", ["", "a b", "x@evil.example", "evil.example/path"])
@pytest.mark.parametrize("path", ["/", "/records", "/api/game", "/healthz"])
def test_a_host_header_that_is_not_a_host_name_is_400(make_app, host, path):
    """Links are built from the Host header: these would make links to nowhere ("http:///records/...")."""
    reply = make_app(TESTING=False).test_client().get(path, headers={"Host": host})
    assert reply.status_code == 400


def test_with_trusted_hosts_only_they_are_served_and_links_use_them(make_app):
    app = make_app(TRUSTED_HOSTS=["game.example"], TESTING=False)
    client = app.test_client()
    client.get("/api/game", headers={"Host": "game.example"})
    client.post("/api/game/moves", json={"direction": "left"}, headers={"Host": "game.example"})
    client.post("/api/game/moves", json={"direction": "right"}, headers={"Host": "game.example"})
    saved = client.post("/api/records", json={"name": "Ann"}, headers={"Host": "game.example"}).get_json()
    page = client.get(saved["url"], headers={"Host": "game.example"}).get_data(as_text=True)
    assert f'value="http://game.example/records/{saved["id"]}"' in page
    for path in ("/", saved["url"], "/api/game", "/healthz"):
        assert client.get(path, headers={"Host": "evil.example"}).status_code == 400
    for loopback in ("127.0.0.1:8000", "localhost"):  # health checks ask there
        assert client.get("/healthz", headers={"Host": loopback}).status_code == 200


def test_cookies_are_secure_when_the_game_is_served_over_https(make_app):
    """SESSION_COOKIE_SECURE's default, "auto", follows the scheme the player used."""
    assert "Secure" not in make_app().test_client().get("/api/game").headers["Set-Cookie"]
    over_tls = make_app().test_client().get("/api/game", base_url="https://localhost")
    assert "Secure" in over_tls.headers["Set-Cookie"] and "Strict-Transport-Security" in over_tls.headers
    proxied = make_app(TRUSTED_PROXIES=1).test_client().get(
        "/api/game", headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "127.0.0.2"}
    )
    assert "Secure" in proxied.headers["Set-Cookie"]
    language = make_app().test_client().get("/language/cs", base_url="https://localhost")
    assert "Secure" in language.headers["Set-Cookie"]
    forced_off = make_app(SESSION_COOKIE_SECURE=False).test_client().get("/api/game", base_url="https://localhost")
    assert "Secure" not in forced_off.headers["Set-Cookie"]
