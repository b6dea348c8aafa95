"""How a review rates a move: the share of the way to a lost game it took, in a player's words."""

import pytest

from app.review import LOST, rating, share_lost

# A board full of big tiles: every move's value is far below zero (the solver's values, rounded).
ALL_NEGATIVE = {"up": -412_000.0, "left": -419_500.0, "down": -905_000.0, "right": LOST}


def rated(scores, played):
    best = max(scores, key=scores.__getitem__)
    share = share_lost(scores[best] - scores[played], scores[best])
    return share, rating(share)


def test_with_every_value_below_zero_the_share_stays_within_the_whole_and_means_the_same():
    shares = {played: rated(ALL_NEGATIVE, played) for played in ALL_NEGATIVE}
    assert shares["up"] == (0.0, "best")
    assert shares["left"][0] == pytest.approx(7_500 / (-412_000 - LOST))  # well under a percent of the way down
    assert shares["left"][1] == "good"
    assert shares["down"][0] == pytest.approx(493_000 / (-412_000 - LOST)) and shares["down"][1] == "blunder"
    assert shares["right"] == (1.0, "blunder")  # as bad as losing the game at once, and no worse
    assert all(0 <= share <= 1 for share, _ in shares.values())


def test_an_early_move_no_move_can_lose_with_is_never_a_blunder():
    """Near the start the values are small and of either sign: their size says nothing of the game."""
    early = {"up": 1_200.0, "left": -600.0, "down": -2_900.0}
    assert rated(early, "left")[1] == "good"
    assert rated(early, "down")[1] == "good" and rated(early, "down")[0] < 0.01


@pytest.mark.parametrize(
    ("share", "word"),
    [(0.0, "best"), (0.004, "good"), (0.01, "good"), (0.03, "inaccuracy"), (0.05, "inaccuracy"),
     (0.12, "mistake"), (0.2, "mistake"), (0.35, "blunder"), (1.0, "blunder")],
)
def test_the_words_for_each_share(share, word):
    assert rating(share) == word


def test_where_every_move_loses_the_game_no_move_lost_anything():
    assert share_lost(0.0, LOST) == 0.0
    assert share_lost(10.0, LOST - 5) == 0.0
