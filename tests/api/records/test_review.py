"""The replay's positions and the solver's review of a record, range by range, never twice."""

import threading
import time
from dataclasses import replace

import pytest

from app import hints
from app.database import Review, db
from app.engine import DIRECTIONS, pack
from app.engine.sliding import move
from app.review import LOST
from tests.support.client_play import boards, play, save

RANGE = 10
# Every move open, every value far below zero; left fills the last cell and nothing can merge then.
LEFT_LOSES = [[4, 64, 128, 2], [2, 32, 256, 8], [16, 0, 8, 32], [128, 16, 8, 128]]


@pytest.fixture
def client(make_records_app):
    return make_records_app(REVIEW_RANGE=RANGE, REVIEW_BUDGET_MS=5).test_client()


def test_a_records_tiles_rebuild_every_board_of_the_game(client):
    state = play(client, 30)
    record = client.get(f"/api/records/{save(client)}").get_json()
    rebuilt = boards(record)
    assert len(record["replay"]["tiles"]) == 32 and len(rebuilt) == 31  # a new game's two tiles, then one a move
    assert rebuilt[-1] == state["board"]
    assert sum(bool(value) for row in rebuilt[0] for value in row) == 2


def test_a_review_range_shows_the_solvers_move_and_the_loss_of_the_played_one(client):
    play(client, 25)
    record_id = save(client)
    record = client.get(f"/api/records/{record_id}").get_json()
    letters, positions = record["replay"]["directions"], boards(record)
    reply = client.get(f"/api/records/{record_id}/review?from=10")
    assert reply.status_code == 200
    body = reply.get_json()
    assert body["from"] == 10 and body["next"] == 20
    assert [item["position"] for item in body["reviews"]] == list(range(10, 20))
    for item in body["reviews"]:
        board = pack(positions[item["position"]])
        assert item["played"][0] == letters[item["position"]]
        assert move(board, item["best"])[0] != board and set(item["scores"]) <= set(DIRECTIONS)
        assert item["loss"] == pytest.approx(item["scores"][item["best"]] - item["scores"][item["played"]], abs=1e-3)
        assert item["mistake"] in (None, "directions", "trapped", "merges", "full")
        assert item["mistake"] is None or item["loss"] > 0
    last = client.get(f"/api/records/{record_id}/review?from=20").get_json()
    assert [item["position"] for item in last["reviews"]] == list(range(20, 25)) and last["next"] is None


def test_the_best_move_is_the_top_scored_one_even_where_the_hint_moved_otherwise(client, monkeypatch):
    """A hint cut short by its budget may pick another move than its scores rank first (Solver.suggest):
    the review still names the top-scored move, and measures the played move's loss from it."""
    play(client, 15)
    record_id = save(client)
    suggest = hints.review

    def lowest_scored(board, *args):
        hint = suggest(board, *args)
        return replace(hint, direction=min(hint.scores, key=hint.scores.__getitem__))

    monkeypatch.setattr(hints, "review", lowest_scored)
    reviews = client.get(f"/api/records/{record_id}/review?from=0").get_json()["reviews"]
    assert any(len(set(item["scores"].values())) > 1 for item in reviews)
    for item in reviews:
        top = max(item["scores"].values())
        assert item["scores"][item["best"]] == top
        assert item["loss"] == pytest.approx(top - item["scores"][item["played"]], abs=1e-3)


def test_no_position_is_analysed_twice(client, monkeypatch):
    play(client, 15)
    record_id = save(client)
    calls = []
    suggest = hints.review
    monkeypatch.setattr(hints, "review", lambda board, *args: calls.append(board) or suggest(board, *args))
    first = client.get(f"/api/records/{record_id}/review?from=0").get_json()
    assert len(calls) == RANGE
    again = client.get(f"/api/records/{record_id}/review?from=0").get_json()
    assert len(calls) == RANGE and again == first
    client.get(f"/api/records/{record_id}/review?from=5")
    assert len(calls) == 15  # only positions 10 to 14 were new


def test_the_biggest_mistakes_come_costliest_first(client):
    play(client, 20)
    record_id = save(client)
    before = client.get(f"/api/records/{record_id}/mistakes").get_json()
    assert before == {"analysed": 0, "positions": 20, "next": 10, "mistakes": []}
    reviews = client.get(f"/api/records/{record_id}/review?from=0").get_json()["reviews"]
    after = client.get(f"/api/records/{record_id}/mistakes").get_json()
    assert after["analysed"] == RANGE
    # The share unrounded (the API rounds it), the earlier position first on a tie.
    costliest = lambda item: (-item["loss"] / (item["scores"][item["best"]] - LOST), item["position"])  # noqa: E731
    expected = sorted((item for item in reviews if item["loss"] > 0), key=costliest)
    assert after["mistakes"] == expected[:10]


