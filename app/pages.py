"""Page routes: the game itself at ``/``."""

import mimetypes

from flask import Blueprint, redirect, render_template, url_for

# Python's table lacks the web app manifest type; browsers and `nosniff` want the real one.
mimetypes.add_type("application/manifest+json", ".webmanifest")

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    return render_template("index.html")


@bp.get("/favicon.ico")
def favicon():
    """Browsers that ignore <link rel="icon"> ask here; send them the SVG icon."""
    return redirect(url_for("static", filename="icons/favicon.svg"), code=301)
