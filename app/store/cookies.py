"""When the session cookie is sent: when new, now and then to push its expiry on, and when its settings change;
which cookie a request's session is in; and whether the app's cookies are Secure.

A browser keeps two sessions, each holding one game: the game page's, in the session cookie, and
the daily page's, whose requests say ``X-Game: daily`` (GAME_HEADER_ENVIRON) and find their session in a
cookie of its own (``session-daily``): playing today's game never moves the game in progress out of
its session, nor the other way round. A request without the header (any API client) has one session.
"""

import time

from flask import request

COOKIE_SENT = "_cookie_sent"  # in the session: [when its cookie was last sent (Unix time), with which settings]
COOKIE_RESENDS_PER_LIFETIME = 10  # the cookie is sent again once a tenth of its lifetime has passed
BOOKKEEPING_KEYS = frozenset({"_permanent", COOKIE_SENT})
GAME_HEADER_ENVIRON, DAILY = "HTTP_X_GAME", "daily"  # X-Game as WSGI names it: read directly, twice a request


class CookiePolicy:
    """Mixin over a Flask-Session interface: the store's copy is refreshed on every request, the
    cookie only now and then."""

    def save_session(self, app, session, response):
        """Flask-Session's save_session: the session written back (``_upsert_session``), or, emptied,
        deleted with its cookie; Vary names Cookie. Written here for two costs a move would pay:
        werkzeug's ``response.vary`` parses the header into a set and writes it back, which costs
        more than the rest of the save together, and sending the cookie with every move would add a
        Set-Cookie header to each answer just to push its expiry on by a few seconds. It is sent
        again once a tenth of its lifetime has passed, or at once when its settings changed (e.g.
        it became Secure), so it expires at most that tenth before the stored session; in that
        window the page puts its saved game into a new session.
        """
        _vary_by_cookie(response)
        store_id = self._get_store_id(session.sid)
        if BOOKKEEPING_KEYS.issuperset(session):
            if session.modified or COOKIE_SENT in session:  # emptied: forgotten, and its cookie with it
                self._delete_session(store_id)
                response.delete_cookie(
                    self.get_cookie_name(app), domain=self.get_cookie_domain(app), path=self.get_cookie_path(app)
                )
            return
        settings, lifetime = self._cookie_settings(app), app.permanent_session_lifetime
        due = _cookie_due(session.get(COOKIE_SENT), settings, lifetime)
        if due:
            session[COOKIE_SENT] = [time.time(), settings]  # modified: stored even without a refresh
        if not self.should_set_storage(app, session):
            return
        self._upsert_session(lifetime, session, store_id)
        if due:
            response.set_cookie(
                self.get_cookie_name(app),
                session.sid,
                expires=self.get_expiration_time(app, session),
                httponly=self.get_cookie_httponly(app),
                domain=self.get_cookie_domain(app),
                path=self.get_cookie_path(app),
                secure=self.get_cookie_secure(app),
                samesite=self.get_cookie_samesite(app),
            )

    def get_cookie_name(self, app):
        name = super().get_cookie_name(app)
        return f"{name}-{DAILY}" if request.environ.get(GAME_HEADER_ENVIRON) == DAILY else name

    def get_cookie_secure(self, app):
        return secure_cookies(app)

    def regenerate(self, session):
        """A new id must reach the browser at once."""
        super().regenerate(session)
        session.pop(COOKIE_SENT, None)

    def _cookie_settings(self, app):
        """What the cookie was sent with: a change to any of them sends it again."""
        return (
            f"{self.get_cookie_domain(app)}; {self.get_cookie_path(app)}; {self.get_cookie_secure(app)}; "
            f"{self.get_cookie_httponly(app)}; {self.get_cookie_samesite(app)}; "
            f"{app.permanent_session_lifetime.total_seconds()}"
        )


def _cookie_due(sent, settings, lifetime):
    """Whether the cookie must be sent: never sent by this version, sent otherwise, or a while ago."""
    if not (isinstance(sent, list) and len(sent) == 2 and isinstance(sent[0], int | float)) or sent[1] != settings:
        return True
    age = time.time() - sent[0]
    return not 0 <= age < lifetime.total_seconds() / COOKIE_RESENDS_PER_LIFETIME


def _vary_by_cookie(response):
    """Add Cookie to the answer's Vary header, unless it is there."""
    vary = response.headers.get("Vary")
    if not vary:
        response.headers["Vary"] = "Cookie"
    elif "cookie" not in (value.strip().lower() for value in vary.split(",")):
        response.headers["Vary"] = f"{vary}, Cookie"


def secure_cookies(app) -> bool:
    """SESSION_COOKIE_SECURE for this request: ``"auto"`` (the default) follows the request's
    scheme (behind the trusted proxies, the forwarded one), so a game served over HTTPS gets
    Secure cookies with no setting; true or false force it."""
    setting = app.config["SESSION_COOKIE_SECURE"]
    return request.is_secure if setting == "auto" else bool(setting)
