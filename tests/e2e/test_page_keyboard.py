"""Keyboard play: every key family, rapid typing through the input queue, keys left alone."""

import random

import pytest

from tests.support.game_page import (
    ALL_KEYS,
    KEYS,
    MoveTraffic,
    Replay,
    dom_board,
    dom_score,
    load,
    move_requests,
    replay,
    seed_game,
    server_state,
    wait_idle,
)

pytestmark = pytest.mark.e2e

# up, left, down, right, left, up: with the seeded spawns every step changes the board
SEQUENCE = ["up", "left", "down", "right", "left", "up"]


@pytest.mark.parametrize("family", sorted(KEYS))
def test_key_family_moves_the_board_as_the_api_says(page, playwright, base_url, family):
    key_for = {direction: key for key, direction in KEYS[family].items()}
    seed_game(page, 11)
    load(page)
    reference = Replay(playwright, base_url, 11)
    try:
        assert dom_board(page) == reference.state["board"]
        for direction in SEQUENCE:
            page.keyboard.press(key_for[direction])
            wait_idle(page)
            expected = reference.move(direction)
            assert dom_board(page) == expected["board"], f"after {key_for[direction]} ({direction})"
            assert dom_score(page) == expected["score"]
    finally:
        reference.close()
    assert expected["moves"] >= 4  # the keys really moved tiles
    # mapped keys never scroll the page, though it is taller than the window
    assert page.evaluate("() => document.documentElement.scrollHeight > window.innerHeight")
    assert page.evaluate("() => window.scrollY") == 0


def test_rapid_typing_is_batched_in_order(page, playwright, base_url):
    rng = random.Random(2048)
    keys = [rng.choice(sorted(ALL_KEYS)) for _ in range(30)]
    directions = [ALL_KEYS[k] for k in keys]
    traffic = MoveTraffic(page, latency_ms=25)  # a little network latency, so presses pile up
    seed_game(page, 7)
    load(page)
    traffic.press(keys[0])  # it moves: its batch loads ahead.js, which sends batches without waiting
    wait_idle(page)
    assert traffic.batches == [directions[:1]]

    for key in keys[1:]:
        traffic.press(key)  # no waiting between presses
    wait_idle(page, timeout=30_000)

    expected = replay(playwright, base_url, 7, directions)
    assert dom_board(page) == expected["board"]
    assert dom_score(page) == expected["score"]
    assert server_state(page)["board"] == expected["board"]
    assert traffic.pressed_while_in_flight >= 10  # the presses really were queued...
    assert len(traffic.batches) < len(keys) // 2  # ...and went in batches, at most two on their way
    assert traffic.max_in_flight == 2
    pressed = iter(directions)
    sent = [direction for batch in traffic.batches for direction in batch]
    assert all(direction in pressed for direction in sent)  # in the order pressed, none twice


def test_modifiers_and_form_fields_are_left_to_the_browser(page):
    seed_game(page, 3)
    load(page)
    sent = move_requests(page)

    for combo in ["Control+ArrowLeft", "Alt+ArrowRight", "Shift+ArrowUp", "Meta+ArrowDown", "Control+h", "Shift+J"]:
        page.keyboard.press(combo)
    page.evaluate(
        """() => {
            const input = document.createElement('input');
            input.id = 'probe-input';
            input.setAttribute('aria-label', 'probe');
            document.body.append(input);
        }"""
    )
    page.locator("#probe-input").focus()
    for key in ["ArrowLeft", "ArrowRight", "a", "d", "h", "l"]:
        page.keyboard.press(key)
    assert page.locator("#probe-input").input_value() == "adhl"

    # a mapped key outside the field still moves: the checks above were not vacuous
    page.locator("#probe-input").blur()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    wait_idle(page)
    assert [r.post_data_json["directions"] for r in sent] == [["left"], ["right"]]
    assert dom_board(page) == server_state(page)["board"]
