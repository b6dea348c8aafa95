"""The page's slide prediction is a view of the engine: the two agree on thousands of boards."""

import random

import pytest

from app.engine import CLASSIC, DIRECTIONS, pack, slide_tiles, unpack
from app.engine.sliding import move
from tests.support.game_page import load

pytestmark = pytest.mark.e2e

SPECIAL_ROWS = [
    [2, 2, 2, 2],
    [4, 4, 4, 0],
    [0, 4, 4, 4],
    [2, 0, 2, 4],
    [8, 8, 16, 16],
    [131072, 131072, 0, 0],
    [65536, 65536, 131072, 0],
    [0, 0, 0, 0],
]


def boards(count, seed=12):
    rng = random.Random(seed)
    for row in SPECIAL_ROWS:
        yield [row, row[::-1], [0] * 4, row]
    for _ in range(count):
        density = rng.random()
        top = rng.randint(1, CLASSIC.max_exponent)
        yield [[(1 << rng.randint(1, top)) if rng.random() < density else 0 for _ in range(4)] for _ in range(4)]


def engine_case(board, direction):
    packed = pack(board)
    after, gained = move(packed, direction)
    return {
        "board": unpack(after, CLASSIC),
        "gained": gained,
        "moved": after != packed,
        "tiles": slide_tiles(packed, direction),
    }


def test_prediction_and_engine_agree_on_thousands_of_boards(page):
    load(page)
    cases = [(board, direction) for board in boards(1000) for direction in DIRECTIONS]
    predicted = page.evaluate(
        """async (cases) => {
            const { predictMove } = await import('/static/js/slide.js');
            return cases.map(([board, direction]) => predictMove(board, direction));
        }""",
        cases,
    )
    assert len(predicted) == len(cases) > 4000
    mismatches = [
        (board, direction)
        for (board, direction), page_says in zip(cases, predicted, strict=True)
        if page_says != engine_case(board, direction)
    ]
    assert mismatches == []
