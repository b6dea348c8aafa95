"""The slow-clients benchmark runs end to end against the image's command (a few dozen requests to 127.0.0.1)."""

import pytest

from bench.slow_clients import report, run

pytestmark = pytest.mark.slow


def test_the_slow_clients_script_runs_and_reports_both_phases():
    result = run("image", slow=3, moves=10)
    assert result["alone"]["answered"] == result["with_slow"]["answered"] == 10
    assert result["slow_open_at_end"] == 3 and result["p90_ratio"] > 0
    assert "with 3 slow" in report(result)


def test_the_floods_come_from_another_address_than_the_player():
    result = run("readme", slow=4, moves=10, attack="idle")
    assert result["attack"] == "idle" and result["with_slow"]["answered"] == 10
    assert "with 4 idle" in report(result)
