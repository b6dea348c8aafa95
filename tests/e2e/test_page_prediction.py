"""The page's slide prediction is a view of the engine: the two agree on thousands of boards of
every size, the top of each size's tile ladder included."""

import json
import random

import pytest

from app.engine import DIRECTIONS, VARIANTS, kernel_for, pack, slide_tiles, unpack
from tests.support.game_page import load

pytestmark = pytest.mark.e2e

# Rows of the classic board; on another size, cut or padded with empty cells.
SPECIAL_ROWS = [
    [2, 2, 2, 2],
    [4, 4, 4, 0],
    [0, 4, 4, 4],
    [2, 0, 2, 4],
    [8, 8, 16, 16],
    [0, 0, 0, 0],
]
BOARDS_PER_SIZE = {3: 300, 4: 1000, 5: 300, 6: 200, 7: 150, 8: 150}


def boards(variant, count, seed=12):
    rng = random.Random(seed + variant.size)
    size, top = variant.size, 1 << variant.max_exponent  # the top of the ladder: a pair never merges
    fit = lambda row: (row + [0] * size)[:size]  # noqa: E731
    for row in [*SPECIAL_ROWS, [top, top, 0, 0], [top // 2, top // 2, top, 0]]:
        yield [fit(row), fit(row[::-1]), *[[0] * size] * (size - 3), fit(row)]
    for _ in range(count):
        density = rng.random()
        # a random board's points stay exact in a double (as the API's JSON): its tiles up to 2**48
        highest = rng.randint(1, min(variant.max_exponent, 48))
        yield [
            [(1 << rng.randint(1, highest)) if rng.random() < density else 0 for _ in range(size)] for _ in range(size)
        ]


def engine_case(board, direction, variant):
    packed = pack(board, variant)
    after, gained = kernel_for(variant).move(packed, direction)
    return {
        "board": unpack(after, variant),
        "gained": gained,
        "moved": after != packed,
        "tiles": slide_tiles(packed, direction, variant),
    }


@pytest.mark.parametrize("size", sorted(BOARDS_PER_SIZE))
def test_prediction_and_engine_agree_on_thousands_of_boards(page, size):
    variant = VARIANTS[size]
    load(page)
    cases = [(board, direction) for board in boards(variant, BOARDS_PER_SIZE[size]) for direction in DIRECTIONS]
    # As JSON, as the API sends boards: tiles past 2**53 (8x8's top is 2**65) are the page's numbers
    # (doubles, exact for powers of two), not BigInts; read back as floats, they compare exactly.
    predicted = page.evaluate(
        """async (cases) => {
            const { predictMove } = await import('/static/js/slide.js');
            return JSON.stringify(JSON.parse(cases).map(([board, direction]) => predictMove(board, direction)));
        }""",
        json.dumps(cases),
    )
    predicted = json.loads(predicted, parse_int=float)
    assert len(predicted) == len(cases) >= 600
    mismatches = [
        (board, direction)
        for (board, direction), page_says in zip(cases, predicted, strict=True)
        if page_says != engine_case(board, direction, variant)
    ]
    assert mismatches == []
