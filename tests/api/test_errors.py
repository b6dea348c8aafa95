"""Bad requests get a clear JSON error with the right status, and change nothing."""

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.routes.game_api import MAX_RESTORE_LENGTH

ROUTES = [("post", "/api/game"), ("put", "/api/game"), ("post", "/api/game/moves"), ("post", "/api/game/keep-playing")]


@pytest.mark.parametrize("method,path", ROUTES)
def test_state_changing_routes_accept_only_json(client, method, path):
    reply = getattr(client, method)(path, data="direction=up", content_type="application/x-www-form-urlencoded")
    assert reply.status_code == 415
    assert reply.get_json()["error"]["code"] == "unsupported_media_type"


@pytest.mark.parametrize("method,path", ROUTES)
@pytest.mark.parametrize("raw", [b"{", b"", b"\xff\xfe", b"[" * 3000 + b"]" * 3000, b"NaN]"])
def test_malformed_json_is_a_400_never_a_500(client, method, path, raw):
    reply = getattr(client, method)(path, data=raw[:4000], content_type="application/json")
    assert reply.status_code == 400
    assert reply.get_json()["error"]["code"] in {"invalid_json", "invalid_body"}


@pytest.mark.parametrize(
    "raw", [b'{"moves": NaN}', b'{"moves": -Infinity}', b'{"moves": 1e999}', b'{"id": "\\ud800"}', b'\xef\xbb\xbf{}']
)
def test_what_strict_json_refuses_is_invalid_json(client, raw):
    """Python's json would read NaN, infinities, a number past a float, a lone surrogate and a byte order
    mark; strict JSON in UTF-8 (RFC 8259) has none of them, nor does any game."""
    reply = client.post("/api/game/moves", data=raw, content_type="application/json")
    assert reply.status_code == 400
    assert reply.get_json()["error"]["code"] == "invalid_json"


def test_bodies_over_the_cap_are_413(client):
    reply = client.post("/api/game/moves", data=b"{" + b" " * 10_000 + b"}", content_type="application/json")
    assert reply.status_code == 413
    assert reply.get_json()["error"]["code"] == "request_entity_too_large"


def test_a_restore_has_a_cap_of_its_own_for_the_sealed_copy_it_carries(client):
    assert chunked(client, b"{" + b" " * 60_000 + b"}", method="PUT", path="/api/game").status_code == 400
    over = chunked(client, b"{" + b" " * MAX_RESTORE_LENGTH + b"}", method="PUT", path="/api/game")
    assert over.status_code == 413


def test_unknown_api_paths_are_json_404(client):
    reply = client.get("/api/nothing-here")
    assert reply.status_code == 404 and reply.is_json
    assert reply.get_json()["error"]["code"] == "not_found"


def test_wrong_methods_are_json_405_with_allow(client):
    reply = client.delete("/api/game")
    assert reply.status_code == 405 and reply.is_json
    assert {"GET", "POST", "PUT"} <= set(reply.headers["Allow"].replace(" ", "").split(","))


def test_page_404_is_a_small_html_page(client):
    reply = client.get("/no-such-page")
    assert reply.status_code == 404
    assert reply.mimetype == "text/html" and b"404" in reply.data


def test_healthz_says_the_process_serves_and_readyz_that_it_can_work(client):
    reply = client.get("/healthz")
    assert reply.status_code == 200 and reply.get_json()["status"] == "ok"  # its version: tests/deploy/test_version.py
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.get_json() == {"status": "ready"}


BAD_HOSTS = [".a", "a..b", "a" * 64 + ".example", "example." + "b" * 64]


@pytest.mark.parametrize("host", BAD_HOSTS)
@pytest.mark.parametrize("path", ["/", "/rules", "/static/css/style.css", "/no-such-page", "/api/game", "/healthz"])
def test_a_host_header_with_an_empty_or_overlong_label_is_a_small_400(make_app, caplog, host, path):
    client = make_app(TESTING=False).test_client()
    reply = client.get(path, headers={"Host": host})
    assert reply.status_code == 400
    assert len(reply.data) < 2000 and b"Traceback" not in reply.data
    assert not [record for record in caplog.records if record.levelname == "ERROR"]


labels = st.text(alphabet="abc-.\u00e9\u4e2d0", max_size=70)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    host=st.lists(labels, min_size=1, max_size=4).map(".".join), path=st.sampled_from(["/", "/api/game", "/healthz"])
)
def test_any_host_header_is_answered_without_a_5xx(client, host, path):
    assert client.get(path, headers={"Host": host}).status_code < 500


def chunked(client, body, method="POST", path="/api/game/moves"):
    """A body sent in chunks, without Content-Length, as gunicorn hands it over."""
    return client.open(
        path,
        method=method,
        input_stream=io.BytesIO(body),
        content_type="application/json",
        headers={"Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )


def test_a_chunked_body_over_the_cap_is_413_and_changes_nothing(client):
    client.get("/api/game")
    before = client.get("/api/game").get_json()
    reply = chunked(client, b"{" + b" " * 1_000_000 + b"}")
    assert reply.status_code == 413 and reply.get_json()["error"]["code"] == "request_entity_too_large"
    assert client.get("/api/game").get_json() == before


def test_a_chunked_body_under_the_cap_is_read_whole(client):
    state = {
        "board": [[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4],
        "score": 0,
        "won": False,
        "keep_playing": False,
        "moves": 0,
    }
    body = json.dumps(state).encode()
    assert chunked(client, body + b" " * (4096 - len(body)), method="PUT", path="/api/game").status_code == 200


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(size=st.integers(0, 3 * 4096) | st.integers(4090, 4100))
def test_a_chunked_body_is_413_exactly_when_it_is_over_the_cap(client, size):
    body = (b"{" + b" " * size + b"}")[:size] if size else b""
    reply = chunked(client, body)
    assert (reply.status_code == 413) == (size > 4096), (size, reply.status_code)
    assert reply.status_code < 500


@pytest.mark.parametrize(
    "path", ["/static/js/nope.js", "/static/../app/config.py", "/static/js/../../app/config.py", "/static/js/main.js"]
)
def test_static_files_that_are_not_there_are_404_and_options_name_the_methods(client, path):
    """OPTIONS is answered by Flask for the static route (any file name), with its methods and no body."""
    for method in ("GET", "HEAD"):
        assert client.open(path, method=method).status_code == (200 if path.endswith("main.js") else 404)
    reply = client.options(path)
    assert reply.status_code == 200 and "GET" in reply.headers["Allow"] and reply.data == b""


@pytest.mark.parametrize(("path", "status"), [("/api/game", 200), ("/api/game/moves", 405), ("/api/nowhere", 404)])
def test_head_answers_under_the_api_are_typed_json(client, path, status):
    reply = client.head(path)
    assert reply.status_code == status and reply.mimetype == "application/json" and reply.data == b""