@pytest.mark.parametrize(
    # Digits of other kinds: superscript two, circled one, mathematical bold zero, Arabic-Indic one.
    "query",
    [
        "?from=-1",
        "?from=x",
        "?from=20",
        "?from=99999999999999999999",
        "?from=\u00b2",
        "?from=\u2460",
        "?from=\U0001d7ce",
        "?from=\u0661",
    ],
)
def test_bad_review_ranges_are_400(client, query):
    play(client, 20)
    reply = client.get(f"/api/records/{save(client)}/review{query}")
    assert reply.status_code == 400 and reply.get_json()["error"]["code"] == "invalid_from"


@pytest.mark.parametrize("path", ["review", "mistakes"])
def test_unknown_records_have_no_review(client, path):
    assert client.get(f"/api/records/AAAAAAAAAAAAAAAA/{path}").status_code == 404


def test_reviews_draw_on_the_addresss_time_with_its_hints(make_records_app):
    """Every use of the solver counts against one budget per address: a reviewer's hints wait too."""
    # 30 ms a minute is used up however fast a warm solver reviews: every request costs 1 ms or more.
    app = make_records_app(RATELIMIT_ENABLED=True, WORK_TIME_LIMIT="30 per minute", API_RATE_LIMIT="100000 per second",
                           REVIEW_RANGE=10, REVIEW_BUDGET_MS=10, REVIEW_RATE_LIMIT="1000 per second")  # fmt: skip
    player, reviewer, other = app.test_client(), app.test_client(), app.test_client()
    for client, address in ((player, "127.0.0.2"), (reviewer, "127.0.0.3"), (other, "127.0.0.4")):
        client.environ_base["REMOTE_ADDR"] = address
    player.post("/api/game", json={"seed": 4})  # a game that random play takes past 200 moves (few do)
    play(player, 200)
    record_id = save(player)  # its own address's time: the reviewer's is untouched
    statuses, first = [], 0
    while 429 not in statuses and len(statuses) < 100:
        reply = reviewer.get(f"/api/records/{record_id}/review?from={first}")
        statuses.append(reply.status_code)
        first = (reply.get_json() or {}).get("next") or 0
    assert statuses[0] == 200 and statuses[-1] == 429
    reviewer.get("/api/game")
    assert reviewer.post("/api/game/hint", json={}).get_json()["error"]["code"] == "too_many_requests"
    other.get("/api/game")
    assert other.post("/api/game/hint", json={}).status_code == 200


def test_a_players_hint_goes_before_another_addresss_review(make_records_app):
    """While one address reviews a game without a pause, another's hints are all answered."""
    app = make_records_app(REVIEW_RANGE=25, REVIEW_BUDGET_MS=30)
    reviewer, player = app.test_client(), app.test_client()
    reviewer.environ_base["REMOTE_ADDR"], player.environ_base["REMOTE_ADDR"] = "127.0.0.2", "127.0.0.3"
    play(reviewer, 150)
    record_id = save(reviewer)
    play(player, 30)
    reviewing, analysed = threading.Event(), []

    def review():
        first = 0
        while not reviewing.is_set():
            reply = reviewer.get(f"/api/records/{record_id}/review?from={first}")
            if reply.status_code == 200:
                analysed.append(len(reply.get_json()["reviews"]))
                first = reply.get_json()["next"] or 0

    thread = threading.Thread(target=review)
    thread.start()
    try:
        time.sleep(0.3)
        hints = []
        for _ in range(6):
            hints.append(player.post("/api/game/hint", json={}).status_code)
            time.sleep(0.1)
    finally:
        reviewing.set()
        thread.join()
    assert hints == [200] * 6
    assert sum(analysed) >= 25, "the review went on meanwhile"


def test_reading_and_reviewing_a_record_never_replays_its_randomness(client, monkeypatch):
    """Positions come from the tiles kept at save (no seed, no random draws): a long game's replay
    page costs its bytes, not a replay of the game (which took most of a second for 22,000 moves)."""
    play(client, 60)
    record_id = save(client)

    def refuse(*_args, **_kwargs):
        raise AssertionError("a read replayed the game")

    monkeypatch.setattr("app.engine.game.Game.replaying", refuse)
    record = client.get(f"/api/records/{record_id}").get_json()
    assert len(boards(record)) == 61
    assert client.get(f"/api/records/{record_id}/review?from=50").status_code == 200


