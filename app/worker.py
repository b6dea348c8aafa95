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

Work per byte stays linear: each arrival is looked at from where the last one stopped. The end of
the head is looked for in the new bytes; the head then says once how its body ends (a length, or
chunks: the common heads by a look, any other by gunicorn's own parser reading the head alone); and
a chunked body is followed chunk by chunk as it arrives (ChunkedBody), its lines and chunks bounded.
So gunicorn's parser, whose reading of a chunked body grows steeply with its chunks, reads a request
whole once, when it has arrived, and a body of at most MAX_CHUNKS chunks. No address takes all of a
worker's connections: each client address may hold CONNECTIONS_PER_ADDRESS of them at once (a
setting, app/config.py; behind trusted proxies, counted by the address they forward for, once the
head has arrived), and a connection that has sent nothing is closed after IDLE_TIMEOUT. One past its
address's share waits apart, unread and not counted against the worker's connections (at most
MAX_WAITING of them): it is answered 503 as soon as it sends something, or closed after
IDLE_TIMEOUT, so that an address that opens hundreds of connections and opens them again as they
close holds no place, and spins no loop.
"""

import errno
import ipaddress
import os
import re
import resource
import selectors
import time
from collections import Counter
from contextlib import suppress
from http import HTTPStatus

from gunicorn.http.body import ChunkedReader, LengthReader
from gunicorn.http.errors import (
    ExpectationFailed,
    ForbiddenProxyRequest,
    LimitRequestHeaders,
    LimitRequestLine,
    ParseException,
    UnsupportedTransferCoding,
)
from gunicorn.http.parser import RequestParser
from gunicorn.workers.sync import SyncWorker

from .config import DEFAULTS
from .errors import refusal

REQUEST_TIMEOUT = 10.0  # seconds for a request to arrive whole
IDLE_TIMEOUT = 5.0  # seconds for a connection to send its first byte (a browser's preconnect sends within them)
ANSWER_TIMEOUT = 30.0  # seconds for a client to take what of its answer the kernel could not hold
HEAD_LIMIT = 64 * 1024  # bytes of request line and headers
BODY_LIMIT = 128 * 1024  # bytes of body: twice the largest the app takes (a restore's 64 KiB)
MAX_CHUNKS = 256  # chunks of a chunked body: 512-byte pieces of the largest, where clients send KiBs
CHUNK_LINE_LIMIT = 256  # bytes of a chunk's size line (its extensions too)
TRAILERS_LIMIT = 8192  # bytes of the header lines after a chunked body's last chunk
MAX_WAITING = 1000  # connections past their address's share a worker keeps waiting (file descriptors, no buffer)
FILES_SPARE = 64  # file descriptors a worker keeps for its own files (the store, lock files, logs)
ACCEPT_PAUSE = 0.1  # seconds a worker waits to accept again when the system has no file descriptor left
CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"
# gunicorn's refusals, by status (any other ParseException is a 400), as its sync worker answers them.
REFUSALS = {LimitRequestLine: 414, LimitRequestHeaders: 431, UnsupportedTransferCoding: 501, ExpectationFailed: 417,
            ForbiddenProxyRequest: 403}  # fmt: skip
# The headers that say whether a request has a body and how long it is.
BODY_FRAMING = re.compile(rb"\r\n(?:content-length|transfer-encoding|expect)[ \t]*:", re.IGNORECASE)
CONTENT_LENGTH = re.compile(rb"\r\ncontent-length:[ \t]*([0-9]{1,15})[ \t]*\r\n", re.IGNORECASE)
CHUNKED = re.compile(rb"\r\ntransfer-encoding:[ \t]*chunked[ \t]*\r\n", re.IGNORECASE)
CHUNK_SIZE = re.compile(rb"([0-9A-Fa-f]{1,8})(?:[ \t]*;[^\r\n]*)?")  # a chunk's size line, its extensions let by
FORWARDED_FOR = re.compile(rb"\r\nx-forwarded-for:([^\r\n]*)(?=\r\n)", re.IGNORECASE)


def refusal_status(error):
    return next((status for kind, status in REFUSALS.items() if isinstance(error, kind)), 400)


class Refused(Exception):
    """A request that will not be served: ``status`` and why."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class ChunkedBody:
    """How far a chunked body has arrived, followed chunk by chunk: each arrival is read on from where
    the last stopped (a line not ended yet is searched from where the search stopped; a chunk whose
    data has not all arrived is waited for without reading its size line again), so every byte is
    looked at once however the body is cut; its lines and chunks are bounded."""

    def __init__(self, start):
        self.at, self.searched, self.size, self.chunks = start, start, 0, 0
        self.chunk_end = None  # where the data of the chunk being awaited ends
        self.trailers = None  # bytes of trailer lines so far, once the last chunk has come

    def whole(self, received) -> bool:
        """Whether the body has arrived whole; Refused if it never can be (too large, too many chunks, a
        line too long, or not chunked as HTTP/1.1 says: gunicorn's parser reads it whole once this says it is)."""
        while True:
            if self.chunk_end is not None:
                if len(received) < self.chunk_end + 2:
                    return False
                if received[self.chunk_end : self.chunk_end + 2] != b"\r\n":
                    raise Refused(400, "a chunked body's chunk is longer than its size says")
                self.at = self.searched = self.chunk_end + 2
                self.chunk_end = None
            line_end = received.find(b"\r\n", max(self.at, self.searched - 1))
            if line_end < 0:
                self.searched = len(received)
                self._bound(len(received) - self.at, ended=False)
                return False
            line = bytes(received[self.at : line_end])
            self._bound(len(line), ended=True)
            self.at = self.searched = line_end + 2
            if self.trailers is not None:  # after the last chunk, header lines up to an empty one
                if not line:
                    return True
                continue
            size = CHUNK_SIZE.fullmatch(line)
            if size is None:
                raise Refused(400, "a chunked body's chunk size is not a hexadecimal number")
            size = int(size[1], 16)
            if size == 0:
                self.trailers = 0
                continue
            if self.size + size > BODY_LIMIT or self.chunks == MAX_CHUNKS:
                raise Refused(413, f"a request body may hold {BODY_LIMIT} bytes in {MAX_CHUNKS} chunks at most")
            self.size, self.chunks, self.chunk_end = self.size + size, self.chunks + 1, self.at + size

    def _bound(self, length, ended):
        """A size line, or the trailers together, past their limit: refused (431 for trailers, as for
        headers). ``length``: the line's so far; ``ended``: it is whole, and the trailers count it."""
        if self.trailers is None:
            if length > CHUNK_LINE_LIMIT:
                raise Refused(400, f"a chunked body's size line may hold {CHUNK_LINE_LIMIT} bytes at most")
            return
        if self.trailers + length > TRAILERS_LIMIT:
            raise Refused(431, f"a chunked body's trailers may hold {TRAILERS_LIMIT} bytes at most")
        if ended:
            self.trailers += length + 2


