"""Bad requests get a clear JSON error with the right status, and change nothing."""

import pytest

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


def test_bodies_over_the_cap_are_413(client):
    reply = client.put("/api/game", data=b"{" + b" " * 10_000 + b"}", content_type="application/json")
    assert reply.status_code == 413
    assert reply.get_json()["error"]["code"] == "request_entity_too_large"


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


def test_healthz_answers_when_the_store_does(client):
    reply = client.get("/healthz")
    assert reply.status_code == 200 and reply.get_json() == {"status": "ok"}
