"""The one HTTP client of the tests and benchmarks: http.client with a cookie, loopback only.

Every request opens a new connection (gunicorn's sync workers close them anyway), so with
several workers requests land on whichever worker accepts them. No proxies, no redirects.
A request that gets no whole answer raises OSError (ConnectionError for a reply cut short).
"""

import http.client
import json
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from urllib.parse import urlsplit


@dataclass
class Response:
    status: int
    headers: dict
    body: bytes = field(repr=False)

    def json(self):
        return json.loads(self.body)

    @property
    def content_type(self):
        return self.headers.get("content-type", "")

    @property
    def retry_after(self):
        return float(self.headers.get("retry-after") or 0)


class HttpClient:
    """One player: the cookies the server set, sent back on every request.

    ``base_url`` may be changed, or given per request, to play one session against
    several servers with the same cookie. ``source`` is the loopback address to connect
    from (any of 127.0.0.0/8), so that the server's per-address limits tell clients apart.
    """

    def __init__(self, base_url=None, timeout=10, source=None):
        self.base_url = base_url
        self.timeout = timeout
        self.source = None if source is None else (source, 0)
        self.cookies = {}

    def request(self, method, path, json=None, base_url=None, headers=None, timeout=None):
        url = urlsplit(path if "://" in path else (base_url or self.base_url).rstrip("/") + path)
        all_headers = {"Accept": "application/json", **(headers or {})}
        body = None
        if json is not None:
            body = _json_dumps(json)
            all_headers["Content-Type"] = "application/json"
        if self.cookies:
            all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        target = url.path + (f"?{url.query}" if url.query else "")
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=timeout or self.timeout,
                                                source_address=self.source)
        try:
            connection.request(method, target, body=body, headers=all_headers)
            reply = connection.getresponse()
            response = Response(reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read())
        except http.client.HTTPException as error:  # e.g. a reply cut short: the server died mid-answer
            raise ConnectionError(f"{method} {target}: {error!r}") from error
        finally:
            connection.close()
        self._keep_cookies(reply.headers.get_all("Set-Cookie") or [])
        return response

    def _keep_cookies(self, set_cookie_headers):
        for header in set_cookie_headers:
            for name, morsel in SimpleCookie(header).items():
                if morsel["max-age"] == "0" or "1970" in morsel["expires"]:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, json=None, **kw):
        return self.request("POST", path, json=json, **kw)

    def put(self, path, json=None, **kw):
        return self.request("PUT", path, json=json, **kw)


def _json_dumps(value):
    return json.dumps(value).encode()


def http_status(url, timeout=2):
    """The status of a GET, or None when nothing answers."""
    try:
        return HttpClient(timeout=timeout).get(url).status
    except OSError:
        return None
