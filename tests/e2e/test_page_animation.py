"""Moves slide at once, as the page predicts them; the new tile appears with the server's answer."""

import pytest

from tests.support.game_page import MOVES, MoveTraffic, dom_board, load, put_game, server_state, wait_idle

pytestmark = pytest.mark.e2e

RECORDER = """() => {
  const tiles = document.getElementById('tiles');
  let next = 0;
  const snap = () => [...tiles.children].map((el) => {
    if (!el.__id) el.__id = `t${next++}`;
    return {id: el.__id, row: Number(el.dataset.row), col: Number(el.dataset.col),
            value: Number(el.dataset.value), cls: el.className};
  });
  window.__frames = [snap()];
  new MutationObserver(() => window.__frames.push(snap()))
    .observe(tiles, {childList: true, attributes: true, attributeFilter: ['data-row', 'data-col'], subtree: true});
  window.__plus = [];
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (n.classList && n.classList.contains('score-addition')) window.__plus.push(n.textContent);
    }
  }).observe(document.getElementById('score-box'), {childList: true});
}"""


def test_tiles_slide_merge_pop_and_appear(page):
    traffic = MoveTraffic(page, latency_ms=300)  # the answer takes a while: the slide must not wait for it
    put_game(page, [[2, 2, 0, 4], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], moves=1)
    load(page)
    page.evaluate(RECORDER)
    before = {(t["row"], t["col"]): t for t in page.evaluate("() => window.__frames[0]")}
    assert {k: t["value"] for k, t in before.items()} == {(0, 0): 2, (0, 1): 2, (0, 3): 4}
    slide = page.locator("[data-testid=board] [data-value]").first.evaluate(
        "el => getComputedStyle(el).transitionDuration"
    )
    assert slide == "0.1s"

    with page.expect_request(MOVES):
        page.keyboard.press("ArrowLeft")
    assert page.evaluate("() => window.__frames.length") == 2  # slid in the key's own task...
    assert traffic.in_flight == 1  # ...while the move is still on its way
    wait_idle(page)
    frames = page.evaluate("() => window.__frames")
    moved = frames[1]
    by_id = {t["id"]: t for t in moved}

    # the two 2s slide into (0, 0) and are still there, under the merged tile
    for cell in ((0, 0), (0, 1)):
        tile = by_id[before[cell]["id"]]
        assert (tile["row"], tile["col"]) == (0, 0) and "tile-leaving" in tile["cls"]
    # the 4 is the same element, slid from (0, 3) to (0, 1)
    four = by_id[before[(0, 3)]["id"]]
    assert (four["row"], four["col"], four["value"]) == (0, 1, 4)
    # a new element for the merged 4 pops; nothing else is new yet
    added = [t for t in moved if t["id"] not in {b["id"] for b in before.values()}]
    assert [(t["row"], t["col"], t["value"], "tile-merged" in t["cls"]) for t in added] == [(0, 0, 4, True)]

    # the spawned tile appears with the answer, where the server put it
    seen = {t["id"] for frame in frames[:2] for t in frame}
    spawned = [t for frame in frames[2:] for t in frame if t["id"] not in seen and "tile-new" in t["cls"]]
    assert len({t["id"] for t in spawned}) == 1
    server = server_state(page)["board"]
    assert server[spawned[0]["row"]][spawned[0]["col"]] == spawned[0]["value"] in (2, 4)

    # once the animation is over the merged-away tiles are gone and the board is the server's
    final = frames[-1]
    assert before[(0, 0)]["id"] not in {t["id"] for t in final}
    assert before[(0, 1)]["id"] not in {t["id"] for t in final}
    assert dom_board(page) == server_state(page)["board"]
    assert page.evaluate("() => window.__plus") == ["+4"]


# Every frame: how many "+N" are up at once, and any that stands out of the score's box.
PLUS_WATCH = """() => {
  const box = document.getElementById('score-box');
  window.__pluses = { most: 0, seen: 0, out: [] };
  const watch = () => {
    const b = box.getBoundingClientRect();
    const pluses = [...document.querySelectorAll('.score-addition')];
    window.__pluses.most = Math.max(window.__pluses.most, pluses.length);
    window.__pluses.seen += pluses.length > 0;
    for (const plus of pluses) {
      const r = plus.getBoundingClientRect();
      if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) window.__pluses.out.push([r.top, r.bottom, b.top]);
    }
    requestAnimationFrame(watch);
  };
  watch();
}"""

# Rows of pairs: every move for a while merges something.
MANY_MERGES = [[2, 2, 4, 4], [8, 8, 16, 16], [32, 32, 64, 64], [4, 4, 2, 2]]


def test_fast_auto_play_never_stacks_the_points_above_the_score(page):
    put_game(page, MANY_MERGES, score=500, moves=60)
    load(page)
    page.evaluate(PLUS_WATCH)
    page.get_by_role("group", name="Speed").get_by_role("button", name="Fast").click()
    page.get_by_test_id("autoplay").click()
    page.wait_for_function("() => JSON.parse(localStorage.getItem('gameState')).moves >= 68", timeout=30_000)
    page.get_by_test_id("autoplay").click()
    pluses = page.evaluate("() => window.__pluses")
    assert pluses["seen"] > 0  # the points did rise
    assert pluses["most"] == 1 and pluses["out"] == []
