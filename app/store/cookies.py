"""When the session cookie is sent: when new, now and then to push its expiry on, and when its settings change;
which cookie a request's session is in; and whether the app's cookies are Secure.

A browser keeps two sessions, each holding one game: the game page's, in the session cookie, and
the daily page's, whose requests say ``X-Game: daily`` (GAME_HEADER) and find their session in a
cookie of its own (``session-daily``): playing today's game never moves the game in progress out of
its session, nor the other way round. A request without the header (any API client) has one session.
"""

import time

from flask import request

COOKIE_SENT = "_cookie_sent"  # in the session: [when its cookie was last sent (Unix time), with which settings]
COOKIE_RESENDS_PER_LIFETIME = 10  # the cookie is sent again once a tenth of its lifetime has passed
BOOKKEEPING_KEYS = frozenset({"_permanent", COOKIE_SENT})
GAME_HEADER, DAILY = "X-Game", "daily"


class CookiePolicy:
    """Mixin over a Flask-Session interface: the store's copy is refreshed on every request, the
    cookie only now and then."""

    def save_session(self, app, session, response):
        """Sending the cookie with every move would add a Set-Cookie header to each answer
        just to push its expiry on by a few seconds. It is sent again once a tenth of its
        lifetime has passed, or at once when its settings changed (e.g. it became Secure),
        so it expires at most that tenth before the stored session; in that window the
        page puts its saved game into a new session.
        """
        if not BOOKKEEPING_KEYS.issuperset(session):
            settings = self._cookie_settings(app)
            session.cookie_due = _cookie_due(session.get(COOKIE_SENT), settings, app.permanent_session_lifetime)
            if session.cookie_due:
                session[COOKIE_SENT] = [time.time(), settings]
        elif COOKIE_SENT in session:
            del session[COOKIE_SENT]  # emptied: Flask-Session deletes it and its cookie
        super().save_session(app, session, response)

    def get_cookie_name(self, app):
        name = super().get_cookie_name(app)
        return f"{name}-{DAILY}" if request.headers.get(GAME_HEADER) == DAILY else name

    def get_cookie_secure(self, app):
        return secure_cookies(app)

    def regenerate(self, session):
        """A new id must reach the browser at once."""
        super().regenerate(session)
        session.pop(COOKIE_SENT, None)

    def should_set_cookie(self, app, session):
        return session.cookie_due

    def _cookie_settings(self, app):
        """What the cookie was sent with: a change to any of them sends it again."""
        return "; ".join(
            str(setting)
            for setting in (
                self.get_cookie_domain(app),
                self.get_cookie_path(app),
                self.get_cookie_secure(app),
                self.get_cookie_httponly(app),
                self.get_cookie_samesite(app),
                app.permanent_session_lifetime.total_seconds(),
            )
        )


def _cookie_due(sent, settings, lifetime):
    """Whether the cookie must be sent: never sent by this version, sent otherwise, or a while ago."""
    if not (isinstance(sent, list) and len(sent) == 2 and isinstance(sent[0], int | float)) or sent[1] != settings:
        return True
    age = time.time() - sent[0]
    return not 0 <= age < lifetime.total_seconds() / COOKIE_RESENDS_PER_LIFETIME


def secure_cookies(app) -> bool:
    """SESSION_COOKIE_SECURE for this request: ``"auto"`` (the default) follows the request's
    scheme (behind the trusted proxies, the forwarded one), so a game served over HTTPS gets
    Secure cookies with no setting; true or false force it."""
    setting = app.config["SESSION_COOKIE_SECURE"]
    return request.is_secure if setting == "auto" else bool(setting)
