"""The worker-memory benchmark runs end to end (it measures what the README quotes)."""

import pytest

from bench import hints

pytestmark = pytest.mark.slow


def test_the_hint_benchmark_plays_auto_play_and_reports_the_workers_memory(capsys):
    result = hints.main(["--hints", "20", "--budget-ms", "5"])
    assert result["hints"] == 20 and '"rss_mb"' in capsys.readouterr().out
    assert 0 < result["solver_ms"]["median"] <= result["client_ms"]["median"]
    before, after = result["rss_mb"]["before"], result["rss_mb"]["after"]
    assert 0 < before["anonymous"] < before["rss"] and 0 < after["files"] < after["rss"]
