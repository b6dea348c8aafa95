"""The hall of fame and replay pages as HTML: names escaped, unknown records 404, outages 503."""

from tests.support.client_play import finish, play, save


def test_the_hall_of_fame_page_lists_verified_games_with_names_escaped(client):
    finish(client)
    save(client, "<script>alert(1)")
    client.put("/api/game", json={"board": [[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4], "score": 999_999,
                                  "won": False, "keep_playing": False, "moves": 0})  # fmt: skip
    save(client, "Forger")
    page = client.get("/records").get_data(as_text=True)
    assert "&lt;script&gt;alert(1)" in page and "<script>alert" not in page
    assert "Forger" not in page


def test_the_hall_of_fame_page_filters_assisted_games(client):
    play(client, 3)
    client.post("/api/game/hint", json={})
    finish(client)
    save(client, "Helped")
    assert "Helped" not in client.get("/records").get_data(as_text=True)  # ranked without help by default
    assert "Helped" not in client.get("/records?without_help=1").get_data(as_text=True)
    assert "Helped" in client.get("/records?helped=1").get_data(as_text=True)
    assert "Helped" in client.get("/records?without_help=0").get_data(as_text=True)


def test_the_replay_page_of_a_record_and_of_none(client):
    play(client, 4)
    page = client.get(f"/records/{save(client, 'Ann')}")
    assert page.status_code == 200 and "Replay: Ann" in page.get_data(as_text=True)
    assert client.get("/records/AAAAAAAAAAAAAAAA").status_code == 404


def test_the_pages_are_in_czech(client):
    play(client, 2)
    record_id = save(client, "Jana")
    client.set_cookie("lang", "cs")
    assert "Síň slávy" in client.get("/records").get_data(as_text=True)
    assert "Záznam hry: Jana" in client.get(f"/records/{record_id}").get_data(as_text=True)


def test_with_the_database_down_the_pages_are_503_and_the_game_page_loads(make_app, tmp_path):
    client = make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path}/missing/records.db").test_client()
    for path in ("/records", "/records/AAAAAAAAAAAAAAAA"):
        reply = client.get(path)
        assert reply.status_code == 503 and reply.mimetype == "text/html" and "Retry-After" in reply.headers
    assert client.get("/").status_code == 200


def test_the_hall_of_fame_page_lists_one_board_size_the_classic_by_default(client):
    client.post("/api/game", json={"size": 3})
    finish(client)
    save(client, "Trio")
    assert "Trio" not in client.get("/records").get_data(as_text=True)
    page = client.get("/records?size=3&helped=1").get_data(as_text=True)
    assert "Trio" not in page  # a 3x3 game without help is not among the helped ones
    page = client.get("/records?size=3").get_data(as_text=True)
    assert "Trio" in page
    assert 'href="/records?helped=1&amp;size=3"' in page  # the help filter keeps the size
    assert client.get("/records?size=9").status_code == 400
