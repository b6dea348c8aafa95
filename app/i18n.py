"""English and Czech: the language picked per request, the catalogs shipped compiled.

The ``.po`` files in ``app/translations`` are the source of truth; the ``.mo`` beside each
is its compiled form (``pybabel compile -d app/translations``, see babel.cfg), which
tests/unit/test_catalog.py keeps in step with it, so nothing is written at start.
"""


from flask import request
from flask_babel import Babel, get_locale
from jinja2 import pass_context

# Each language named in itself, as the switch shows it.
LANGUAGES = {"en": "English", "cs": "Čeština"}
DEFAULT_LANGUAGE = "en"  # BABEL_DEFAULT_LOCALE in app/config.py
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600
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
    """Flask-Babel reads the compiled catalogs from app/translations, its default place."""
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
