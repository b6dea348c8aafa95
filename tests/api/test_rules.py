"""The rules page: every section in both languages, and examples the engine agrees with."""

import re
from html.parser import HTMLParser

import pytest

from app.engine import CLASSIC, pack, unpack
from app.engine.sliding import is_over, move

SECTIONS = [
    "goal",
    "players",
    "equipment",
    "setup",
    "moves",
    "valid-moves",
    "merging",
    "scoring",
    "winning",
    "losing",
    "tiles",
    "mistakes",
    "controls",
]


class Figures(HTMLParser):
    """Collects each <figure>'s attributes and the cells of the diagrams inside it."""

    def __init__(self):
        super().__init__()
        self.figures = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "figure":
            self.figures.append({"attrs": attrs, "boards": []})
        elif "data-cells" in attrs:
            rows = [[int(v) for v in row.split(",")] for row in attrs["data-cells"].split(";")]
            self.figures[-1]["boards"].append(rows)


def figures(html):
    parser = Figures()
    parser.feed(html)
    return parser.figures


def full(rows):
    """A single-row example as a board (left and right moves act on each row alone)."""
    return rows + [[0, 0, 0, 0]] * (4 - len(rows))


@pytest.fixture(params=["en", "cs"])
def rules_html(request, client):
    return client.get("/rules", headers={"Accept-Language": request.param}).get_data(as_text=True)


def test_every_section_is_there_with_its_heading(rules_html):
    for section in SECTIONS:
        assert re.search(rf'<h2 id="{section}">[^<]+</h2>', rules_html), section
        assert f'<a href="#{section}">' in rules_html


def test_every_move_example_is_what_the_engine_does(rules_html):
    examples = [f for f in figures(rules_html) if "data-move" in f["attrs"]]
    assert len(examples) == 6
    for example in examples:
        before, after = example["boards"]
        board, _ = move(pack(full(before)), example["attrs"]["data-move"])
        assert unpack(board, CLASSIC)[: len(after)] == after, example


def test_the_merge_examples_of_the_official_rules(rules_html):
    shown = [(f["boards"][0], f["boards"][1]) for f in figures(rules_html) if "data-move" in f["attrs"]]
    assert ([[4, 4, 4, 4]], [[8, 8, 0, 0]]) in shown
    assert ([[4, 4, 4, 0]], [[8, 4, 0, 0]]) in shown


def test_the_full_boards_are_over_only_without_equal_neighbours(rules_html):
    full_boards = [f for f in figures(rules_html) if len(f["boards"]) == 1 and all(map(all, f["boards"][0]))]
    assert sorted(is_over(pack(f["boards"][0])) for f in full_boards) == [False, True]
    for figure in full_boards:
        assert (figure["attrs"].get("data-over") == "true") == is_over(pack(figure["boards"][0]))


def test_the_tile_ladder_goes_up_to_131072_in_the_games_colours(rules_html):
    ladder = re.search(r'<ol class="tile-ladder".*?</ol>', rules_html, re.DOTALL).group(0)
    values = [int(v) for v in re.findall(r'<li class="tile-(\d+) tile-d\d">', ladder)]
    assert values == [2**n for n in range(1, 18)]
    assert re.findall(r'<span class="tile-inner">(\d+)</span>', ladder) == [str(v) for v in values]


def test_diagrams_are_html_described_for_screen_readers(rules_html):
    assert "<img" not in rules_html
    labels = re.findall(r'<div class="diagram" role="img" aria-label="([^"]+)"', rules_html)
    assert len(labels) >= 14 and all(":" in label for label in labels)


def test_the_czech_rules_read_in_czech(client):
    html = client.get("/rules", headers={"Accept-Language": "cs"}).get_data(as_text=True)
    for text in [
        "Pravidla hry 2048",
        "Spojování dlaždic",
        "Jedno spojení na dlaždici v jednom tahu",
        "Čtyři chyby, které předčasně ukončí hru",
        "Před tahem: 4, 4, 4, 4",
    ]:
        assert text in html
