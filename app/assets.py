"""Static files under URLs that carry a fingerprint of their content, cached by browsers for good.

``url_for("static", filename=...)`` adds ``?v=<fingerprint>`` by itself, so every static URL
of every template changes when its file does, with no build step. A request whose fingerprint
is the file's current one is answered as immutable: a returning browser asks for none of them
again. Any other request for the file (no fingerprint, an old one) must be revalidated. The web
app manifest is rendered, so that its icons' URLs carry fingerprints too, and its own URL
carries the fingerprint of its text.

ES modules import each other by plain relative paths (``./api.js``); the page's import map
points each module's plain URL at its fingerprinted one, and its module preloads come from
the static imports of the entry module, so no list of the modules is kept by hand.
"""

import base64
import hashlib
import json
import posixpath
import re
import threading
from collections import OrderedDict
from contextlib import suppress
from pathlib import Path
from typing import NamedTuple

import brotli
import rcssmin
import rjsmin
from flask import current_app, g, render_template, request, url_for
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup
from werkzeug.security import safe_join

FINGERPRINT_ARG = "v"
# No "public": a cache may keep an answer with a max-age already, unless the request carried
# Authorization, which none of these does.
IMMUTABLE = "max-age=31536000, immutable"
# `import ... from './x.js'`, `import './x.js'` and `export ... from './x.js'`; not import().
STATIC_IMPORT = re.compile(r"""\b(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["'](\.\.?/[^"']+)["']""")
# `import('./x.js')`: loaded on first use, so mapped to its fingerprinted URL but not preloaded.
DYNAMIC_IMPORT = re.compile(r"""\bimport\(\s*["'](\.\.?/[^"']+)["']\s*\)""")


# Scripts and styles are sent without their comments and blank space, made so on first use (no
# build step): the files in static/ stay as written, and the page's first load is a third smaller.
MINIFIERS = {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}
# Content-Types that need no charset, 15 bytes less on each file of a first load: every static script
# is an ES module, always read as UTF-8 (HTML's "fetch a single module script"); a style is read in
# its page's encoding, UTF-8 on every page; an SVG is XML, whose default is UTF-8.
TYPES_WITHOUT_CHARSET = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}


class FileFacts(NamedTuple):
    size: int
    mtime_ns: int
    fingerprint: str
    imports: list  # the relative specifiers of a module's static imports
    loads: list  # ... and of the modules it imports on first use
    body: bytes  # what is sent: the file, minified if it is a script or a style


class StaticFiles:
    """What each static file's content says: its fingerprint and the modules it imports.

    Read once per version of a file: a file whose size or modification time changed is read
    again, so a running server never hands out a stale URL.
    """

    def __init__(self):
        self._read = {}  # path -> FileFacts
        self._compressed = {}  # (filename, fingerprint) -> Brotli bytes

    def _facts(self, filename):
        path = safe_join(current_app.static_folder, filename)
        if path is None:  # a name that leads outside the folder
            raise FileNotFoundError(filename)
        stat = Path(path).stat()
        facts = self._read.get(path)
        if facts is None or (facts.size, facts.mtime_ns) != (stat.st_size, stat.st_mtime_ns):
            content = Path(path).read_bytes()
            text = content.decode(errors="replace") if filename.endswith(".js") else ""
            imports, loads = STATIC_IMPORT.findall(text), DYNAMIC_IMPORT.findall(text)
            minify = MINIFIERS.get(Path(filename).suffix)
            body = minify(content.decode()).encode() if minify else content
            facts = FileFacts(stat.st_size, stat.st_mtime_ns, fingerprint_of(content), imports, loads, body)
            self._read[path] = facts
        return facts

    def fingerprint(self, filename):
        return self._facts(filename).fingerprint

    def body(self, filename):
        return self._facts(filename).body

    def brotli(self, filename):
        """What is sent, at Brotli's best (quality 11): too slow to do per request, so done once a version."""
        facts = self._facts(filename)
        key = (filename, facts.fingerprint)
        if key not in self._compressed:
            self._compressed[key] = brotli.compress(facts.body, quality=11)
        return self._compressed[key]

    def module_graph(self, entry, on_first_use=False):
        """``entry`` and every module it imports, directly or not, as static filenames; with
        ``on_first_use``, also those imported only when first needed (``import()``), and theirs."""
        found, pending = [], [entry]
        while pending:
            module = pending.pop(0)
            if module not in found:
                found.append(module)
                base = posixpath.dirname(module)
                facts = self._facts(module)
                specifiers = facts.imports + (facts.loads if on_first_use else [])
                pending += [posixpath.normpath(posixpath.join(base, spec)) for spec in specifiers]
        return found