class Connection:
    """A client's connection while the worker's loop holds it: what arrived of its request, what is
    left to send of its answer. To gunicorn's request handling it is the socket: reads come from
    what arrived, writes go out through the loop, and closing it hands it back to the loop."""

    def __init__(self, sock, addr, listener):
        self.sock, self.addr, self.listener = sock, addr, listener
        self.client = None  # the address it is counted under, once admitted
        self.waiting = False  # past its address's share: answered 503 once it says something
        self.received, self.read_at = bytearray(), 0
        self.outgoing = bytearray()
        self.deadline = time.monotonic() + IDLE_TIMEOUT
        self.continued = False  # "100 Continue" sent while its body was awaited
        self.searched = 0  # how far the end of the head was looked for
        self.body_at = None  # where the body starts, once the head has arrived
        self.body = None  # then what says it has arrived whole: its length, or a ChunkedBody
        self.expects_continue = False  # the head asks for "100 Continue" before the body

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
        settings = getattr(self.wsgi, "config", DEFAULTS)  # the app's, checked (app/config.py)
        self.per_client = int(settings["CONNECTIONS_PER_ADDRESS"])
        self.proxies = int(settings["TRUSTED_PROXIES"])
        self.clients = Counter()  # connections admitted per client address
        self.waiting = 0  # connections past their address's share
        self.max_waiting = self._files_for_waiting()
        self.accept_after = 0.0  # accepting waits until then after the system ran out of file descriptors
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

    def _files_for_waiting(self):
        """How many connections may wait past their address's share: MAX_WAITING, within the file
        descriptors the process may open (its soft limit raised to the hard one, as any process may),
        beside its own connections and files."""
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = self.cfg.worker_connections + MAX_WAITING + FILES_SPARE
        if soft != resource.RLIM_INFINITY and soft < wanted:
            soft = wanted if hard == resource.RLIM_INFINITY else min(hard, wanted)
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        return max(0, min(MAX_WAITING, soft - self.cfg.worker_connections - FILES_SPARE))

    def _accept_while_room(self):
        room = len(self.held) - self.waiting < self.cfg.worker_connections and time.monotonic() >= self.accept_after
        if room != self.accepting:
            for listener in self.sockets:
                if room:
                    self.selector.register(listener, selectors.EVENT_READ, "listener")
                else:
                    self.selector.unregister(listener)
            self.accepting = room

    def _wait(self, longest):
        deadlines = [conn.deadline for conn in self.held.values()]
        soonest = min([*deadlines, self.accept_after] if not self.accepting else deadlines,
                      default=time.monotonic() + longest)  # fmt: skip
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
        except OSError as error:
            if error.errno not in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                raise
            self.log.warning("no file descriptor left to accept a connection: accepting again in %g s", ACCEPT_PAUSE)
            self.accept_after = time.monotonic() + ACCEPT_PAUSE
            return
        sock.setblocking(False)
        conn = Connection(sock, addr, listener)
        self.held[sock] = conn
        self.selector.register(sock, selectors.EVENT_READ, conn)
        if self.proxies or self._admitted(conn, client_of(addr[0])):
            return
        if self.waiting < self.max_waiting:
            conn.waiting = True
            self.waiting += 1
        else:
            self._refuse_over_share(conn)

    def _admitted(self, conn, client):
        """The connection counted under its client's address, unless that address holds its share already."""
        if self.clients[client] >= self.per_client:
            return False
        self.clients[client] += 1
        conn.client = client
        return True

    def _refuse_over_share(self, conn):
        self.selector.unregister(conn.sock)
        self._refuse(conn, 503, f"this address holds {self.per_client} connections to this server already")

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
        if conn.waiting:
            conn.received += data  # what it asks for says how to answer (JSON under /api)
            self._refuse_over_share(conn)
            return
        if not conn.received:
            conn.deadline = time.monotonic() + REQUEST_TIMEOUT
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
        """Whether the request has arrived whole; Refused if it never can be. Each arrival is looked at
        from where the last stopped: the end of the head, then what the head says of its body (_body_of,
        once), then the body's bytes, or its chunks as they come (ChunkedBody)."""
        received = conn.received
        if conn.body_at is None:
            end = received.find(b"\r\n\r\n", max(0, conn.searched - 3), HEAD_LIMIT + 4)
            if end < 0:
                conn.searched = len(received)
                if len(received) > HEAD_LIMIT:
                    raise Refused(431, f"a request's line and headers may hold {HEAD_LIMIT} bytes at most")
                return False
            conn.body_at = end + 4
            head = bytes(received[: end + 2])
            # Behind trusted proxies a connection is counted by the client they forward for.
            forwarded = conn.client is None and client_of(forwarded_client(head, self.proxies) or conn.addr[0])
            if forwarded and not self._admitted(conn, forwarded):
                raise Refused(503, f"this address holds {self.per_client} connections to this server already")
            conn.body = self._body_of(conn, head)
        if isinstance(conn.body, ChunkedBody):
            whole = conn.body.whole(received)
        else:
            whole = len(received) - conn.body_at >= conn.body
        if not whole and conn.expects_continue and not conn.continued:
            conn.continued = True
            self._send_now(conn, CONTINUE)
        return whole

    def _body_of(self, conn, head):
        """What says the body has arrived whole, from the head, once: its length, or a ChunkedBody. The
        common heads (no body, one Content-Length, one Transfer-Encoding: chunked) by a look; any other
        by gunicorn's own parser, the one that reads the request next, reading the head alone (a body's
        spelling is its to judge)."""
        framing = BODY_FRAMING.findall(head)
        lengths = CONTENT_LENGTH.findall(head)
        if not framing:
            return 0  # no body: a malformed head is refused by the parser, in handle_error
        if len(framing) == 1 and CHUNKED.search(head):
            return ChunkedBody(conn.body_at)
        if len(framing) == len(lengths) == 1:
            length = int(lengths[0])
        else:
            try:
                request = next(RequestParser(self.cfg, [head + b"\r\n"], conn.addr))
            except ParseException as error:
                raise Refused(refusal_status(error), str(error) or type(error).__name__) from None
            conn.expects_continue = request._expected_100_continue
            reader = request.body.reader
            if isinstance(reader, ChunkedReader):
                return ChunkedBody(conn.body_at)
            if not isinstance(reader, LengthReader):
                raise Refused(501, "a request body must say its length or come in chunks")
            length = reader.length
        if length > BODY_LIMIT:
            raise Refused(413, f"a request body may hold {BODY_LIMIT} bytes at most")
        return length

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
        retry = "Retry-After: 1\r\n" if status == 503 else ""  # a fault passes: ask again in a moment
        head = (
            f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\nX-Content-Type-Options: nosniff\r\n{retry}Connection: close\r\n\r\n"
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
            if conn.outgoing or conn.read_at or not conn.received:  # an answer not taken in time, or no request
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
        self.waiting -= conn.waiting
        if conn.client is not None:
            self.clients[conn.client] -= 1
            if not self.clients[conn.client]:
                del self.clients[conn.client]
        with suppress(OSError):
            conn.sock.close()


def forwarded_client(head, proxies):
    """The client address the trusted proxies forward for (X-Forwarded-For's address ``proxies`` from
    its end, as the app's ProxyFix reads it), or None when the head names none."""
    values = [value.strip() for match in FORWARDED_FOR.findall(head) for value in match.split(b",")]
    return values[-proxies].decode("latin-1") if proxies and len(values) >= proxies else None


def client_of(address):
    """The key a client address's connections are counted under: an IPv6 address by its /64 (what one
    network gets whole), as the rate limits count them (app/limits.py)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 4:
        return address
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network((ip, 64), strict=False))
