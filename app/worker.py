"""gunicorn's worker for this app: each request read whole before the app sees it.

gunicorn's sync workers read a request themselves, so a client that sends its request slowly, or
stops half-way, holds a worker until gunicorn kills it 30 s later: two such clients stop a
two-worker server. gunicorn's own advice is a buffering proxy in front; the one-container run and
the README's command have none. BufferingWorker is that proxy inside each worker: an event loop
(the standard library's selectors) takes every connection and keeps what arrives of its request,
gunicorn's own parser says when it is whole, and only then does the sync worker's request
handling run the app, reading from what arrived; its answer is sent from the loop too, so a client
that reads it slowly holds nothing either. A request must arrive whole within REQUEST_TIMEOUT
(else 408) and within the limits below (else 413 or 431); one gunicorn cannot parse is refused as
it would refuse it (400, 414, 501), in JSON under /api as the app's own errors are. The app still
answers one request at a time per worker, as with the sync worker (no threads, no monkey-patching:
the solver, SQLite and the lock files see what they always saw). bench.slow_clients measures it
(docs/benchmarks.md: gthread, tornado and the sync worker beside it).
"""

import os
import re
import selectors
import time
from contextlib import suppress
from http import HTTPStatus

from gunicorn.http.body import LengthReader
from gunicorn.http.errors import (
    ExpectationFailed,
    ForbiddenProxyRequest,
    LimitRequestHeaders,
    LimitRequestLine,
    NoMoreData,
    ParseException,
    UnsupportedTransferCoding,
)
from gunicorn.http.parser import RequestParser
from gunicorn.workers.sync import SyncWorker

from .errors import refusal

REQUEST_TIMEOUT = 10.0  # seconds for a request to arrive whole
ANSWER_TIMEOUT = 30.0  # seconds for a client to take what of its answer the kernel could not hold
HEAD_LIMIT = 64 * 1024  # bytes of request line and headers
BODY_LIMIT = 128 * 1024  # bytes of body: twice the largest the app takes (a restore's 64 KiB)
CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"
# gunicorn's refusals, by status (any other ParseException is a 400), as its sync worker answers them.
REFUSALS = {LimitRequestLine: 414, LimitRequestHeaders: 431, UnsupportedTransferCoding: 501, ExpectationFailed: 417,
            ForbiddenProxyRequest: 403}  # fmt: skip
# The headers that say whether a request has a body and how long it is.
BODY_FRAMING = re.compile(rb"\r\n(?:content-length|transfer-encoding|expect)[ \t]*:", re.IGNORECASE)
CONTENT_LENGTH = re.compile(rb"\r\ncontent-length:[ \t]*([0-9]{1,15})[ \t]*\r\n", re.IGNORECASE)


def refusal_status(error):
    return next((status for kind, status in REFUSALS.items() if isinstance(error, kind)), 400)


class Refused(Exception):
    """A request that will not be served: ``status`` and why."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class Connection:
    """A client's connection while the worker's loop holds it: what arrived of its request, what is
    left to send of its answer. To gunicorn's request handling it is the socket: reads come from
    what arrived, writes go out through the loop, and closing it hands it back to the loop."""

    def __init__(self, sock, addr, listener):
        self.sock, self.addr, self.listener = sock, addr, listener
        self.received, self.read_at = bytearray(), 0
        self.outgoing = bytearray()
        self.deadline = time.monotonic() + REQUEST_TIMEOUT
        self.continued = False  # "100 Continue" sent while its body was awaited

    def recv(self, size):
        data = bytes(self.received[self.read_at : self.read_at + size])
        self.read_at += len(data)
        return data

    def send(self, data):
        if not (self.continued and data == CONTINUE):  # gunicorn would send it again
            self.outgoing += data
        return len(data)

    def sendall(self, data):
        self.send(data)

    def fileno(self):
        return self.sock.fileno()

    def getsockname(self):
        return self.sock.getsockname()

    def getpeername(self):
        return self.sock.getpeername()

    def settimeout(self, timeout):
        """The loop's deadlines hold, not the handler's."""

    def gettimeout(self):
        return None

    def setblocking(self, flag):
        """The loop's socket never blocks."""

    def shutdown(self, how):
        """The loop closes the connection once the answer has left."""

    def close(self):
        """As shutdown."""

    def request_target(self):
        """The path the request line names, as far as it arrived ("" before it)."""
        line = bytes(self.received[:4096]).split(b"\r\n", 1)[0].split(b" ")
        return line[1].decode("latin-1").split("?", 1)[0] if len(line) > 1 else ""


