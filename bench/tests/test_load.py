"""The load benchmark runs end to end against a real gunicorn (a few hundred requests to 127.0.0.1)."""

import pytest

from bench.load import CpuMeter, run_load
from tests.support.servers import gunicorn_server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server():
    with gunicorn_server(env={"FLASK_RATELIMIT_ENABLED": "false"}, args=["--workers", "3"]) as running:
        yield running


def test_the_load_script_runs_without_errors(server):
    meter = CpuMeter({"server": server.process.pid})
    result = run_load(server.url, sessions=6, moves=15, threads=3, meter=meter)
    assert result["moves"]["errors"] == 0 and result["healthz"]["errors"] == 0
    assert result["moves"]["requests"] == 90
    assert result["ratio"] > 0
    for measured in (result["moves"], result["healthz"]):
        assert measured["cpu_us_per_request"]["server"] > 0 and measured["cpu_us_per_request"]["client"] > 0