def test_reading_records_draws_on_the_addresss_time(make_records_app):
    app = make_records_app(RATELIMIT_ENABLED=True, WORK_TIME_LIMIT="3 per minute", API_RATE_LIMIT="1000 per second")
    client = app.test_client()
    play(client, 30)
    app.config["WORK_TIME_LIMIT"] = "1000 per minute"
    record_id = save(client)
    app.config["WORK_TIME_LIMIT"] = "3 per minute"
    statuses = [client.get(f"/api/records/{record_id}").status_code for _ in range(10)]
    assert statuses[0] == 200 and statuses[-1] == 429


def test_each_move_is_rated_by_how_much_closer_to_a_lost_game_it_took_the_player(client):
    play(client, 25)
    record_id = save(client)
    reviews = client.get(f"/api/records/{record_id}/review?from=0").get_json()["reviews"]
    words = ["best", "good", "inaccuracy", "mistake", "blunder"]
    share = lambda item: min(item["loss"] / (item["scores"][item["best"]] - LOST), 1)  # noqa: E731 (unrounded)
    for item in reviews:
        assert item["share_lost"] == pytest.approx(share(item), abs=1e-4)
        assert item["rating"] in words and (item["rating"] == "best") == (item["loss"] == 0)
        # No move of a game's first 25 can lose it: none of them is even a mistake.
        assert 0 <= item["share_lost"] <= 0.05 and item["rating"] in words[:3]
    ranked = sorted(reviews, key=share)
    assert [words.index(item["rating"]) for item in ranked] == sorted(words.index(item["rating"]) for item in ranked)


def test_on_a_board_where_every_moves_value_is_below_zero_the_rating_stays_within_the_whole(client):
    state = {"board": LEFT_LOSES, "score": 9000, "won": False, "over": False, "keep_playing": False, "moves": 700}
    assert client.put("/api/game", json=state).status_code == 200
    assert client.post("/api/game/moves", json={"direction": "left"}).get_json()["over"]
    (item,) = client.get(f"/api/records/{save(client)}/review?from=0").get_json()["reviews"]
    assert sorted(item["scores"]) == sorted(DIRECTIONS) and max(item["scores"].values()) < 0
    assert item["played"] == "left" and item["scores"]["left"] == LOST
    assert item["share_lost"] == 1 and item["rating"] == "blunder"  # it lost the game, wherever the tile came


def test_the_biggest_mistakes_are_the_costliest_in_the_players_measure_not_the_solvers_units(make_records_app):
    """A smaller loss where the best move is worth less (nearer a lost game) can be the bigger share of
    the way to losing: the list ranks by share_lost, as the database works it out."""
    app = make_records_app()
    client = app.test_client()
    play(client, 3)
    record_id = save(client)
    kept = {0: (12_000.0, 0.0), 1: (10_000.0, -600_000.0), 2: (0.0, -5.0)}  # position: (loss, best move's value)
    with app.app_context():
        db.session.add_all(
            Review(
                record_id=record_id,
                position=position,
                best="up",
                loss=loss,
                mistake=None,
                scores={"up": best, "down": best - loss},
            )
            for position, (loss, best) in kept.items()
        )
        db.session.commit()
    mistakes = client.get(f"/api/records/{record_id}/mistakes").get_json()["mistakes"]
    assert [item["position"] for item in mistakes] == [1, 0]
    assert mistakes[0]["share_lost"] == pytest.approx(10_000 / (-600_000 - LOST), abs=1e-4)


def test_saving_a_game_again_after_an_undo_drops_the_reviews_of_positions_it_no_longer_has(client):
    play(client, 20)
    record_id = save(client)
    client.get(f"/api/records/{record_id}/review?from=0")
    client.get(f"/api/records/{record_id}/review?from=10")
    assert client.get(f"/api/records/{record_id}/mistakes").get_json()["analysed"] == 20
    for _ in range(3):
        assert client.post("/api/game/undo", json={}).status_code == 200
    assert save(client) == record_id
    assert client.get(f"/api/records/{record_id}/mistakes").get_json()["analysed"] == 17


def test_the_whole_review_goes_on_from_the_last_moves_then_from_the_start(client):
    """Games are lost at their end: the first range a review of the whole game analyses holds the last
    moves, so the first list of mistakes already has the end game's; then the rest, from the start."""
    play(client, 25)
    record_id = save(client)
    walked = []
    body = client.get(f"/api/records/{record_id}/mistakes").get_json()
    while body["next"] is not None:
        walked.append(body["next"])
        client.get(f"/api/records/{record_id}/review?from={body['next']}")
        body = client.get(f"/api/records/{record_id}/mistakes").get_json()
    assert walked == [15, 0, 10]  # 15..24 first; 0..9; then 10..14, the only ones left
    assert body["analysed"] == body["positions"] == 25