class BufferingWorker(SyncWorker):
    """gunicorn's sync worker behind an event loop that reads each request whole and sends each
    answer, so that no slow client holds the worker (see above)."""

    @classmethod
    def check_config(cls, cfg, log):
        if cfg.is_ssl:  # the loop reads what arrives on the socket: TLS would be read as the request
            raise RuntimeError("BufferingWorker speaks plain HTTP: end TLS in the proxy in front (docs/deployment.md)")

    def run(self):
        self.selector = selectors.DefaultSelector()
        self.held = {}  # every connection the loop holds, by its socket
        self.selector.register(self.PIPE[0], selectors.EVENT_READ, "wake")  # signals end the wait
        for listener in self.sockets:
            listener.setblocking(False)
        self.accepting = False
        while self.alive and self.is_parent_alive():
            self.notify()
            self._accept_while_room()
            self._dispatch(self._wait(1.0))
            self._expire()
        self._finish_sending(time.monotonic() + self.cfg.graceful_timeout)

    def _accept_while_room(self):
        room = len(self.held) < self.cfg.worker_connections
        if room != self.accepting:
            for listener in self.sockets:
                if room:
                    self.selector.register(listener, selectors.EVENT_READ, "listener")
                else:
                    self.selector.unregister(listener)
            self.accepting = room

    def _wait(self, longest):
        soonest = min((conn.deadline for conn in self.held.values()), default=time.monotonic() + longest)
        return self.selector.select(max(0.0, min(longest, soonest - time.monotonic())))

    def _dispatch(self, events):
        for key, mask in events:
            if key.data == "wake":
                os.read(self.PIPE[0], 64)
            elif key.data == "listener":
                self._accept(key.fileobj)
            elif mask & selectors.EVENT_WRITE:
                self._send(key.data)
            else:
                self._receive(key.data)

    def _accept(self, listener):
        try:
            sock, addr = listener.accept()
        except (BlockingIOError, ConnectionAbortedError):
            return  # another worker took it
        sock.setblocking(False)
        conn = Connection(sock, addr, listener)
        self.held[sock] = conn
        self.selector.register(sock, selectors.EVENT_READ, conn)

    def _receive(self, conn):
        try:
            data = conn.sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # the client went away before its request was whole
            self._close(conn)
            return
        conn.received += data
        try:
            if self._arrived_whole(conn):
                self.selector.unregister(conn.sock)
                self.handle(conn.listener, conn, conn.addr)  # the sync worker's handling: the app runs
                self._answer(conn)
        except Refused as refusal:
            self.selector.unregister(conn.sock)
            self._refuse(conn, refusal.status, str(refusal))

    def _arrived_whole(self, conn):
        """Whether the request has arrived whole; Refused if it never can be. Most requests say so in
        their head (no body, or one Content-Length); any other (chunked, awaiting "100 Continue",
        anything unusual) is asked of gunicorn's own parser, the one that reads it next."""
        received = conn.received
        end = received.find(b"\r\n\r\n", 0, HEAD_LIMIT + 4)
        if end < 0:
            if len(received) > HEAD_LIMIT:
                raise Refused(431, f"a request's line and headers may hold {HEAD_LIMIT} bytes at most")
            return False
        head = bytes(received[: end + 2])
        framing = BODY_FRAMING.findall(head)
        if not framing:
            return True  # no body: a malformed head is refused by the parser, in handle_error
        lengths = CONTENT_LENGTH.findall(head)
        if len(framing) == len(lengths) == 1:
            if int(lengths[0]) > BODY_LIMIT:
                raise Refused(413, f"a request body may hold {BODY_LIMIT} bytes at most")
            return len(received) - end - 4 >= int(lengths[0])
        return self._parsed_whole(conn)

    def _parsed_whole(self, conn):
        """As _arrived_whole, by gunicorn's parser; asks a client that awaits it for the body."""
        too_large = Refused(413, f"a request body may hold {BODY_LIMIT} bytes at most")
        try:
            request = next(RequestParser(self.cfg, [bytes(conn.received)], conn.addr))
            reader = request.body.reader
            declared = reader.length if isinstance(reader, LengthReader) else None  # else chunked
            if (declared or 0) > BODY_LIMIT:
                raise too_large
            body = request.body.read(BODY_LIMIT + 1)
        except NoMoreData:  # not whole yet
            if len(conn.received) > HEAD_LIMIT + BODY_LIMIT:
                raise too_large from None
            return False
        except ParseException as error:
            raise Refused(refusal_status(error), str(error) or type(error).__name__) from None
        if len(body) > BODY_LIMIT:
            raise too_large
        whole = declared is None or len(body) == declared
        if not whole and request._expected_100_continue and not conn.continued:
            conn.continued = True
            self._send_now(conn, CONTINUE)
        return whole

    def handle_error(self, req, client, addr, exc):
        """A request gunicorn cannot parse, found as the handler reads it: refused as above."""
        if isinstance(client, Connection) and isinstance(exc, ParseException):
            self._write_refusal(client, refusal_status(exc), str(exc) or type(exc).__name__)
        else:
            super().handle_error(req, client, addr, exc)

    def _refuse(self, conn, status, message):
        self._write_refusal(conn, status, message)
        self._answer(conn)

    def _write_refusal(self, conn, status, message):
        """Answer as the app answers its errors (app/errors.py: JSON under /api); the loop then closes."""
        path = conn.request_target()
        self.log.warning("refused a request to %s: %s %s", path[:100] or "?", status, message)
        content_type, body = refusal(status, message, path)
        head = (
            f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n"
        )
        conn.outgoing += head.encode("latin-1") + body

    def _answer(self, conn):
        """Send what the handler wrote, from the loop when the client does not take it at once."""
        conn.deadline = time.monotonic() + ANSWER_TIMEOUT
        self._send(conn, registered=False)

    def _send(self, conn, registered=True):
        self._send_now(conn, conn.outgoing)
        if not conn.outgoing:
            self._close(conn, registered)
        elif not registered:
            self.selector.register(conn.sock, selectors.EVENT_WRITE, conn)

    def _send_now(self, conn, data):
        """As much of ``data`` as the socket takes now; it is taken off the front of ``data``."""
        try:
            sent = conn.sock.send(data)
        except BlockingIOError:
            return
        except OSError:  # the client went away: nothing more will be sent
            sent = len(data)
        if data is conn.outgoing:
            del conn.outgoing[:sent]

    def _expire(self):
        now = time.monotonic()
        for conn in [conn for conn in self.held.values() if conn.deadline <= now]:
            if conn.outgoing or conn.read_at:  # an answer the client did not take in time
                self._close(conn)
            else:
                self.selector.unregister(conn.sock)
                self._refuse(conn, 408, f"the request did not arrive whole within {REQUEST_TIMEOUT:g} s")

    def _finish_sending(self, deadline):
        """On the way out: requests still arriving are dropped, answers leaving get until ``deadline``."""
        for conn in [conn for conn in self.held.values() if not conn.outgoing]:
            self._close(conn)
        while self.held and time.monotonic() < deadline:
            self._dispatch(self._wait(0.1))
        for conn in list(self.held.values()):
            self._close(conn)

    def _close(self, conn, registered=True):
        if registered:
            self.selector.unregister(conn.sock)
        del self.held[conn.sock]
        with suppress(OSError):
            conn.sock.close()
