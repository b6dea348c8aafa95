"""The package as a host installs it: a wheel, built from the checkout, installed into a fresh virtual
environment outside it, served by gunicorn from an empty folder. Nothing of the checkout is on the path."""

import re
import subprocess
import zipfile

import pytest

from tests.support.client import HttpClient
from tests.support.servers import free_port, gunicorn_server

pytestmark = pytest.mark.slow

PAGES = ["/", "/daily", "/rules", "/strategy", "/solver", "/records", "/stats"]


def test_the_wheel_holds_the_pages_their_files_the_catalogs_and_the_migrations(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("app/templates/index.html", "app/static/js/main.js", "app/static/css/style.css",
                   "app/translations/cs/LC_MESSAGES/messages.mo", "app/migrations/env.py",
                   "app/migrations/alembic.ini"):  # fmt: skip
        assert needed in names, needed
    assert not [name for name in names if name.startswith(("tests/", "bench/"))]


def test_installed_from_the_wheel_it_serves_every_page_in_both_languages(installed, tmp_path):
    empty = tmp_path / "run"
    empty.mkdir()
    env = {"PYTHONPATH": "", "FLASK_INSTANCE_PATH": tmp_path / "instance", "NUMBA_CACHE_DIR": tmp_path / "numba"}
    port = free_port()
    argv = [installed / "gunicorn", "--bind", f"127.0.0.1:{port}", "app:create_app()"]
    with gunicorn_server(argv=argv, port=port, cwd=empty, env=env, timeout=120) as server:
        where = subprocess.run([installed / "python", "-c", "import app; print(app.__file__)"], cwd=empty,
                               capture_output=True, text=True, check=True, env={"PYTHONPATH": ""}).stdout  # fmt: skip
        assert where.startswith(str(installed.parent)), f"the app came from {where}"
        client = HttpClient(server.url)
        assert client.post("/api/game", json={}).status == 201
        played = client.post("/api/game/moves", json={"directions": ["left", "up", "right", "down"]})
        assert played.status == 200 and played.json()["moves"] > 0
        saved = client.post("/api/records", json={"name": "Ann"})
        assert saved.status == 201, saved.body[:300]
        for language, words in (("en", "New game"), ("cs", "Nová hra")):
            reader = HttpClient(server.url)
            reader.cookies["lang"] = language
            for path in [*PAGES, saved.json()["url"]]:
                page = reader.get(path)
                assert page.status == 200, (path, language, page.status)
                assert f'<html lang="{language}"' in page.body.decode()
            assert words in reader.get("/").body.decode()
        home = client.get("/").body.decode()
        style = re.search(r'href="(/static/css/style\.css\?v=\w+)"', home)[1]
        manifest = re.search(r'href="(/static/manifest\.webmanifest\?v=\w+)"', home)[1]
        assert client.get(style).status == 200 and client.get(style).content_type.startswith("text/css")
        assert client.get(manifest).status == 200 and client.get(manifest).json()["icons"]
