"""How pages and static files are sent: compressed, under fingerprinted URLs, cached for good."""

import base64
import gzip
import hashlib
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import brotli
import pytest

from tests.support.client_play import play, save

PAGES = ["/", "/daily", "/rules", "/strategy", "/solver", "/stats"]
IMMUTABLE = "max-age=31536000, immutable"
DECODE = {"br": brotli.decompress, "gzip": gzip.decompress}


class PageParts(HTMLParser):
    """The static URLs a page refers to, its entry modules and module preloads, its inline import map and
    every script that runs inline (the import map, the settings)."""

    def __init__(self, html):
        super().__init__()
        self.urls, self.entries, self.preloads, self.import_map_text, self.manifest = [], [], [], None, None
        self.inline_scripts = []
        self._in_import_map = self._in_inline_script = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.urls += [attrs[name] for name in ("src", "href") if (attrs.get(name) or "").startswith("/static/")]
        if tag == "script" and attrs.get("type") == "module":
            self.entries.append(attrs["src"])
        if tag == "link" and attrs.get("rel") == "modulepreload":
            self.preloads.append(attrs["href"])
        if tag == "link" and attrs.get("rel") == "manifest":
            self.manifest = attrs["href"]
        self._in_import_map = tag == "script" and attrs.get("type") == "importmap"
        self._in_inline_script = tag == "script" and "src" not in attrs and attrs.get("type") != "application/json"

    def handle_data(self, data):
        if self._in_import_map:
            self.import_map_text = data
        if self._in_inline_script:
            self.inline_scripts.append(data)

    def handle_endtag(self, tag):
        self._in_import_map = self._in_inline_script = False

    @property
    def imports(self):
        return json.loads(self.import_map_text)["imports"] if self.import_map_text else {}


def page_parts(client, path="/"):
    return PageParts(client.get(path).get_data(as_text=True))


def fingerprint(url):
    return parse_qs(urlsplit(url).query).get("v", [None])[0]


def static_url_of(parts, filename):
    return next(u for u in parts.urls + list(parts.imports.values()) if urlsplit(u).path == f"/static/{filename}")


@pytest.mark.parametrize("page", PAGES)
def test_every_static_url_of_a_page_is_fingerprinted_and_cached_for_good(client, page):
    parts = page_parts(client, page)
    urls = set(parts.urls) | set(parts.imports.values())
    assert any(urlsplit(u).path == "/static/css/style.css" for u in urls)
    for url in urls:
        assert fingerprint(url), f"{url} carries no fingerprint"
        reply = client.get(url)
        assert reply.status_code == 200, url
        assert reply.headers["Cache-Control"] == IMMUTABLE, url
    # The same file under its bare URL, or under a fingerprint that is not its own, must be revalidated.
    css = urlsplit(static_url_of(parts, "css/style.css")).path
    for stale in (css, css + "?v=0123456789ab"):
        reply = client.get(stale)
        assert reply.status_code == 200 and reply.headers["Cache-Control"] == "no-cache", stale


def test_the_manifest_and_its_icons_are_fingerprinted_and_cached_for_good(client):
    """Chromium fetches them on every visit to judge whether the game is installable."""
    manifest_url = page_parts(client).manifest
    assert fingerprint(manifest_url)
    reply = client.get(manifest_url)
    assert reply.mimetype == "application/manifest+json"
    assert reply.headers["Cache-Control"] == IMMUTABLE
    icons = [icon["src"] for icon in reply.get_json()["icons"]]
    assert len(icons) >= 2
    for url in icons:
        assert urlsplit(url).path.startswith("/static/icons/") and fingerprint(url), url
        assert client.get(url).headers["Cache-Control"] == IMMUTABLE, url


def test_a_changed_file_gets_a_new_url(app, tmp_path):
    static = tmp_path / "static"
    shutil.copytree(app.static_folder, static)
    app.static_folder = str(static)
    client = app.test_client()
    before = page_parts(client)
    with open(static / "css" / "style.css", "a") as css:
        css.write("\n.changed { color: red; }\n")
    with open(static / "js" / "render.js", "a") as js:
        js.write("\nexport const changed = true;\n")
    with open(static / "icons" / "icon-192.png", "ab") as icon:
        icon.write(b"changed")
    after = page_parts(client)
    assert after.manifest != before.manifest, "the manifest names the changed icon's new URL"

    changed = {"css/style.css", "js/render.js"}
    for filename in changed:
        old, new = static_url_of(before, filename), static_url_of(after, filename)
        assert old != new
        minified = b".changed{color:red}" if filename.endswith("css") else b"changed=true;"
        assert client.get(new).get_data().endswith(minified)
        assert client.get(old).headers["Cache-Control"] == "no-cache", "an old fingerprint is not cached for good"
    changed.add("manifest.webmanifest")
    unchanged = [u for u in before.urls if urlsplit(u).path.removeprefix("/static/") not in changed]
    assert unchanged and all(u in after.urls for u in unchanged)


