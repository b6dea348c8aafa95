"""bench.move_cost: a short run times both forms of a move and the plain request."""

from bench import move_cost


def test_a_short_run_times_a_move_in_both_forms_against_a_plain_request(capsys):
    result = move_cost.main(["--requests", "40", "--rounds", "2"])
    assert set(result) == {"healthz_ms", "page_ms", "single_ms", "page_ratio", "single_ratio"}
    assert result["page_ms"] > result["healthz_ms"] < result["single_ms"]  # a move does more than /healthz
    assert "as the page sends it" in capsys.readouterr().out