def fingerprint_of(content):
    """Eight hex digits: it only has to tell one file's versions apart (one in four billion that two
    share it), and the game page names some fifty static URLs, each in its first load."""
    return hashlib.sha256(content).hexdigest()[:8]


class CompressedPages:
    """Pages at Brotli's best, kept by their text's digest: the last ``kept`` of them.

    A page whose URL has no variable part (no path argument, no query) is the same text for every
    player of a language until the app or its data changes (the game's numbers come from the API).
    Quality 11 packs the game page a ninth smaller than Flask-Compress's 5 but takes some 15 to 40
    ms: done once a text, it is then free. Other pages (a record's replay, any URL with a query)
    stay Flask-Compress's, since their texts are as many as their URLs.
    """

    def __init__(self, kept=32):
        self.kept = kept
        self._packed = OrderedDict()  # digest -> Brotli bytes, the least recently sent first
        self._lock = threading.Lock()

    def brotli(self, body):
        digest = hashlib.sha256(body).digest()
        with self._lock:
            if digest in self._packed:
                self._packed.move_to_end(digest)
                return self._packed[digest]
        packed = brotli.compress(body, quality=11, mode=brotli.MODE_TEXT)
        with self._lock:
            self._packed[digest] = packed
            while len(self._packed) > self.kept:
                self._packed.popitem(last=False)
        return packed


# The templates' indentation and blank lines: a page is sent without them (no page has a <pre>).
INDENTATION = re.compile(r"\n\s+")
COMPACT_JSON = (",", ":")


def init_app(app):
    files = app.extensions["static_files"] = StaticFiles()
    # JSON in pages (their data, the manifest) without the spaces after its commas and colons.
    app.jinja_env.policies["json.dumps_kwargs"] = {"sort_keys": True, "separators": COMPACT_JSON}
    app.extensions["compressed_pages"] = CompressedPages()
    app.after_request(compress_fixed_pages_at_best)  # after without_indentation (registered later, run first)
    app.after_request(without_indentation)
    # Where it was as a static file: it changes only when the static files do.
    app.add_url_rule(f"{app.static_url_path}/manifest.webmanifest", "manifest", manifest)
    app.url_defaults(add_fingerprint)
    app.after_request(cache_for_good_when_fingerprinted)
    app.jinja_env.globals.update(import_map=import_map, inline_script=inline_script, module_graph=files.module_graph)


def without_indentation(response):
    """A page as its template made it, less the indentation (a twentieth of the game page's bytes).
    Runs before Flask-Compress (registered first, so run last), on the page as rendered."""
    rendered = not response.direct_passthrough and "Content-Encoding" not in response.headers
    if response.mimetype == "text/html" and rendered:
        response.set_data(INDENTATION.sub("\n", response.get_data(as_text=True)))
    return response


def compress_fixed_pages_at_best(response):
    """A page whose URL has no variable part, at Brotli's best (CompressedPages); Flask-Compress,
    registered first and so run last, leaves an answer already encoded as it is."""
    fixed_url = request.method == "GET" and not request.view_args and not request.query_string
    if (
        fixed_url
        and response.status_code == 200
        and response.mimetype == "text/html"
        and not response.direct_passthrough
        and "Content-Encoding" not in response.headers
        and current_app.config["COMPRESS_REGISTER"]  # off where a proxy in front compresses
        and "br" in request.accept_encodings
        and response.content_length >= current_app.config["COMPRESS_MIN_SIZE"]
    ):
        response.set_data(current_app.extensions["compressed_pages"].brotli(response.get_data()))
        response.headers["Content-Encoding"] = "br"
        response.vary.add("Accept-Encoding")
    return response