def saved_record(client):
    client.post("/api/game", json={})
    client.post("/api/game/moves", json={"directions": ["left", "up", "right", "down"]})
    return client.post("/api/records", json={"name": "Ann"}).get_json()["id"]


def modules_reached(app, entry):
    """The modules ``entry`` reaches through any quoted './name.js' in its text, at once or on first use."""
    found, pending = set(), [entry]
    while pending:
        module = pending.pop()
        if module not in found:
            found.add(module)
            text = (Path(app.static_folder) / "js" / module).read_text()
            pending += re.findall(r"""["']\./([\w-]+\.js)["']""", text)
    return found


def test_module_imports_resolve_to_fingerprinted_urls(client, app):
    """The import map lists every module the page may load, and only those: not the replay page's."""
    parts = page_parts(client)
    modules = sorted(modules_reached(app, "main.js"))
    assert {"assist.js", "record-menu.js"} <= set(modules) and "replay.js" not in modules
    assert modules and sorted(parts.imports) == [f"/static/js/{m}" for m in modules]
    replay = PageParts(client.get(f"/records/{saved_record(client)}").get_data(as_text=True))
    assert sorted(replay.imports) == [f"/static/js/{m}" for m in sorted(modules_reached(app, "replay.js"))]
    for bare, fingerprinted in parts.imports.items():
        assert urlsplit(fingerprinted).path == bare and fingerprint(fingerprinted)
    assert parts.preloads and set(parts.preloads) <= set(parts.imports.values())
    assert parts.entries == [static_url_of(parts, "js/main.js")], "one entry, named once: not preloaded too"


def script_sources(reply):
    """The CSP's script-src sources, in no particular order."""
    policy = dict(d.strip().split(" ", 1) for d in reply.headers["Content-Security-Policy"].split(";"))
    return sorted(policy["script-src"].split())


def hash_source(text):
    return f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"


def test_the_csp_allows_the_import_map_and_the_settings_by_their_hashes_and_nothing_else_inline(client, app):
    """The settings (static/js/settings-early.js, minified) run inline on every page, before the first paint."""
    with app.test_request_context():
        settings = app.extensions["static_files"].body("js/settings-early.js").decode()
    reply = client.get("/")
    parts = PageParts(reply.get_data(as_text=True))
    assert sorted(parts.inline_scripts) == sorted([parts.import_map_text, settings])
    assert script_sources(reply) == sorted(["'self'", hash_source(parts.import_map_text), hash_source(settings)])
    assert "unsafe-inline" not in reply.headers["Content-Security-Policy"]
    rules = client.get("/rules")
    assert PageParts(rules.get_data(as_text=True)).inline_scripts == [settings]
    assert script_sources(rules) == sorted(["'self'", hash_source(settings)])


@pytest.mark.parametrize("encoding", sorted(DECODE))
def test_compressed_answers_decode_to_the_same_bytes(client, encoding):
    parts = page_parts(client)
    urls = ["/", "/rules", static_url_of(parts, "css/style.css"), static_url_of(parts, "js/game.js")]
    for url in urls:
        plain = client.get(url, headers={"Accept-Encoding": "identity"})
        packed = client.get(url, headers={"Accept-Encoding": encoding})
        assert "Content-Encoding" not in plain.headers
        assert packed.headers["Content-Encoding"] == encoding, url
        assert "Accept-Encoding" in packed.headers["Vary"]
        assert DECODE[encoding](packed.get_data()) == plain.get_data(), url
        assert len(packed.get_data()) < len(plain.get_data()) / 2, url


