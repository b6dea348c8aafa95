"""English and Czech: catalogs compiled at start, the language picked per request.

The ``.po`` files in ``app/translations`` are the source of truth. They are compiled
into the instance folder, not beside them, because the image's code is read-only.
"""

import os
import tempfile
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import request
from flask_babel import Babel, get_locale
from jinja2 import pass_context

# Each language named in itself, as the switch shows it.
LANGUAGES = {"en": "English", "cs": "Čeština"}
DEFAULT_LANGUAGE = "en"
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600
SOURCE_DIR = Path(__file__).parent / "translations"
# Flask-Babel's Jinja filters that format for the request's locale.
LOCALE_FILTERS = (
    "datetimeformat",
    "dateformat",
    "timeformat",
    "timedeltaformat",
    "numberformat",
    "decimalformat",
    "currencyformat",
    "percentformat",
    "scientificformat",
)

def init_app(app):
    """Compile the catalogs, then let Flask-Babel read them from the instance folder."""
    compiled = compile_catalogs(SOURCE_DIR, Path(app.instance_path) / "translations")
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(compiled)
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    Babel(app, locale_selector=select_language)
    for name in LOCALE_FILTERS:
        app.jinja_env.filters[name] = per_request(app.jinja_env.filters[name])
    app.context_processor(template_context)
    app.after_request(vary_by_language)


def per_request(format_filter):
    """Wrap a formatting filter so that Jinja never folds it into the compiled template.

    Jinja evaluates filters on constants (``20480 | numberformat``) once, at compile time,
    which would freeze the first request's locale into the template for every reader.
    Filters that take the context are never folded.
    """

    @pass_context
    def formatted(_context, *args, **kwargs):
        return format_filter(*args, **kwargs)

    return formatted


def compile_catalogs(source, target):
    """Write ``<lang>/LC_MESSAGES/messages.mo`` under ``target`` for each changed ``.po``.

    A compiled catalog carries its source's modification time, so any other time (a newer
    image, or an older one put back) means compile again. Several workers may start at
    once: each writes a private temporary file and renames it into place, so a reader
    never sees half a catalog.
    """
    for po_path in sorted(source.glob("*/LC_MESSAGES/*.po")):
        mo_path = target / po_path.relative_to(source).with_suffix(".mo")
        po_stat = po_path.stat()
        try:
            if mo_path.stat().st_mtime_ns == po_stat.st_mtime_ns:
                continue
        except FileNotFoundError:
            pass
        mo_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with po_path.open("rb") as f:
            catalog = read_po(f, locale=po_path.parts[-3])
        fd, tmp = tempfile.mkstemp(dir=mo_path.parent, prefix=".messages-", suffix=".mo")
        try:
            with os.fdopen(fd, "wb") as f:
                write_mo(f, catalog)
            os.utime(tmp, ns=(po_stat.st_atime_ns, po_stat.st_mtime_ns))
            os.replace(tmp, mo_path)
        except BaseException:
            os.unlink(tmp)
            raise
    return target


def template_context():
    """What base.html needs: ``<html lang>`` and the switch's way back."""
    return {
        "html_lang": str(get_locale()),
        "languages": LANGUAGES,
        "here": request.full_path.rstrip("?") if request.method == "GET" else "/",
    }


def select_language():
    """The switch's cookie, else the browser's first supported language, else English."""
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return preferred_language(request.accept_languages)


def preferred_language(accept):
    """The supported language the browser ranks highest, matching on the primary subtag.

    Werkzeug's ``best_match`` prefers any exact match, so for ``en-GB, cs;q=0.8`` it
    would answer ``cs``; a British reader wants English.
    """
    for value, quality in sorted(accept, key=lambda item: -item[1]):  # stable: ties keep their order
        primary = value.split("-")[0].lower()
        if quality > 0 and primary in LANGUAGES:
            return primary
    return DEFAULT_LANGUAGE


def vary_by_language(response):
    """Pages differ by language, so caches must key them on what picks it."""
    if response.mimetype == "text/html":
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    return response