def manifest():
    return current_app.response_class(manifest_text(), mimetype="application/manifest+json")


def manifest_text():
    """Rendered once a request: the manifest's answer and its fingerprint both need it."""
    if "manifest_text" not in g:
        g.manifest_text = render_template("manifest.webmanifest")
    return g.manifest_text


def current_fingerprint(endpoint, values):
    """The fingerprint of what a URL of ``endpoint`` answers now; None where URLs carry none, or for
    a static file that is not there (a name outside the folder, or one that does not exist)."""
    if endpoint == "static":
        with suppress(FileNotFoundError):
            return current_app.extensions["static_files"].fingerprint(values["filename"])
        return None
    if endpoint == "manifest":
        return fingerprint_of(manifest_text().encode())
    return None


def add_fingerprint(endpoint, values):
    if FINGERPRINT_ARG not in values:
        fingerprint = current_fingerprint(endpoint, values)
        if fingerprint:
            values[FINGERPRINT_ARG] = fingerprint


# What a browser needs only to revalidate or save a file, never for one cached for good.
REVALIDATION_HEADERS = ("ETag", "Last-Modified", "Content-Disposition", "Accept-Ranges")


def cache_for_good_when_fingerprinted(response):
    """Under its current fingerprint an answer never changes; under any other URL it may.

    A static file is sent as StaticFiles.body has it (scripts and styles minified), typed
    without a charset where none is needed (TYPES_WITHOUT_CHARSET).
    """
    current = current_fingerprint(request.endpoint, request.view_args) if response.status_code < 400 else None
    if not current:
        return response
    files = current_app.extensions["static_files"]
    sending_file = request.endpoint == "static" and request.method in ("GET", "HEAD") and response.status_code == 200
    if sending_file:
        response.direct_passthrough = False
        response.set_data(files.body(request.view_args["filename"]))
        suffix = posixpath.splitext(request.view_args["filename"])[1]
        if suffix in TYPES_WITHOUT_CHARSET:
            response.headers["Content-Type"] = TYPES_WITHOUT_CHARSET[suffix]
    if request.args.get(FINGERPRINT_ARG) != current:
        response.headers["Cache-Control"] = "no-cache"
        return response
    response.headers["Cache-Control"] = IMMUTABLE
    for name in REVALIDATION_HEADERS:
        del response.headers[name]
    if (
        sending_file
        and current_app.config["COMPRESS_REGISTER"]  # off where a proxy in front compresses
        and "br" in request.accept_encodings
        and response.content_length >= current_app.config["COMPRESS_MIN_SIZE"]  # Flask-Compress's own minimum
    ):
        response.set_data(files.brotli(request.view_args["filename"]))
        response.headers["Content-Encoding"] = "br"
        response.vary.add("Accept-Encoding")
    return response


def import_map(entry):
    """The page's import map: the plain URL of every module the page may load (``entry``'s graph,
    what it loads on first use included) to its fingerprinted one.

    It is an inline script, so its hash goes into the page's Content-Security-Policy.
    """
    modules = current_app.extensions["static_files"].module_graph(entry, on_first_use=True)
    plain = {FINGERPRINT_ARG: None}
    imports = {url_for("static", filename=m, **plain): url_for("static", filename=m) for m in sorted(modules)}
    text = htmlsafe_json_dumps({"imports": imports}, dumps=json.dumps, separators=COMPACT_JSON)
    allow_inline_script(text)
    return text


def inline_script(filename):
    """A static script's text (minified), to run inside the page: what must run before the first
    paint (static/js/settings.js) cannot wait for a request."""
    text = current_app.extensions["static_files"].body(filename).decode()
    allow_inline_script(text)
    return Markup(text)


def allow_inline_script(text):
    """An inline script runs only if its exact text's hash is in the page's Content-Security-Policy."""
    digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
    g.setdefault("script_hashes", []).append(f"sha256-{digest}")
