"""Random JSON and random bytes at every route: never a 5xx, always a JSON error, nothing changed."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import create_app
from tests.support.states import restorable_state

ROUTES = [("post", "/api/game"), ("put", "/api/game"), ("post", "/api/game/moves"), ("post", "/api/game/keep-playing")]
START = restorable_state([[2, 0, 0, 0], [0, 4, 0, 0], [0, 0, 1024, 0], [0, 0, 0, 0]], score=16, moves=3)

scalars = (
    st.none() | st.booleans() | st.integers(min_value=-(2**80), max_value=2**80) | st.floats() | st.text(max_size=20)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=30,
)
field_names = st.sampled_from(
    ["board", "score", "won", "over", "keep_playing", "moves", "seed", "direction", "directions", "id", "x", "ünï", ""]
)
near_miss_objects = st.dictionaries(
    field_names, json_values | st.sampled_from([START["board"], "up", "left", 7, 2**63, True]), max_size=7
)
deep = st.integers(min_value=1, max_value=1500).map(lambda depth: "[" * depth + "]" * depth)
bodies = json_values.map(json.dumps) | near_miss_objects.map(json.dumps) | deep

FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory):
    app = create_app({"INSTANCE_PATH": tmp_path_factory.mktemp("fuzz"), "RATELIMIT_ENABLED": False})
    return app.test_client()


def check(client, method, path, **request):
    client.put("/api/game", json=START)
    before = client.get("/api/game").get_json()
    reply = getattr(client, method)(path, **request)
    assert reply.status_code < 500, reply.data
    assert reply.is_json
    if reply.status_code >= 400:
        assert set(reply.get_json()["error"]) == {"code", "message"}
        assert client.get("/api/game").get_json() == before


@pytest.mark.parametrize("method,path", ROUTES)
@FUZZ
@given(body=bodies)
def test_random_json_never_breaks_a_route(fuzz_client, method, path, body):
    check(fuzz_client, method, path, data=body.encode("utf-8", "surrogatepass"), content_type="application/json")


@pytest.mark.parametrize("method,path", ROUTES)
@FUZZ
@given(
    raw=st.binary(max_size=600),
    content_type=st.sampled_from(["application/json", "text/plain", "application/octet-stream", ""]),
)
def test_random_bytes_never_break_a_route(fuzz_client, method, path, raw, content_type):
    check(fuzz_client, method, path, data=raw, content_type=content_type)


@FUZZ
@given(direction=json_values)
def test_random_directions_are_refused_or_played(fuzz_client, direction):
    check(fuzz_client, "post", "/api/game/moves", json={"direction": direction})
