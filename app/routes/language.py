"""The language switch: a plain link that keeps the reader's choice in a cookie (app/i18n.py reads it)."""

from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, redirect, request

from ..i18n import COOKIE, COOKIE_MAX_AGE, LANGUAGES
from ..store.cookies import secure_cookies

bp = Blueprint("i18n", __name__)


@bp.get("/language/<language>")
def set_language(language):
    """The visible switch: plain links (every button on the game page is a script's)."""
    if language not in LANGUAGES:
        abort(404)
    response = redirect(request.script_root + safe_next(request.args.get("next")), code=303)
    response.set_cookie(
        COOKIE,
        language,
        max_age=COOKIE_MAX_AGE,
        path=request.script_root or "/",
        secure=secure_cookies(current_app),
        httponly=True,
        samesite="Lax",
    )
    return response


def safe_next(target):
    """A path inside this site, or ``/``: never a way to send the reader elsewhere."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in target):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target