def test_brotli_is_preferred_when_the_browser_offers_it(client):
    reply = client.get("/", headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert reply.headers["Content-Encoding"] == "br"


def test_the_api_answers_stay_uncompressed(client):
    """A few hundred bytes fit in one packet with their headers: compressing them saves no round trip."""
    offered = {"Accept-Encoding": "gzip, deflate, br, zstd"}
    assert client.post("/api/game", json={"seed": 1}, headers=offered).status_code == 201
    for _ in range(3):
        reply = client.post("/api/game/moves", json={"direction": "left"}, headers=offered)
        assert reply.status_code == 200 and "Content-Encoding" not in reply.headers
    assert "Content-Encoding" not in client.get("/api/game", headers=offered).headers


def test_api_answers_are_compact_json_with_sorted_keys_and_text_as_utf_8(client):
    """What Flask's own encoder writes (app/answers.py encodes answers with msgspec), a name's letters unescaped."""
    play(client, 3)
    for reply in (
        client.post("/api/game/moves", json={"direction": "left"}),
        client.get(f"/api/records/{save(client, 'Žluťoučký kůň 🐉')}"),
        client.post("/api/game/moves", json={"direction": "sideways"}),
    ):
        written = json.dumps(reply.get_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert reply.mimetype == "application/json" and reply.get_data(as_text=True) == written + "\n"


def test_debug_mode_indents_api_answers(make_app):
    reply = make_app(DEBUG=True).test_client().get("/api/game")
    assert reply.get_data(as_text=True) == json.dumps(reply.get_json(), sort_keys=True, indent=2) + "\n"


def test_a_fingerprinted_file_is_sent_at_brotli_s_best_with_only_the_headers_it_needs(client):
    url = static_url_of(page_parts(client), "js/server.js")
    plain = client.get(url, headers={"Accept-Encoding": "identity"}).get_data()
    reply = client.get(url, headers={"Accept-Encoding": "gzip, br"})
    assert reply.headers["Content-Encoding"] == "br" and reply.headers["Cache-Control"] == IMMUTABLE
    assert reply.get_data() == brotli.compress(plain, quality=11) and brotli.decompress(reply.get_data()) == plain
    assert reply.headers["X-Content-Type-Options"] == "nosniff"
    assert reply.headers["Content-Type"] == "text/javascript"  # a module is UTF-8 whatever its charset says
    style = client.get(static_url_of(page_parts(client), "css/style.css"))
    assert style.headers["Content-Type"] == "text/css"  # read in the page's encoding, UTF-8
    # A script is never a document: the policies that govern documents, and what a browser needs
    # only to revalidate a file, would be bytes spent on every file for nothing.
    for name in ("Content-Security-Policy", "Permissions-Policy", "ETag", "Last-Modified", "Content-Disposition"):
        assert name not in reply.headers, name
    revalidated = client.get(urlsplit(url).path)  # no fingerprint: may change, so it is revalidated
    assert revalidated.headers["Cache-Control"] == "no-cache" and revalidated.headers["ETag"]


def test_an_svg_keeps_the_document_policies(client):
    """An SVG opened on its own is a document: its scripts must meet the same policy as a page's."""
    url = static_url_of(page_parts(client), "icons/favicon.svg")
    headers = client.get(url).headers
    assert "script-src 'self'" in headers["Content-Security-Policy"] and headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("filename", ["js/server.js", "css/style.css"])
def test_scripts_and_styles_are_sent_without_comments_or_blank_space(client, filename):
    source = (Path(client.application.static_folder) / filename).read_text()
    sent = client.get(static_url_of(page_parts(client), filename), headers={"Accept-Encoding": "identity"})
    text = sent.get_data(as_text=True)
    assert sent.status_code == 200 and len(text) < 0.8 * len(source)
    assert "/*" not in text and "\n\n" not in text and "  " not in text


@pytest.mark.parametrize(
    ("theme", "colour"), [(None, "#faf8ef"), ("light", "#faf8ef"), ("dark", "#1f1c19"), ("contrast", "#000000")]
)
def test_the_installed_apps_colour_follows_the_players_theme(client, theme, colour):
    """settings.js names the player's theme in the manifest's URL; an unknown one is the light page's."""

    def manifest(**query):
        return client.get("/static/manifest.webmanifest", query_string=query).get_json(force=True)

    chosen = manifest(theme=theme) if theme else manifest()
    assert chosen["theme_color"] == chosen["background_color"] == colour
    assert manifest(theme="<script>")["theme_color"] == "#faf8ef"


def test_a_page_whose_url_has_no_variable_part_is_sent_at_brotlis_best(client):
    """The same text for every player of a language: packed once at quality 11, a ninth smaller."""
    fixed = client.get("/", headers={"Accept-Encoding": "br"})
    queried = client.get("/?from=a-link", headers={"Accept-Encoding": "br"})  # as many texts as URLs
    assert fixed.headers["Content-Encoding"] == queried.headers["Content-Encoding"] == "br"
    assert len(fixed.data) < 0.95 * len(queried.data)
    assert brotli.decompress(fixed.data).decode().startswith("<!doctype html>")
    assert client.get("/", headers={"Accept-Encoding": "br"}).data == fixed.data
