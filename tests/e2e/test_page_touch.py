"""Touch play on a phone-sized screen: swipes move, the page never scrolls."""

import pytest

from tests.support.game_page import Replay, dom_board, move_requests, seed_game, wait_idle

pytestmark = pytest.mark.e2e

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
VECTORS = {"left": (-120, 8), "up": (-6, -120), "right": (120, -10), "down": (9, 120)}


def touch(cdp, kind, points):
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y} for x, y in points]})


def swipe(cdp, start, delta, steps=6, fingers=1):
    (x0, y0), (dx, dy) = start, delta
    offsets = [(0, 0), (30, 0)][:fingers]
    touch(cdp, "touchStart", [(x0 + ox, y0 + oy) for ox, oy in offsets])
    for i in range(1, steps + 1):
        x, y = x0 + dx * i / steps, y0 + dy * i / steps
        touch(cdp, "touchMove", [(x + ox, y + oy) for ox, oy in offsets])
    touch(cdp, "touchEnd", [])


def scroll_position(page):
    return page.evaluate(
        "() => ({x: window.scrollX, y: window.scrollY,"
        " overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth})"
    )


def test_swipes_move_and_never_scroll(new_context, base_url, playwright, console_guard):
    context = console_guard.watch(new_context(**PHONE))
    page = context.new_page()
    seed_game(page, 5)
    page.goto("/")
    wait_idle(page)
    # the page is taller than the phone, so a swipe that scrolled would show
    assert page.evaluate("() => document.documentElement.scrollHeight > window.innerHeight + 100")
    box = page.get_by_test_id("board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360  # the whole board fits
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    cdp = context.new_cdp_session(page)
    reference = Replay(playwright, base_url, 5)
    sent = move_requests(page)
    try:
        for direction in ["left", "up", "right", "down", "up", "left"]:
            swipe(cdp, centre, VECTORS[direction])
            wait_idle(page)
            assert dom_board(page) == reference.move(direction)["board"], direction
            assert scroll_position(page) == {"x": 0, "y": 0, "overflow": 0}, direction
        valid = reference.state["moves"]
        assert len(sent) == valid >= 4  # one request a swipe that moves; a swipe that cannot, none

        # a jitter and a two-finger swipe do nothing
        swipe(cdp, centre, (5, -6))
        swipe(cdp, centre, (0, -150), fingers=2)
        wait_idle(page)
        assert len(sent) == valid
        assert dom_board(page) == reference.state["board"]
        assert scroll_position(page) == {"x": 0, "y": 0, "overflow": 0}
    finally:
        reference.close()

    # control: the same swipe below the board does scroll, so the checks above mean something
    text = page.locator("#how-to-play").bounding_box()
    swipe(cdp, (180, text["y"] + 10), (0, -200))
    page.wait_for_function("() => window.scrollY > 0")
    assert len(sent) == valid
