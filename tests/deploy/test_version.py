"""One version, as pyproject.toml names it: /healthz answers it, every page's footer shows it, the
image's labels carry it, and the CHANGELOG's newest release is it, with its date."""

import re
import tomllib
from datetime import date

from tests.support import dockerfile
from tests.support.servers import PROJECT_ROOT

VERSION = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_healthz_and_the_footer_say_the_version_that_runs(client):
    assert client.get("/healthz").get_json() == {"status": "ok", "version": VERSION}
    for path in ("/", "/daily", "/records"):
        assert f"Version {VERSION}<" in client.get(path).get_data(as_text=True), path
    client.set_cookie("lang", "cs")
    assert f"Verze {VERSION}<" in client.get("/").get_data(as_text=True)


def test_the_image_is_labelled_with_the_version():
    assert dockerfile.labels()["org.opencontainers.image.version"] == VERSION


def test_the_changelogs_newest_release_is_the_version_with_its_date():
    """Changes after a release go under "Unreleased" above it."""
    headings = re.findall(r"^## (.+)$", (PROJECT_ROOT / "CHANGELOG.md").read_text(), re.MULTILINE)
    released = [heading for heading in headings if heading != "Unreleased"]
    name, _, day = released[0].partition(" — ")
    assert name == VERSION and date.fromisoformat(day) <= date.today()
    assert headings.index(released[0]) <= 1
